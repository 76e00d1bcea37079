// The interpreter's contracts and kernels checked against properties that need no second
// implementation: a reverse RNN over a batch entry's first L steps is the forward RNN over those
// steps reversed; float64 is refused, never computed in float32.
#include "exec/interpreter.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <random>

#include "exec/io.h"
#include "onnx/load.h"
#include "onnx/trace.h"

namespace ir = fxc::ir;
using fxc::exec::Value;

namespace {

// Y, Y_h = RNN(X [seq 4, batch 2, input 2], W, R, B, sequence_lens) in one direction.
std::unique_ptr<ir::GraphModule> rnnModel(const std::string& direction) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(14);
  auto* graph = model.mutable_graph();
  graph->set_name("rnn");
  auto input = [&](const std::string& name, std::vector<int64_t> dims, int type) {
    auto* v = graph->add_input();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    for (int64_t d : dims)
      v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
  };
  input("x", {4, 2, 2}, onnx::TensorProto::FLOAT);
  input("lens", {2}, onnx::TensorProto::INT64);
  std::mt19937 rng(5);
  std::normal_distribution<float> normal(0.0f, 0.6f);
  auto weight = [&](const std::string& name, std::vector<int64_t> dims) {
    auto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    int64_t n = 1;
    for (int64_t d : dims) t->add_dims(d), n *= d;
    for (int64_t k = 0; k < n; ++k) t->add_float_data(normal(rng));
  };
  weight("w", {1, 3, 2});
  weight("r", {1, 3, 3});
  weight("b", {1, 6});
  auto* node = graph->add_node();
  node->set_op_type("RNN");
  node->set_name("rnn");
  for (const char* in : {"x", "w", "r", "b", "lens"}) node->add_input(in);
  node->add_output("y");
  node->add_output("y_h");
  auto* attr = node->add_attribute();
  attr->set_name("direction");
  attr->set_type(onnx::AttributeProto::STRING);
  attr->set_s(direction);
  auto* hidden = node->add_attribute();
  hidden->set_name("hidden_size");
  hidden->set_type(onnx::AttributeProto::INT);
  hidden->set_i(3);
  for (const char* out : {"y", "y_h"}) {
    auto* v = graph->add_output();
    v->set_name(out);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  std::string bytes = model.SerializeAsString();
  auto loaded = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
  REQUIRE(loaded.ok());
  auto gm = fxc::onnx::trace(loaded.take(), {});
  REQUIRE_MESSAGE(gm.ok(), gm.error());
  return gm.take();
}

}  // namespace

TEST_CASE("RNN: reverse over the first L steps is forward over those steps reversed") {
  // x [seq 4, batch 2, input 2]; batch 0 uses all 4 steps, batch 1 only the first 2.
  std::vector<float> x(16);
  for (size_t k = 0; k < x.size(); ++k) x[k] = 0.3f * static_cast<float>(k % 7) - 0.8f;
  const std::vector<int64_t> lengths = {4, 2};
  std::vector<float> mirrored(16, 0.0f);  // per batch entry, its first L steps reversed
  for (int64_t b = 0; b < 2; ++b) {
    for (int64_t t = 0; t < lengths[static_cast<size_t>(b)]; ++t) {
      for (int64_t i = 0; i < 2; ++i)
        mirrored[static_cast<size_t>((t * 2 + b) * 2 + i)] =
            x[static_cast<size_t>(((lengths[static_cast<size_t>(b)] - 1 - t) * 2 + b) * 2 + i)];
    }
  }
  auto reverse = rnnModel("reverse");
  auto forward = rnnModel("forward");
  Value lens = Value::ints({2}, lengths);
  auto r = fxc::exec::Interpreter(*reverse, fxc::exec::Backend::kReference)
               .run({Value::floats({4, 2, 2}, x), lens});
  auto f = fxc::exec::Interpreter(*forward, fxc::exec::Backend::kReference)
               .run({Value::floats({4, 2, 2}, mirrored), lens});
  REQUIRE_MESSAGE(r.ok(), r.error());
  REQUIRE_MESSAGE(f.ok(), f.error());
  const std::vector<float>& ry = r.value()[0].f;  // [seq 4, 1, batch 2, hidden 3]
  const std::vector<float>& fy = f.value()[0].f;
  for (int64_t b = 0; b < 2; ++b) {
    int64_t length = lengths[static_cast<size_t>(b)];
    for (int64_t k = 0; k < 3; ++k)  // Y_h: the state after the last step processed
      CHECK(r.value()[1].f[static_cast<size_t>(b * 3 + k)] ==
            doctest::Approx(f.value()[1].f[static_cast<size_t>(b * 3 + k)]).epsilon(1e-5));
    for (int64_t t = 0; t < 4; ++t) {
      for (int64_t k = 0; k < 3; ++k) {
        float got = ry[static_cast<size_t>((t * 2 + b) * 3 + k)];
        if (t >= length) {
          CHECK(got == 0.0f);  // past the sequence: zero
        } else {
          float want = fy[static_cast<size_t>(((length - 1 - t) * 2 + b) * 3 + k)];
          CHECK(got == doctest::Approx(want).epsilon(1e-5));
        }
      }
    }
  }
}

