// If, Loop and Scan: their subgraphs traced into graphs of their own and run by the interpreter.
// Expected values are worked by hand (or by a loop written from ONNX's pseudo-code), never by the
// kernels under test; the passes must neither fold nor merge a control-flow op that runs a
// random op.
#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <string>
#include <vector>

#include "exec/interpreter.h"
#include "onnx/load.h"
#include "onnx/trace.h"
#include "passes/registry.h"

namespace ir = fxc::ir;
using fxc::exec::Value;

namespace {

constexpr int kFloat = onnx::TensorProto::FLOAT;
constexpr int kInt64 = onnx::TensorProto::INT64;
constexpr int kBool = onnx::TensorProto::BOOL;

// A few lines per graph, as onnx.helper writes them.
struct GraphBuilder {
  onnx::GraphProto* graph;

  onnx::NodeProto* node(const std::string& op, std::vector<std::string> inputs,
                        std::vector<std::string> outputs) {
    auto* n = graph->add_node();
    n->set_op_type(op);
    n->set_name(outputs.empty() ? op : outputs[0]);
    for (const auto& i : inputs) n->add_input(i);
    for (const auto& o : outputs) n->add_output(o);
    return n;
  }
  // dims: nullptr for no shape at all.
  static void type(onnx::ValueInfoProto* v, int elem, const std::vector<int64_t>* dims) {
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(elem);
    if (!dims) return;
    auto* shape = t->mutable_shape();
    for (int64_t d : *dims) shape->add_dim()->set_dim_value(d);
  }
  void input(const std::string& name, int elem, std::vector<int64_t> dims) {
    auto* v = graph->add_input();
    v->set_name(name);
    type(v, elem, &dims);
  }
  void output(const std::string& name, int elem, std::vector<int64_t> dims) {
    auto* v = graph->add_output();
    v->set_name(name);
    type(v, elem, &dims);
  }
  void untypedOutput(const std::string& name) { graph->add_output()->set_name(name); }
  onnx::TensorProto* tensor(const std::string& name, int elem, std::vector<int64_t> dims) {
    auto* t = graph->add_initializer();
    t->set_name(name);
    t->set_data_type(elem);
    for (int64_t d : dims) t->add_dims(d);
    return t;
  }
  void int64s(const std::string& name, std::vector<int64_t> dims, std::vector<int64_t> values) {
    auto* t = tensor(name, kInt64, std::move(dims));
    for (int64_t v : values) t->add_int64_data(v);
  }
  void boolean(const std::string& name, bool value) {
    tensor(name, kBool, {})->add_int32_data(value ? 1 : 0);
  }
};

GraphBuilder subgraph(onnx::NodeProto* node, const std::string& attribute) {
  auto* attr = node->add_attribute();
  attr->set_name(attribute);
  attr->set_type(onnx::AttributeProto::GRAPH);
  attr->mutable_g()->set_name(attribute);
  return GraphBuilder{attr->mutable_g()};
}

void intAttribute(onnx::NodeProto* node, const std::string& name, int64_t value) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INT);
  attr->set_i(value);
}

void intsAttribute(onnx::NodeProto* node, const std::string& name, std::vector<int64_t> values) {
  auto* attr = node->add_attribute();
  attr->set_name(name);
  attr->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) attr->add_ints(v);
}

// Constant `name` = float32 values (1-D).
void constant(GraphBuilder& g, const std::string& name, std::vector<float> values) {
  auto* node = g.node("Constant", {}, {name});
  auto* attr = node->add_attribute();
  attr->set_name("value");
  attr->set_type(onnx::AttributeProto::TENSOR);
  attr->mutable_t()->set_data_type(kFloat);
  attr->mutable_t()->add_dims(static_cast<int64_t>(values.size()));
  for (float v : values) attr->mutable_t()->add_float_data(v);
}

