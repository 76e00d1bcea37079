// Random sequences of 1–4 of the fusion and simplification passes on every repository model (and
// on models made to tempt them: Conv → Relu → BatchNormalization; one Conv called twice, once
// before a Relu; a constant split in two; the same input transposed two ways), each result run on
// the CPU backend and compared, after every pass, with the oracle: the model as written, op by op
// (no recognition), on the reference kernels. A pass that computes another function than the model
// fails here, whatever order the passes come in.
#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/lint.h"
#include "onnx/export.h"
#include "onnx/load.h"
#include "onnx/trace.h"
#include "passes/registry.h"
#include "test_models.h"

namespace ir = fxc::ir;

namespace {

// A model of `opset` (IR version 8, 5 before opset 11) whose graph `name` has one float input x
// of `dims`; the builders add the rest.
onnx::ModelProto modelWithInput(const std::string& name, int opset, std::vector<int64_t> dims) {
  onnx::ModelProto model;
  model.set_ir_version(opset >= 11 ? 8 : 5);
  model.add_opset_import()->set_version(opset);
  auto* graph = model.mutable_graph();
  graph->set_name(name);
  auto* input = graph->add_input();
  input->set_name("x");
  auto* type = input->mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) type->mutable_shape()->add_dim()->set_dim_value(d);
  return model;
}

// x [1, 2, 5, 5] → Conv (3 channels, 3x3, pad 1) → Relu → BatchNormalization.
std::string convReluBatchNorm() {
  onnx::ModelProto model = modelWithInput("conv_relu_bn", 13, {1, 2, 5, 5});
  auto* graph = model.mutable_graph();
  std::mt19937 rng(3);
  std::normal_distribution<float> normal;
  auto tensor = [&](const std::string& name, std::vector<int64_t> dims, float offset) {
    auto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    for (int64_t i = 0; i < n; ++i) t->add_float_data(offset + normal(rng));
  };
  tensor("conv.weight", {3, 2, 3, 3}, 0);
  tensor("conv.bias", {3}, 0);
  tensor("bn.weight", {3}, 2);
  tensor("bn.bias", {3}, 0);
  tensor("bn.running_mean", {3}, 0);
  tensor("bn.running_var", {3}, 3);  // positive
  auto node = [&](const std::string& op, const std::string& name, std::vector<std::string> in,
                  const std::string& out) {
    auto* n = graph->add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : in) n->add_input(i);
    n->add_output(out);
    return n;
  };
  auto* conv = node("Conv", "/conv/Conv", {"x", "conv.weight", "conv.bias"}, "c");
  auto* pads = conv->add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (int i = 0; i < 4; ++i) pads->add_ints(1);
  node("Relu", "/relu/Relu", {"c"}, "r");
  node("BatchNormalization", "/bn/BatchNormalization",
       {"r", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"}, "y");
  auto* output = graph->add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return model.SerializeAsString();
}

// One Conv module called twice, once before a Relu: x [1, 2, 5, 5] → conv → Relu → conv → y.
// conv-relu must not fuse the ReLU into a module the second call shares.
std::string convCalledTwice() {
  onnx::ModelProto model = modelWithInput("conv_twice", 13, {1, 2, 5, 5});
  auto* graph = model.mutable_graph();
  std::mt19937 rng(5);
  std::normal_distribution<float> normal;
  for (auto [name, dims] :
       {std::pair<const char*, std::vector<int64_t>>{"conv.weight", {2, 2, 3, 3}},
        {"conv.bias", {2}}}) {
    auto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) {
      t->add_dims(d);
      n *= d;
    }
    for (int64_t i = 0; i < n; ++i) t->add_float_data(normal(rng));
  }
  auto conv = [&](const std::string& name, const std::string& in, const std::string& out) {
    auto* n = graph->add_node();
    n->set_op_type("Conv");
    n->set_name(name);
    for (const char* i : {in.c_str(), "conv.weight", "conv.bias"}) n->add_input(i);
    n->add_output(out);
    auto* pads = n->add_attribute();
    pads->set_name("pads");
    pads->set_type(onnx::AttributeProto::INTS);
    for (int i = 0; i < 4; ++i) pads->add_ints(1);
  };
  conv("/conv/Conv", "x", "c");
  auto* relu = graph->add_node();
  relu->set_op_type("Relu");
  relu->set_name("/relu/Relu");
  relu->add_input("c");
  relu->add_output("r");
  conv("/conv/Conv_1", "r", "y");
  auto* output = graph->add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return model.SerializeAsString();
}

