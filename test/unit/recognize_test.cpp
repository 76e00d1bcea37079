// Recognition of decomposed modules, searched for near misses: small ONNX models of each
// recognized pattern, exact and perturbed (other constants, exponents, axes, permutations, a gate
// that reads another value, an inner value used outside), each traced with recognition and run
// with the reference kernels, against the same model traced op by op (no recognition) — the
// oracle. A recognition that computes anything else than the ops fails here.
#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cmath>
#include <random>
#include <string>

#include "exec/interpreter.h"
#include "onnx/load.h"
#include "onnx/trace.h"

namespace ir = fxc::ir;
using fxc::exec::Value;

namespace {

// A model built op by op; every op in scope /blk (one leaf module), as torch.onnx names them.
class ModelBuilder {
 public:
  explicit ModelBuilder(int64_t opset = 13, std::vector<int64_t> shape = {2, 3, 8})
      : shape_(std::move(shape)) {
    model_.set_ir_version(8);
    model_.add_opset_import()->set_version(opset);
    graph_ = model_.mutable_graph();
    graph_->set_name("g");
    addInput("x");
  }

  void addInput(const std::string& name) {
    auto* input = graph_->add_input();
    input->set_name(name);
    auto* type = input->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : shape_) type->mutable_shape()->add_dim()->set_dim_value(d);
    inputs_.push_back(name);
  }

  std::string constant(std::vector<int64_t> dims, std::vector<float> values) {
    auto* t = graph_->add_initializer();
    t->set_name("c" + std::to_string(graph_->initializer_size()));
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float v : values) t->add_float_data(v);
    return t->name();
  }
  std::string ints(std::vector<int64_t> values) {
    auto* t = graph_->add_initializer();
    t->set_name("c" + std::to_string(graph_->initializer_size()));
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
    return t->name();
  }
  std::string random(std::vector<int64_t> dims, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> normal;
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    std::vector<float> values(static_cast<size_t>(n));
    for (float& v : values) v = normal(rng);
    return constant(std::move(dims), std::move(values));
  }

  onnx::NodeProto* op(const std::string& type, std::vector<std::string> inputs,
                      const std::string& scope = "/blk") {
    auto* node = graph_->add_node();
    node->set_op_type(type);
    node->set_name(scope + "/" + type + "_" + std::to_string(graph_->node_size()));
    for (const auto& input : inputs) node->add_input(input);
    node->add_output("v" + std::to_string(graph_->node_size()));
    return node;
  }
  std::string out(onnx::NodeProto* node) { return node->output(0); }

  void output(const std::string& value) {
    auto* output = graph_->add_output();
    output->set_name(value);
    output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  }
  const onnx::ModelProto& model() const { return model_; }
  const std::vector<std::string>& inputs() const { return inputs_; }
  const std::vector<int64_t>& shape() const { return shape_; }

 private:
  onnx::ModelProto model_;
  onnx::GraphProto* graph_;
  std::vector<int64_t> shape_;
  std::vector<std::string> inputs_;
};

void setInts(onnx::NodeProto* node, const std::string& name, std::vector<int64_t> values) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}
void setFloat(onnx::NodeProto* node, const std::string& name, float value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(value);
}

void setInt(onnx::NodeProto* node, const std::string& name, int64_t value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}
void setString(onnx::NodeProto* node, const std::string& name, const std::string& value) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(value);
}

std::unique_ptr<ir::GraphModule> traced(const onnx::ModelProto& model, bool recognize) {
  std::string bytes = model.SerializeAsString();
  auto loaded = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
  REQUIRE(loaded.ok());
  fxc::onnx::TraceOptions options;
  options.recognize = recognize;
  auto gm = fxc::onnx::trace(loaded.take(), options);
  REQUIRE_MESSAGE(gm.ok(), gm.error());
  return gm.take();
}

// A call_module of `type` made of several ONNX ops: a recognition.
bool hasModule(const ir::GraphModule& gm, const std::string& type) {
  for (const ir::Node* node : gm.graph()) {
    const auto* record = std::any_cast<fxc::onnx::NodeRecord>(&node->meta.source);
    if (node->op() == ir::Opcode::kCallModule && gm.findModule(node->target())->type() == type &&
        record && record->protos.size() > 1)
      return true;
  }
  return false;
}