TEST_CASE("float64 is computed in double or refused, never computed in float32 and relabelled") {
  auto graph = [](const char* target) {
    auto gm = std::make_unique<ir::GraphModule>();
    ir::Node* x = gm->graph().placeholder("x");
    x->meta.dtype = "float64";
    gm->graph().output(gm->graph().callFunction(target, {ir::Argument(x), ir::Argument(x)}));
    return gm;
  };
  auto add = graph("operator.add");
  for (auto backend : {fxc::exec::Backend::kCpu, fxc::exec::Backend::kReference}) {
    auto run = fxc::exec::Interpreter(*add, backend).run({Value::doubles({2}, {0.1, 1e-300})});
    REQUIRE(run.ok());
    REQUIRE(run.value()[0].dtype == ir::DType::kFloat64);
    CHECK(run.value()[0].d == std::vector<double>{0.1 + 0.1, 2e-300});  // 2e-300 is 0 in float
  }
  auto conv = graph("torch.nn.functional.conv2d");  // a oneDNN kernel on the CPU backend
  for (auto backend : {fxc::exec::Backend::kCpu, fxc::exec::Backend::kReference}) {
    auto refused = fxc::exec::Interpreter(*conv, backend).run({Value::doubles({1}, {0.1})});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("unsupported: float64 inputs to torch.nn.functional.conv2d") !=
          std::string::npos);
  }
}

TEST_CASE("opset-6 broadcasting: B matches A's dimensions from axis on") {
  ir::GraphModule gm;
  ir::Node* a = gm.graph().placeholder("a");
  ir::Node* b = gm.graph().placeholder("b");
  gm.graph().output(gm.graph().callFunction(
      "operator.add", {ir::Argument(a), ir::Argument(b)},
      {{"broadcast", ir::Argument(int64_t{1})}, {"axis", ir::Argument(int64_t{1})}}));
  std::vector<float> zeros(2 * 3 * 2, 0.0f);
  auto run = [&](std::vector<int64_t> b_shape, std::vector<float> b_data) {
    return fxc::exec::Interpreter(gm, fxc::exec::Backend::kReference)
        .run({Value::floats({2, 3, 2}, zeros),
              Value::floats(std::move(b_shape), std::move(b_data))});
  };
  auto sum = run({3}, {1, 2, 3});  // B[j] added along A's axis 1, not numpy's last axis
  REQUIRE(sum);
  CHECK(sum.value()[0].f == std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3});
  CHECK_FALSE(run({2}, {1, 2}));  // [2] at axis 1 meets A's 3
}