// y = (x + a) · b with a, b = Split(c) of a constant c [2, 2, 3]: const-fold must give each
// output its own half; plus Transpose(x, [1, 0, 2]) + Transpose(x, [0, 1, 2]) of the same x,
// which cse must not merge.
std::string splitAndTransposes() {
  onnx::ModelProto model = modelWithInput("split_transposes", 13, {2, 2, 3});
  auto* graph = model.mutable_graph();
  auto* c = graph->add_initializer();
  c->set_name("c");
  c->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : {4, 2, 3}) c->add_dims(d);
  for (int i = 0; i < 24; ++i) c->add_float_data(0.25f * static_cast<float>(i) - 2.0f);
  auto node = [&](const std::string& op, std::vector<std::string> in,
                  std::vector<std::string> out) {
    auto* n = graph->add_node();
    n->set_op_type(op);
    n->set_name(out[0]);
    for (const auto& i : in) n->add_input(i);
    for (const auto& o : out) n->add_output(o);
    return n;
  };
  auto* sizes = graph->add_initializer();
  sizes->set_name("sizes");
  sizes->set_data_type(onnx::TensorProto::INT64);
  sizes->add_dims(2);
  sizes->add_int64_data(2);
  sizes->add_int64_data(2);
  node("Split", {"c", "sizes"}, {"a", "b"});
  node("Add", {"x", "a"}, {"xa"});
  node("Mul", {"xa", "b"}, {"m"});
  for (auto [name, perm] :
       {std::pair<const char*, std::vector<int64_t>>{"t1", {1, 0, 2}}, {"t2", {0, 1, 2}}}) {
    auto* t = node("Transpose", {"m"}, {name});
    auto* attr = t->add_attribute();
    attr->set_name("perm");
    attr->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : perm) attr->add_ints(v);
  }
  node("Add", {"t1", "t2"}, {"y"});
  auto* output = graph->add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return model.SerializeAsString();
}

// x [1, 2, 4, 4] → three Pads: all zeros (constant mode), one nonzero pad (reflect: the near miss),
// all zeros again (edge mode) → Relu. At opset 13 the pads are an input; at opset 10 an attribute.
// identity removes the two that pad nothing, and only those.
std::string pads(int opset) {
  onnx::ModelProto model = modelWithInput("pads", opset, {1, 2, 4, 4});
  auto* graph = model.mutable_graph();
  auto pad = [&](const std::string& in, const std::string& out, std::vector<int64_t> amounts,
                 const std::string& mode) {
    auto* n = graph->add_node();
    n->set_op_type("Pad");
    n->set_name(out);
    n->add_input(in);
    n->add_output(out);
    auto* attr = n->add_attribute();
    attr->set_name("mode");
    attr->set_type(onnx::AttributeProto::STRING);
    attr->set_s(mode);
    if (opset >= 11) {
      auto* t = graph->add_initializer();
      t->set_name(out + ".pads");
      t->set_data_type(onnx::TensorProto::INT64);
      t->add_dims(static_cast<int64_t>(amounts.size()));
      for (int64_t a : amounts) t->add_int64_data(a);
      n->add_input(out + ".pads");
    } else {
      auto* attr_pads = n->add_attribute();
      attr_pads->set_name("pads");
      attr_pads->set_type(onnx::AttributeProto::INTS);
      for (int64_t a : amounts) attr_pads->add_ints(a);
    }
  };
  pad("x", "p0", {0, 0, 0, 0, 0, 0, 0, 0}, "constant");
  pad("p0", "p1", {0, 0, 0, 1, 0, 0, 0, 0}, "reflect");
  pad("p1", "p2", {0, 0, 0, 0, 0, 0, 0, 0}, "edge");
  auto* relu = graph->add_node();
  relu->set_op_type("Relu");
  relu->set_name("relu");
  relu->add_input("p2");
  relu->add_output("y");
  auto* output = graph->add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  return model.SerializeAsString();
}