// Traces with and without recognition, runs both with the reference kernels on the same seeded
// inputs and compares every element (|a − b| ≤ 1e-5 + 1e-4·|b|). Returns whether `type` was
// recognized.
bool recognizedAndExact(const ModelBuilder& builder, const std::string& type,
                        const std::string& label) {
  auto recognized = traced(builder.model(), true);
  auto oracle = traced(builder.model(), false);
  REQUIRE_MESSAGE(!hasModule(*oracle, type), label);
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<Value> inputs;
  int64_t n = 1;
  for (int64_t d : builder.shape()) n *= d;
  for (size_t k = 0; k < builder.inputs().size(); ++k) {
    std::vector<float> data(static_cast<size_t>(n));
    for (float& v : data) v = normal(rng);
    inputs.push_back(Value::floats(builder.shape(), data));
  }
  auto got = fxc::exec::Interpreter(*recognized, fxc::exec::Backend::kReference).run(inputs);
  auto want = fxc::exec::Interpreter(*oracle, fxc::exec::Backend::kReference).run(inputs);
  REQUIRE_MESSAGE(want.ok(), label << ": " << want.error());
  REQUIRE_MESSAGE(got.ok(), label << ": " << got.error());
  REQUIRE(got.value().size() == want.value().size());
  for (size_t k = 0; k < want.value().size(); ++k) {
    const auto& a = got.value()[k].f;
    const auto& b = want.value()[k].f;
    REQUIRE_MESSAGE(a.size() == b.size(), label);
    double worst = 0;
    for (size_t i = 0; i < a.size(); ++i)
      worst = std::max(worst, std::fabs(a[i] - b[i]) / (1e-5 + 1e-4 * std::fabs(b[i])));
    CHECK_MESSAGE(worst <= 1.0, label << ": output " << k << " differs from the ops (" << worst
                                      << " times the tolerance)");
  }
  return hasModule(*recognized, type);
}

// ---- the patterns, with their perturbations ----------------------------------------------------

struct LayerNormCase {
  float eps = 1e-5f;
  float exponent = 2.0f;
  std::vector<int64_t> axes = {-1}, axes_2 = {-1};
  std::vector<int64_t> gamma_dims = {8};
  bool centered_used_outside = false;
  int64_t opset = 13;
};

ModelBuilder layerNorm(const LayerNormCase& c, uint32_t seed) {
  ModelBuilder b(c.opset);
  auto mean = [&](const std::string& in, const std::vector<int64_t>& axes) {
    auto* node = c.opset >= 18 ? b.op("ReduceMean", {in, b.ints(axes)}) : b.op("ReduceMean", {in});
    if (c.opset < 18) setInts(node, "axes", axes);
    return b.out(node);
  };
  std::string m = mean("x", c.axes);
  std::string d = b.out(b.op("Sub", {"x", m}));
  std::string p = b.out(b.op("Pow", {d, b.constant({}, {c.exponent})}));
  std::string v = mean(p, c.axes_2);
  std::string a = b.out(b.op("Add", {v, b.constant({}, {c.eps})}));
  std::string s = b.out(b.op("Sqrt", {a}));
  std::string n = b.out(b.op("Div", {d, s}));
  std::string g = b.out(b.op("Mul", {n, b.random(c.gamma_dims, seed)}));
  b.output(b.out(b.op("Add", {g, b.random(c.gamma_dims, seed + 1)})));
  if (c.centered_used_outside) b.output(d);
  return b;
}

}  // namespace

TEST_CASE("recognition: LayerNorm keeps its epsilon and axes, and only where they prove it") {
  CHECK(recognizedAndExact(layerNorm({}, 1), "LayerNorm", "LayerNorm, eps 1e-5"));
  for (float eps : {1e-6f, 0.5f, 0.0f, 3.0f}) {
    LayerNormCase c;
    c.eps = eps;
    CHECK(
        recognizedAndExact(layerNorm(c, 2), "LayerNorm", "LayerNorm, eps " + std::to_string(eps)));
  }
  LayerNormCase opset18;
  opset18.opset = 18;
  CHECK(recognizedAndExact(layerNorm(opset18, 3), "LayerNorm", "LayerNorm at opset 18"));
  LayerNormCase two_axes;
  two_axes.axes = two_axes.axes_2 = {-2, -1};
  two_axes.gamma_dims = {3, 8};
  CHECK(recognizedAndExact(layerNorm(two_axes, 4), "LayerNorm", "LayerNorm over two axes"));
  LayerNormCase positive_axis;
  positive_axis.axes = positive_axis.axes_2 = {2};
  CHECK(recognizedAndExact(layerNorm(positive_axis, 5), "LayerNorm", "LayerNorm, axis 2 of 3"));

  // Near misses: computed as the ops.
  LayerNormCase cube;
  cube.exponent = 3.0f;
  CHECK_FALSE(recognizedAndExact(layerNorm(cube, 6), "LayerNorm", "exponent 3"));
  LayerNormCase almost_square;
  almost_square.exponent = 2.001f;
  CHECK_FALSE(recognizedAndExact(layerNorm(almost_square, 6), "LayerNorm", "exponent 2.001"));
  LayerNormCase middle;
  middle.axes = middle.axes_2 = {1};
  middle.gamma_dims = {8};
  CHECK_FALSE(recognizedAndExact(layerNorm(middle, 7), "LayerNorm", "the middle axis"));
  LayerNormCase mixed;
  mixed.axes_2 = {-2};
  CHECK_FALSE(recognizedAndExact(layerNorm(mixed, 8), "LayerNorm", "two means, two axes"));
  LayerNormCase wide_gamma;
  wide_gamma.gamma_dims = {3, 8};
  CHECK_FALSE(recognizedAndExact(layerNorm(wide_gamma, 9), "LayerNorm", "γ over more axes"));
  LayerNormCase escaping;
  escaping.centered_used_outside = true;
  CHECK_FALSE(recognizedAndExact(layerNorm(escaping, 10), "LayerNorm", "x − mean used outside"));
}