struct Model {
  onnx::ModelProto proto;
  GraphBuilder main{nullptr};
  explicit Model(int64_t opset) {
    proto.set_ir_version(8);
    proto.add_opset_import()->set_version(opset);
    proto.mutable_graph()->set_name("main");
    main.graph = proto.mutable_graph();
  }
  std::unique_ptr<ir::GraphModule> trace() const {
    std::string bytes = proto.SerializeAsString();
    auto loaded = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
    REQUIRE(loaded.ok());
    auto gm = fxc::onnx::trace(loaded.take(), {});
    REQUIRE_MESSAGE(gm.ok(), gm.error());
    return gm.take();
  }
};

const ir::Node* findTarget(const ir::GraphModule& gm, const std::string& target) {
  for (const ir::Node* node : gm.graph()) {
    if (node->target() == target) return node;
  }
  return nullptr;
}

std::vector<std::string> placeholderNames(const ir::GraphModule& gm) {
  std::vector<std::string> names;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kPlaceholder) names.push_back(node->meta.value_name);
  }
  return names;
}

fxc::Expected<std::vector<Value>> run(const ir::GraphModule& gm, std::vector<Value> inputs) {
  return fxc::exec::Interpreter(gm, fxc::exec::Backend::kReference).run(std::move(inputs));
}

void runPass(ir::GraphModule& gm, const std::string& name) {
  auto request = fxc::passes::parsePassSpec(name);
  REQUIRE(request.ok());
  auto result = request.value().pass->run(gm, request.value().options);
  REQUIRE_MESSAGE(result.ok(), result.error());
}

}  // namespace