// Five Pad → AveragePool pairs on x [1, 2, 5, 6], outside any module scope (functions): one that
// pad-pool may merge (zeros over H and W, uneven), and four near misses that it must not: a
// reflect Pad, a Pad over the channels, a pool with ceil_mode, a pad as large as the kernel
// (ONNX Runtime refuses such an AveragePool). Each is an output.
// scoped: each pair in a module scope of its own (/merged/Pad, ...), so that the trace recognizes
// the pair that qualifies as one AvgPool2d module.
std::string padsBeforePools(bool scoped = false) {
  onnx::ModelProto model = modelWithInput("pad_pool", 13, {1, 2, 5, 6});
  auto* graph = model.mutable_graph();
  auto ints = [](onnx::NodeProto* n, const std::string& name, std::vector<int64_t> values) {
    auto* attr = n->add_attribute();
    attr->set_name(name);
    attr->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) attr->add_ints(v);
  };
  std::vector<std::string> pooled;
  auto pair = [&](const std::string& name, std::vector<int64_t> pads, const std::string& mode,
                  bool ceil) {
    auto* t = graph->add_initializer();
    t->set_name(name + ".pads");
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(8);
    for (int64_t a : pads) t->add_int64_data(a);
    auto* pad = graph->add_node();
    pad->set_op_type("Pad");
    pad->set_name(scoped ? "/" + name + "/Pad" : name + "_pad");
    pad->add_input("x");
    pad->add_input(name + ".pads");
    pad->add_output(name + "_padded");
    auto* attr = pad->add_attribute();
    attr->set_name("mode");
    attr->set_type(onnx::AttributeProto::STRING);
    attr->set_s(mode);
    auto* pool = graph->add_node();
    pool->set_op_type("AveragePool");
    pool->set_name(scoped ? "/" + name + "/AveragePool" : name + "_pool");
    pool->add_input(name + "_padded");
    pool->add_output(name);
    ints(pool, "kernel_shape", {3, 3});
    ints(pool, "strides", {1, 2});
    if (ceil) {
      auto* c = pool->add_attribute();
      c->set_name("ceil_mode");
      c->set_type(onnx::AttributeProto::INT);
      c->set_i(1);
    }
    pooled.push_back(name);
  };
  pair("merged", {0, 0, 1, 2, 0, 0, 2, 1}, "constant", false);
  pair("reflected", {0, 0, 1, 1, 0, 0, 1, 1}, "reflect", false);
  pair("channels", {0, 1, 1, 1, 0, 0, 1, 1}, "constant", false);
  pair("ceiled", {0, 0, 1, 1, 0, 0, 1, 1}, "constant", true);
  pair("wide", {0, 0, 3, 0, 0, 0, 0, 0}, "constant", false);  // a pad as large as the kernel
  for (const std::string& name : pooled) {
    auto* output = graph->add_output();
    output->set_name(name);
    output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  return model.SerializeAsString();
}

std::unique_ptr<ir::GraphModule> traced(const std::string& bytes, bool recognize) {
  auto loaded = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
  REQUIRE(loaded.ok());
  fxc::onnx::TraceOptions options;
  options.recognize = recognize;
  options.infer_shapes = true;  // conv-add-relu reads shapes
  auto gm = fxc::onnx::trace(loaded.take(), options);
  REQUIRE_MESSAGE(gm.ok(), gm.error());
  return gm.take();
}