TEST_CASE("recognition: random LayerNorm constants, recognized or not, compute what the ops do") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> log_eps(-9.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 5);
  for (int trial = 0; trial < 24; ++trial) {
    LayerNormCase c;
    c.eps = std::pow(10.0f, log_eps(rng));
    switch (pick(rng)) {
      case 0:
        c.exponent = 1.0f;
        break;
      case 1:
        c.axes_2 = {-2};
        break;
      case 2:
        c.gamma_dims = {1};
        break;
      case 3:
        c.opset = 18;
        break;
      default:
        break;
    }
    recognizedAndExact(layerNorm(c, static_cast<uint32_t>(trial)), "LayerNorm",
                       "random LayerNorm #" + std::to_string(trial));
  }
}

TEST_CASE("recognition: a gate x · σ(g) is no SiLU, x · σ(x) is") {
  ModelBuilder silu;
  silu.output(silu.out(silu.op("Mul", {"x", silu.out(silu.op("Sigmoid", {"x"}))})));
  CHECK(recognizedAndExact(silu, "SiLU", "SiLU"));
  ModelBuilder swapped;
  swapped.output(swapped.out(swapped.op("Mul", {swapped.out(swapped.op("Sigmoid", {"x"})), "x"})));
  CHECK(recognizedAndExact(swapped, "SiLU", "SiLU, operands swapped"));
  ModelBuilder gate;
  gate.addInput("g");
  gate.output(gate.out(gate.op("Mul", {"x", gate.out(gate.op("Sigmoid", {"g"}))})));
  CHECK_FALSE(recognizedAndExact(gate, "SiLU", "gate"));
}

TEST_CASE("recognition: Hardswish needs HardSigmoid's α = 1/6, β = 1/2; Mish its own chain") {
  for (float alpha : {1.0f / 6, 0.2f}) {
    ModelBuilder b;
    auto* hs = b.op("HardSigmoid", {"x"});
    setFloat(hs, "alpha", alpha);
    setFloat(hs, "beta", 0.5f);
    b.output(b.out(b.op("Mul", {"x", b.out(hs)})));
    CHECK(recognizedAndExact(b, "Hardswish", "Hardswish α " + std::to_string(alpha)) ==
          (alpha != 0.2f));
  }
  ModelBuilder mish;
  std::string t = mish.out(mish.op("Tanh", {mish.out(mish.op("Softplus", {"x"}))}));
  mish.output(mish.out(mish.op("Mul", {"x", t})));
  CHECK(recognizedAndExact(mish, "Mish", "Mish"));
}

TEST_CASE("recognition: GELU's constants are √2, 1 and 1/2, nothing near them") {
  struct Case {
    float divisor, one, half;
    bool exact;
  };
  for (const Case& c :
       {Case{std::sqrt(2.0f), 1.0f, 0.5f, true}, Case{1.4f, 1.0f, 0.5f, false},
        Case{std::sqrt(2.0f), 1.0f, 0.6f, false}, Case{std::sqrt(2.0f), 0.9f, 0.5f, false}}) {
    ModelBuilder b;
    std::string scaled = b.out(b.op("Div", {"x", b.constant({}, {c.divisor})}));
    std::string erf = b.out(b.op("Erf", {scaled}));
    std::string plus = b.out(b.op("Add", {erf, b.constant({}, {c.one})}));
    std::string product = b.out(b.op("Mul", {"x", plus}));
    b.output(b.out(b.op("Mul", {product, b.constant({}, {c.half})})));
    CHECK(recognizedAndExact(b, "GELU",
                             "GELU " + std::to_string(c.divisor) + " " + std::to_string(c.one) +
                                 " " + std::to_string(c.half)) == c.exact);
  }
}