TEST_CASE("a Loop inside an If branch reads the outermost graph's values") {
  // y = If(c) then: Loop(three, "", x) with body acc + x (x from two scopes out) else: -x.
  Model m(16);
  m.main.input("x", kFloat, {2});
  m.main.input("c", kBool, {});
  m.main.output("y", kFloat, {2});
  m.main.int64s("three", {}, {3});
  auto* branch = m.main.node("If", {"c"}, {"y"});
  GraphBuilder then_branch = subgraph(branch, "then_branch");
  auto* loop = then_branch.node("Loop", {"three", "", "x"}, {"then_out"});
  then_branch.output("then_out", kFloat, {2});
  GraphBuilder body = subgraph(loop, "body");
  body.input("i", kInt64, {});
  body.input("cond_in", kBool, {});
  body.input("acc_in", kFloat, {2});
  body.node("Add", {"acc_in", "x"}, {"acc_out"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", kBool, {});
  body.output("acc_out", kFloat, {2});
  GraphBuilder else_branch = subgraph(branch, "else_branch");
  else_branch.node("Neg", {"x"}, {"else_out"});
  else_branch.output("else_out", kFloat, {2});
  auto gm = m.trace();

  // Placeholders: formal inputs, then the captures in the `captures` kwarg's order.
  const ir::Node* if_node = findTarget(*gm, "onnx.If");
  REQUIRE(if_node);
  REQUIRE(if_node->kwarg("captures"));
  CHECK(ir::pyRepr(*if_node->kwarg("captures")) == "(three, x)");
  REQUIRE(if_node->meta.subgraphs.size() == 2);
  CHECK(if_node->meta.subgraphs[0].attribute == "then_branch");
  const ir::GraphModule& then_gm = *if_node->meta.subgraphs[0].graph;
  CHECK(placeholderNames(then_gm) == std::vector<std::string>{"three", "x"});
  CHECK(placeholderNames(*if_node->meta.subgraphs[1].graph) ==
        std::vector<std::string>{"three", "x"});
  const ir::Node* inner = findTarget(then_gm, "onnx.Loop");
  REQUIRE(inner);
  REQUIRE(inner->meta.subgraphs.size() == 1);
  CHECK(placeholderNames(*inner->meta.subgraphs[0].graph) ==
        std::vector<std::string>{"i", "cond_in", "acc_in", "x"});

  auto taken =
      run(*gm, {Value::floats({2}, {1.5f, -2.0f}), Value::ints({}, {1}, ir::DType::kBool)});
  REQUIRE_MESSAGE(taken.ok(), taken.error());
  CHECK(taken.value()[0].shape == std::vector<int64_t>{2});
  CHECK(taken.value()[0].f == std::vector<float>{6.0f, -8.0f});  // x + 3x
  auto other =
      run(*gm, {Value::floats({2}, {1.5f, -2.0f}), Value::ints({}, {0}, ir::DType::kBool)});
  REQUIRE_MESSAGE(other.ok(), other.error());
  CHECK(other.value()[0].f == std::vector<float>{-1.5f, 2.0f});
  auto not_bool = run(*gm, {Value::floats({2}, {1.5f, -2.0f}), Value::floats({}, {1.0f})});
  REQUIRE_FALSE(not_bool.ok());
  CHECK(not_bool.error().find("onnx.If: cond is float32, not bool") != std::string::npos);
}

TEST_CASE("Loop: no iteration gives the initial values and scan outputs as declared, or refuses") {
  // acc, s = Loop(M, "", v) with body acc_out = acc_in + 1, s = acc_out; M = 0 runs nothing.
  for (bool typed : {true, false}) {
    CAPTURE(typed);
    Model m(13);
    m.main.input("m", kInt64, {});
    m.main.input("v", kFloat, {2});
    m.main.output("acc", kFloat, {2});
    m.main.graph->add_output()->set_name("s");  // the model says nothing of s's type either
    auto* loop = m.main.node("Loop", {"m", "", "v"}, {"acc", "s"});
    GraphBuilder body = subgraph(loop, "body");
    body.input("i", kInt64, {});
    body.input("cond_in", kBool, {});
    body.input("acc_in", kFloat, {2});
    constant(body, "one", {1.0f, 1.0f});
    body.node("Add", {"acc_in", "one"}, {"acc_out"});
    body.node("Identity", {"cond_in"}, {"cond_out"});
    body.node("Identity", {"acc_out"}, {"s_out"});
    body.output("cond_out", kBool, {});
    body.output("acc_out", kFloat, {2});
    if (typed)
      body.output("s_out", kFloat, {2});
    else
      body.untypedOutput("s_out");
    auto gm = m.trace();
    Value v = Value::floats({2}, {0.5f, 4.0f});
    auto none = run(*gm, {Value::ints({}, {0}), v});
    if (typed) {
      REQUIRE_MESSAGE(none.ok(), none.error());
      CHECK(none.value()[0].f == v.f);
      CHECK(none.value()[1].shape == std::vector<int64_t>{0, 2});
    } else {
      REQUIRE_FALSE(none.ok());
      CHECK(none.error().find("node 'loop': unsupported: onnx.Loop: scan output 0 after no "
                              "iteration") != std::string::npos);
    }
    auto two = run(*gm, {Value::ints({}, {2}), v});
    REQUIRE_MESSAGE(two.ok(), two.error());
    CHECK(two.value()[0].f == std::vector<float>{2.5f, 6.0f});
    CHECK(two.value()[1].shape == std::vector<int64_t>{2, 2});
    CHECK(two.value()[1].f == std::vector<float>{1.5f, 5.0f, 2.5f, 6.0f});
  }
}

TEST_CASE("Scan of opset 8: per batch entry, reversed over its sequence_lens steps, zero-padded") {
  // final, sums = Scan(lens, init [2, 2], x [2, 3, 2]) with directions [1]; body: s += x_t.
  Model m(8);
  m.main.input("lens", kInt64, {2});
  m.main.input("init", kFloat, {2, 2});
  m.main.input("x", kFloat, {2, 3, 2});
  m.main.output("final", kFloat, {2, 2});
  m.main.output("sums", kFloat, {2, 3, 2});
  auto* scan = m.main.node("Scan", {"lens", "init", "x"}, {"final", "sums"});
  intAttribute(scan, "num_scan_inputs", 1);
  intsAttribute(scan, "directions", {1});
  GraphBuilder body = subgraph(scan, "body");
  body.input("s_in", kFloat, {2});
  body.input("x_t", kFloat, {2});
  body.node("Add", {"s_in", "x_t"}, {"s_out"});
  body.node("Identity", {"s_out"}, {"y"});
  body.output("s_out", kFloat, {2});
  body.output("y", kFloat, {2});
  auto gm = m.trace();

  std::vector<float> x(12), init = {0.5f, -1.0f, 2.0f, 0.25f};
  for (size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k) * 0.5f - 2.0f;
  const std::vector<int64_t> lens = {3, 2};
  auto result =
      run(*gm, {Value::ints({2}, lens), Value::floats({2, 2}, init), Value::floats({2, 3, 2}, x)});
  REQUIRE_MESSAGE(result.ok(), result.error());
  // ONNX's pseudo-code, written out: step t of entry b reads x[b][L-1-t]; steps past L are 0.
  std::vector<float> final_state(4), sums(12, 0.0f);
  for (size_t b = 0; b < 2; ++b) {
    float s[2] = {init[b * 2], init[b * 2 + 1]};
    size_t length = static_cast<size_t>(lens[b]);
    for (size_t t = 0; t < length; ++t) {
      for (size_t k = 0; k < 2; ++k) {
        s[k] += x[(b * 3 + (length - 1 - t)) * 2 + k];
        sums[(b * 3 + t) * 2 + k] = s[k];
      }
    }
    final_state[b * 2] = s[0];
    final_state[b * 2 + 1] = s[1];
  }
  CHECK(result.value()[0].shape == std::vector<int64_t>{2, 2});
  CHECK(result.value()[0].f == final_state);
  CHECK(result.value()[1].shape == std::vector<int64_t>{2, 3, 2});
  CHECK(result.value()[1].f == sums);
  CHECK(sums[(1 * 3 + 2) * 2] == 0.0f);  // entry 1 has 2 steps: its third is padding
}

TEST_CASE("control flow and the passes: deterministic branches fold, random ones stay apart") {
  // y = x + If(true){[1, 2]}{[3, 4]} + If(true){RandomUniform}{..} + the same random If again.
  Model m(16);
  m.main.input("x", kFloat, {2});
  m.main.output("y", kFloat, {2});
  m.main.boolean("yes", true);
  auto* fixed = m.main.node("If", {"yes"}, {"f"});
  GraphBuilder fixed_then = subgraph(fixed, "then_branch");
  constant(fixed_then, "f_then", {1.0f, 2.0f});
  fixed_then.output("f_then", kFloat, {2});
  GraphBuilder fixed_else = subgraph(fixed, "else_branch");
  constant(fixed_else, "f_else", {3.0f, 4.0f});
  fixed_else.output("f_else", kFloat, {2});
  for (const std::string name : {"r1", "r2"}) {
    auto* random = m.main.node("If", {"yes"}, {name});
    GraphBuilder random_then = subgraph(random, "then_branch");
    auto* uniform = random_then.node("RandomUniform", {}, {name + "_then"});
    intsAttribute(uniform, "shape", {2});
    random_then.output(name + "_then", kFloat, {2});
    GraphBuilder random_else = subgraph(random, "else_branch");
    constant(random_else, name + "_else", {0.0f, 0.0f});
    random_else.output(name + "_else", kFloat, {2});
  }
  m.main.node("Add", {"x", "f"}, {"a"});
  m.main.node("Add", {"a", "r1"}, {"b"});
  m.main.node("Add", {"b", "r2"}, {"y"});
  auto gm = m.trace();
  std::vector<const ir::Node*> ifs;
  for (const ir::Node* node : gm->graph()) {
    if (node->target() == "onnx.If") ifs.push_back(node);
  }
  REQUIRE(ifs.size() == 3);
  CHECK_FALSE(ir::isRandom(*ifs[0]));
  CHECK(ir::isRandom(*ifs[1]));
  CHECK(ir::isRandom(*ifs[2]));

  runPass(*gm, "const-fold");
  runPass(*gm, "cse");
  runPass(*gm, "dce");
  int remaining = 0;
  for (const ir::Node* node : gm->graph()) remaining += node->target() == "onnx.If";
  CHECK(remaining == 2);  // the deterministic one is a constant now; the random ones stay two
  const ir::Node* folded = nullptr;
  for (const ir::Node* node : gm->graph()) {
    if (node->op() == ir::Opcode::kGetAttr && node->meta.value_name == "f") folded = node;
  }
  REQUIRE(folded);
  auto tensor = gm->findTensor(folded->target());
  REQUIRE(tensor);
  CHECK(fxc::exec::fromTensor(*tensor).f == std::vector<float>{1.0f, 2.0f});
}

TEST_CASE("a subgraph node without a kernel makes its control-flow op unsupported, by name") {
  Model m(16);
  m.main.input("c", kBool, {});
  m.main.output("y", kFloat, {1});
  auto* branch = m.main.node("If", {"c"}, {"y"});
  GraphBuilder then_branch = subgraph(branch, "then_branch");
  then_branch.node("Frobnicate", {}, {"t"});
  then_branch.output("t", kFloat, {1});
  GraphBuilder else_branch = subgraph(branch, "else_branch");
  constant(else_branch, "e", {1.0f});
  else_branch.output("e", kFloat, {1});
  auto gm = m.trace();
  fxc::exec::Interpreter interpreter(*gm, fxc::exec::Backend::kReference);
  std::string missing;
  CHECK_FALSE(interpreter.supported(missing));
  CHECK(missing == "if_1 (onnx.If, then_branch: frobnicate (onnx.Frobnicate))");
  // Run anyway: the branch not taken costs nothing; the one taken names the op it lacks.
  auto taken = interpreter.run({Value::ints({}, {1}, ir::DType::kBool)});
  REQUIRE_FALSE(taken.ok());
  CHECK(taken.error().rfind("node 'if_1': unsupported: onnx.If then_branch: ", 0) == 0);
  auto other = interpreter.run({Value::ints({}, {0}, ir::DType::kBool)});
  REQUIRE_MESSAGE(other.ok(), other.error());
  CHECK(other.value()[0].f == std::vector<float>{1.0f});
}

TEST_CASE("cse keeps two Ifs on one condition apart when their branches differ") {
  // y = If(c){[1, 2]}{[3, 4]} + If(c){[5, 6]}{[7, 8]}: the kwargs print alike, the graphs differ.
  Model m(16);
  m.main.input("c", kBool, {});
  m.main.output("y", kFloat, {2});
  for (auto [name, base] : {std::pair<std::string, float>{"p", 1.0f}, {"q", 5.0f}}) {
    auto* branch = m.main.node("If", {"c"}, {name});
    GraphBuilder then_branch = subgraph(branch, "then_branch");
    constant(then_branch, name + "_then", {base, base + 1.0f});
    then_branch.output(name + "_then", kFloat, {2});
    GraphBuilder else_branch = subgraph(branch, "else_branch");
    constant(else_branch, name + "_else", {base + 2.0f, base + 3.0f});
    else_branch.output(name + "_else", kFloat, {2});
  }
  m.main.node("Add", {"p", "q"}, {"y"});
  auto gm = m.trace();
  runPass(*gm, "cse");
  int remaining = 0;
  for (const ir::Node* node : gm->graph()) remaining += node->target() == "onnx.If";
  CHECK(remaining == 2);
  auto taken = run(*gm, {Value::ints({}, {1}, ir::DType::kBool)});
  REQUIRE_MESSAGE(taken.ok(), taken.error());
  CHECK(taken.value()[0].f == std::vector<float>{6.0f, 8.0f});
  auto other = run(*gm, {Value::ints({}, {0}, ir::DType::kBool)});
  REQUIRE_MESSAGE(other.ok(), other.error());
  CHECK(other.value()[0].f == std::vector<float>{10.0f, 12.0f});
}