// `must_run`: a model made for this test; one that does not run is a failure, not a skip.
void checkSequences(const std::string& label, const std::string& bytes, int sequences,
                    std::mt19937& rng, bool must_run = false) {
  const std::vector<std::string> names = {
      "conv-bn",     "conv-relu", "conv-add-relu",   "conv-act",   "linear-act",
      "linear-bias", "dce",       "identity",        "const-fold", "cse",
      "pad-pool",    "simplify",  "channel-shuffle", "bn-relu"};
  auto oracle = traced(bytes, false);
  auto inputs = fxc::exec::randomInputs(*oracle, 1, {}, 0);
  if (!inputs.ok()) inputs = fxc::exec::randomInputs(*oracle, 1, {}, 2);  // a symbolic batch
  REQUIRE_MESSAGE(inputs.ok(), label << ": " << inputs.error());
  auto want = fxc::exec::Interpreter(*oracle, fxc::exec::Backend::kReference).run(inputs.value());
  REQUIRE_MESSAGE((want.ok() || !must_run), label << ": " << want.error());
  if (!want.ok()) {  // a model the interpreter cannot run tells nothing about the passes
    MESSAGE(label << ": not run: " << want.error());
    return;
  }
  std::uniform_int_distribution<size_t> pick(0, names.size() - 1);
  std::uniform_int_distribution<int> length(1, 4);
  for (int s = 0; s < sequences; ++s) {
    // The first sequence is the one that once folded a BatchNorm across a fused ReLU; the second
    // simplifies (constant folding, cse) wherever the model allows.
    std::vector<std::string> sequence = {"conv-relu", "conv-bn"};
    if (s == 1) sequence = {"simplify"};
    if (s > 1) {
      sequence.clear();
      for (int k = length(rng); k > 0; --k) sequence.push_back(names[pick(rng)]);
    }
    auto gm = traced(bytes, true);
    std::string done;
    for (const std::string& name : sequence) {
      done += (done.empty() ? "" : " → ") + name;
      auto request = fxc::passes::parsePassSpec(name);
      REQUIRE(request.ok());
      auto result = request.value().pass->run(*gm, request.value().options);
      REQUIRE_MESSAGE(result.ok(), label << ": " << done << ": " << result.error());
      REQUIRE_MESSAGE(ir::lintGraph(gm->graph(), gm.get()).empty(), label << ": " << done);
      auto got = fxc::exec::Interpreter(*gm, fxc::exec::Backend::kCpu).run(inputs.value());
      REQUIRE_MESSAGE(got.ok(), label << ": " << done << ": " << got.error());
      REQUIRE(got.value().size() == want.value().size());
      for (size_t o = 0; o < want.value().size(); ++o) {
        auto d = fxc::exec::compareValues(got.value()[o], want.value()[o], 1e-4, 1e-3);
        CHECK_MESSAGE(d.within, label << ": " << done << ": output " << o << " max abs error "
                                      << d.max_abs << ", max rel error " << d.max_rel);
      }
    }
  }
}

}  // namespace