TEST_CASE("recognition: Linear with and without a transposed weight, square weights included") {
  for (int64_t in : {8, 5}) {
    // x [2, 3, 8] @ W [8, out] + b
    int64_t out = in == 8 ? 8 : 5;
    ModelBuilder plain;
    std::string y = plain.out(plain.op("MatMul", {"x", plain.random({8, out}, 1)}));
    plain.output(plain.out(plain.op("Add", {y, plain.random({out}, 2)})));
    CHECK(recognizedAndExact(plain, "Linear", "Linear " + std::to_string(out)));
  }
  // Transpose(W) with W square: the module must use Wᵀ, not W; with a bias and without one
  // (an unfolded export's Linear(bias=False) is Transpose → MatMul).
  for (bool with_bias : {true, false}) {
    for (const char* perm : {"1,0", "none", "0,1"}) {
      ModelBuilder b;
      auto* transpose = b.op("Transpose", {b.random({8, 8}, 3)});
      if (std::string(perm) == "1,0") setInts(transpose, "perm", {1, 0});
      if (std::string(perm) == "0,1") setInts(transpose, "perm", {0, 1});
      std::string y = b.out(b.op("MatMul", {"x", b.out(transpose)}));
      b.output(with_bias ? b.out(b.op("Add", {y, b.random({8}, 4)})) : y);
      bool recognized = recognizedAndExact(
          b, "Linear",
          std::string("transposed Linear, perm ") + perm + (with_bias ? "" : ", no bias"));
      CHECK(recognized == (std::string(perm) != "0,1"));  // no perm: reversed, for 2-D as [1, 0]
    }
  }
  // A bias that broadcasts another way stays ops.
  ModelBuilder wide_bias;
  std::string y = wide_bias.out(wide_bias.op("MatMul", {"x", wide_bias.random({8, 8}, 5)}));
  wide_bias.output(wide_bias.out(wide_bias.op("Add", {y, wide_bias.random({3, 8}, 6)})));
  CHECK_FALSE(recognizedAndExact(wide_bias, "Linear", "bias [3, 8]"));
}

TEST_CASE("recognition: Pad + AveragePool is an AvgPool2d only where the two compute the same") {
  struct Case {
    std::vector<int64_t> pads;  // Pad's, [N, C, H, W] begins then ends
    std::vector<int64_t> pool_pads = {0, 0, 0, 0};
    int64_t ceil_mode = 0;
    int64_t count_include_pad = 0;
    bool recognized;
  };
  for (const Case& c : std::vector<Case>{
           {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, true},  // densenet's transitions
           {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0}, 1, 0, true},
           {{0, 0, 1, 1, 0, 0, 1, 1}, {0, 0, 0, 0}, 0, 0, true},   // AvgPool2d(padding=1)
           {{0, 0, 0, 1, 0, 0, 2, 0}, {0, 0, 0, 0}, 0, 1, true},   // asymmetric
           {{0, 1, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, false},  // a channel padded
           {{0, 0, 1, 1, 0, 0, 1, 1}, {0, 0, 0, 0}, 1, 0, false},  // ceil_mode with padding
           {{0, 0, 1, 1, 0, 0, 1, 1}, {1, 1, 1, 1}, 0, 0, false},  // the pool pads again
           {{0, 0, 2, 2, 0, 0, 2, 2}, {0, 0, 0, 0}, 0, 1, true},   // pads just below the kernel
           {{0, 0, 3, 0, 0, 0, 0, 0}, {0, 0, 0, 0}, 0, 1, false},  // a pad as large as it
           {{0, 0, 0, 0, 0, 0, 0, 4}, {0, 0, 0, 0}, 0, 0, false},  // larger (W's end)
       }) {
    ModelBuilder b(13, {2, 3, 7, 7});
    auto* pad = b.op("Pad", {"x", b.ints(c.pads)});
    setString(pad, "mode", "constant");
    auto* pool = b.op("AveragePool", {b.out(pad)});
    setInts(pool, "kernel_shape", {3, 3});
    setInts(pool, "strides", {2, 2});
    setInts(pool, "pads", c.pool_pads);
    setInt(pool, "ceil_mode", c.ceil_mode);
    setInt(pool, "count_include_pad", c.count_include_pad);
    b.output(b.out(pool));
    std::string label = "pads";
    for (int64_t v : c.pads) label += " " + std::to_string(v);
    label += " ceil " + std::to_string(c.ceil_mode);
    CHECK_MESSAGE(recognizedAndExact(b, "AvgPool2d", label) == c.recognized, label);
  }
}