TEST_CASE("a reshape takes its input's storage only from its last reader, once") {
  // r = reshape(x); s = x + x; f = flatten(r); out (f, s, r2 = reshape(x2), x2 · c,
  // identity(c), c): x and x2 are read again after their reshapes, the constant c must stay
  // whole for the next run although the identity is the only reader of its get_attr, and r is
  // read by the flatten alone (taken). Every output is what the values were, not an emptied one.
  auto gm = std::make_unique<ir::GraphModule>();
  gm->opset = 17;
  ir::Graph& g = gm->graph();
  auto shape = [&](const std::string& name, std::vector<int64_t> dims) {
    auto t = fxc::exec::toTensor(Value::ints({static_cast<int64_t>(dims.size())}, dims));
    gm->setTensor(name, t);
    return g.getAttr(name);
  };
  gm->setTensor("c", fxc::exec::toTensor(Value::floats({2}, {7.0f, 8.0f})));
  ir::Node* x = g.placeholder("x");
  ir::Node* x2 = g.placeholder("x2");
  ir::Node* r = g.callFunction("torch.reshape", {x, shape("s0", {3, 2})});
  ir::Node* s = g.callFunction("operator.add", {x, x});
  ir::Node* f = g.callFunction("torch.flatten", {r}, {{"axis", ir::Argument(int64_t{0})}});
  ir::Node* r2 = g.callFunction("torch.reshape", {x2, shape("s1", {4})});
  ir::Node* twice = g.callFunction("operator.mul", {x2, g.getAttr("c")});
  ir::Node* c = g.getAttr("c");
  ir::Node* i = g.callFunction("onnx.Identity", {g.getAttr("c")});  // its only reader
  g.output(ir::Argument::tuple({f, s, r2, twice, i, c}));
  std::vector<float> xs = {1, 2, 3, 4, 5, 6};
  for (auto backend : {fxc::exec::Backend::kReference, fxc::exec::Backend::kCpu}) {
    fxc::exec::Interpreter interpreter(*gm, backend);
    for (int run = 0; run < 2; ++run) {  // the constant stays whole for the next run
      auto out = interpreter.run({Value::floats({2, 3}, xs), Value::floats({2, 2}, {1, 2, 3, 4})});
      REQUIRE_MESSAGE(out.ok(), out.error());
      const auto& v = out.value();
      REQUIRE(v.size() == 6);
      CHECK(v[0].shape == std::vector<int64_t>{1, 6});
      CHECK(v[0].f == xs);
      CHECK(v[1].f == std::vector<float>{2, 4, 6, 8, 10, 12});
      CHECK(v[2].f == std::vector<float>{1, 2, 3, 4});
      CHECK(v[3].f == std::vector<float>{7, 16, 21, 32});
      CHECK(v[4].f == std::vector<float>{7, 8});
      CHECK(v[5].f == std::vector<float>{7, 8});
    }
  }
}

// What `fuse --verify`, `compare` and `run`'s fp16 report judge by: NaN in the same places and
// equal infinities agree (the tolerance rtol·|w| is NaN or infinite there, and a fused model
// whose outputs hold NaN where the model's do was reported as failing); a NaN or an infinity
// against a number does not.
TEST_CASE("compareValues: NaN in the same places and equal infinities agree, nothing else") {
  using fxc::exec::compareValues;
  Value want = Value::floats({4}, {1.0f, NAN, INFINITY, -INFINITY});
  auto d = compareValues(Value::floats({4}, {1.0f, NAN, INFINITY, -INFINITY}), want, 0, 1e-6);
  CHECK(d.within);
  CHECK(d.max_abs == 0);
  for (float wrong : {NAN, INFINITY, 2.0f}) {
    CAPTURE(wrong);
    auto off = compareValues(Value::floats({4}, {wrong, NAN, INFINITY, -INFINITY}), want, 0.5, 0);
    CHECK_FALSE(off.within);
  }
  auto flipped = compareValues(Value::floats({4}, {1.0f, NAN, -INFINITY, -INFINITY}), want, 1, 1);
  CHECK_FALSE(flipped.within);
  CHECK(flipped.max_abs == INFINITY);
  auto number_for_nan =
      compareValues(Value::floats({4}, {1.0f, 0.0f, INFINITY, -INFINITY}), want, 1, 1);
  CHECK_FALSE(number_for_nan.within);
}