TEST_CASE("random pass sequences keep every model's function (against the model as written)") {
  std::mt19937 rng(11);
  checkSequences("Conv → Relu → BatchNormalization", convReluBatchNorm(), 12, rng, true);
  checkSequences("a constant split, one input transposed two ways", splitAndTransposes(), 8, rng,
                 true);
  checkSequences("one Conv module called twice, once before a Relu", convCalledTwice(), 12, rng,
                 true);
  for (int opset : {10, 13}) {
    checkSequences("Pads of zeros around one that pads, opset " + std::to_string(opset),
                   pads(opset), 8, rng, true);
    auto gm = traced(pads(opset), true);
    auto request = fxc::passes::parsePassSpec("identity");
    REQUIRE(request.ok());
    REQUIRE(request.value().pass->run(*gm, request.value().options).ok());
    std::vector<std::string> left;
    for (const ir::Node* node : gm->graph()) {
      if (node->target() == "torch.nn.functional.pad") left.push_back(node->name());
    }
    CHECK(left == std::vector<std::string>{"pad_1"});  // the reflect pad of one column
  }
  checkSequences("Pad → AveragePool, merged and near misses", padsBeforePools(), 8, rng, true);
  {
    auto gm = traced(padsBeforePools(), true);
    auto request = fxc::passes::parsePassSpec("pad-pool");
    REQUIRE(request.ok());
    auto result = request.value().pass->run(*gm, request.value().options);
    REQUIRE(result.ok());
    int pads_left = 0;
    for (const ir::Node* node : gm->graph())
      pads_left += node->target() == "torch.nn.functional.pad";
    CHECK(pads_left == 4);  // reflect, channels, ceil_mode and the wide pad stay two ops
  }
  for (const auto& entry : std::filesystem::directory_iterator(testModelsDir())) {
    if (entry.path().extension() != ".onnx") continue;
    if (entry.path().stem() == "external_data") continue;  // its tensors are in a side file
    std::ifstream file(entry.path(), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    checkSequences(entry.path().filename().string(), bytes, 4, rng);
  }
}

TEST_CASE("pad-pool writes a recognized AvgPool2d as one AveragePool that computes the two ops") {
  // The module form changes nothing in memory; its claim is the written model: exported, read
  // back without recognition and run on the reference kernels, it must equal the model as written.
  std::string bytes = padsBeforePools(true);
  auto gm = traced(bytes, true);
  int modules = 0;
  for (const ir::Node* node : gm->graph()) modules += node->op() == ir::Opcode::kCallModule;
  REQUIRE(modules == 1);  // the merged pair, recognized; the near misses stay ops
  auto request = fxc::passes::parsePassSpec("pad-pool");
  REQUIRE(request.ok());
  REQUIRE(request.value().pass->run(*gm, request.value().options).ok());
  auto exported = fxc::onnx::exportModel(*gm);
  REQUIRE_MESSAGE(exported.ok(), exported.error());
  exported.value().materialize();
  std::string written;
  REQUIRE(exported.value().proto->SerializeToString(&written));
  int pads = 0, pools = 0;
  for (const auto& node : exported.value().proto->graph().node()) {
    pads += node.op_type() == "Pad";
    pools += node.op_type() == "AveragePool";
    if (node.op_type() != "AveragePool") continue;
    std::vector<int64_t> kernel, written_pads;
    for (const auto& a : node.attribute()) {
      if (a.name() == "kernel_shape") kernel.assign(a.ints().begin(), a.ints().end());
      if (a.name() == "pads") written_pads.assign(a.ints().begin(), a.ints().end());
    }
    REQUIRE(kernel.size() == 2);
    for (size_t k = 0; k < written_pads.size(); ++k)  // ONNX Runtime loads no larger pad
      CHECK_MESSAGE(written_pads[k] < kernel[k % 2], node.name() << ": pad " << written_pads[k]);
  }
  CHECK(pads == 4);  // the merged pair wrote no Pad
  CHECK(pools == 5);
  auto oracle = traced(bytes, false), again = traced(written, false);
  auto inputs = fxc::exec::randomInputs(*oracle, 1, {}, 0);
  REQUIRE(inputs.ok());
  auto want = fxc::exec::Interpreter(*oracle, fxc::exec::Backend::kReference).run(inputs.value());
  auto got = fxc::exec::Interpreter(*again, fxc::exec::Backend::kReference).run(inputs.value());
  REQUIRE(want.ok());
  REQUIRE_MESSAGE(got.ok(), got.error());
  REQUIRE(got.value().size() == want.value().size());
  for (size_t o = 0; o < want.value().size(); ++o) {
    auto d = fxc::exec::compareValues(got.value()[o], want.value()[o], 1e-6, 1e-6);
    CHECK_MESSAGE(d.within, "output " << o << " max abs error " << d.max_abs);
  }
}
