// The integer path of quantized models: oneDNN's int8 convolution and the 8-bit loops against the
// reference kernels (ONNX's integer arithmetic, plain loops), over a table of shapes, zero points
// and per-channel scales; and quant-lower against the oracle that cannot share its bugs, the QDQ
// graph as written run op by op in float on the reference kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include "exec/cudnn/backend.h"
#include "exec/interpreter.h"
#include "exec/kernel.h"
#include "exec/quantize.h"
#include "ir/graph_module.h"
#include "ir/lint.h"
#include "passes/registry.h"

using fxc::exec::Backend;
using fxc::exec::Interpreter;
using fxc::exec::Value;
namespace ir = fxc::ir;

namespace {

Value randomInts(std::vector<int64_t> shape, ir::DType dtype, int64_t lo, int64_t hi,
                 uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> pick(lo, hi);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<int64_t> data(static_cast<size_t>(n));
  for (int64_t& v : data) v = pick(rng);
  return Value::ints(std::move(shape), std::move(data), dtype);
}

Value randomFloats(std::vector<int64_t> shape, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pick(lo, hi);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> data(static_cast<size_t>(n));
  for (float& v : data) v = pick(rng);
  return Value::floats(std::move(shape), std::move(data));
}

ir::Argument ints(std::vector<int64_t> values) {
  std::vector<ir::Argument> items(values.begin(), values.end());
  return ir::Argument::list(std::move(items));
}

// A graph built node by node, constants as get_attr.
struct Builder {
  std::unique_ptr<ir::GraphModule> gm = std::make_unique<ir::GraphModule>();
  int constants = 0;

  Builder() { gm->opset = 17; }
  ir::Graph& g() { return gm->graph(); }
  ir::Node* constant(const Value& value) {
    std::string path = "c" + std::to_string(constants++);
    gm->setTensor(path, fxc::exec::toTensor(value));
    return g().getAttr(path);
  }
  ir::Node* scale(float s) { return constant(Value::floats({}, {s})); }
  ir::Node* zeroPoint(int64_t z, ir::DType dtype) { return constant(Value::ints({}, {z}, dtype)); }
  ir::Node* quantize(ir::Node* x, float s, int64_t z, ir::DType dtype) {
    return g().callFunction("onnx.QuantizeLinear", {x, scale(s), zeroPoint(z, dtype)});
  }
  ir::Node* dequantize(ir::Node* q, float s, int64_t z, ir::DType dtype) {
    return g().callFunction("onnx.DequantizeLinear", {q, scale(s), zeroPoint(z, dtype)});
  }
};

// The fast backends: oneDNN, and cuDNN where a CUDA device is usable (its integer convolutions
// on cuDNN's int8 one; the rest of the nodes on the CPU kernels).
std::vector<Backend> fastBackends() {
  static const bool gpu = fxc::exec::cudnn::deviceUsable(nullptr);
  if (gpu) return {Backend::kCpu, Backend::kCudnn};
  return {Backend::kCpu};
}

std::vector<Value> run(const ir::GraphModule& gm, Backend backend,
                       const std::vector<Value>& inputs) {
  Interpreter interpreter(gm, backend);
  auto first = interpreter.run(inputs);
  REQUIRE_MESSAGE(first, (first ? "" : first.error()));
  auto second = interpreter.run(inputs);  // the kept plans
  REQUIRE(second);
  for (size_t k = 0; k < first.value().size(); ++k) {
    CHECK(first.value()[k].i == second.value()[k].i);
    CHECK(first.value()[k].f == second.value()[k].f);
  }
  return first.value();
}

// The one call node of a graph run directly on the CPU kernel: whether the fast kernel took it
// (its 8-bit output stays in oneDNN's memory) rather than handing it to the reference.
bool fastKernelTakes(const ir::GraphModule& gm, const std::vector<Value>& placeholders) {
  const ir::Node* call = nullptr;
  std::vector<Value> values;
  size_t next = 0;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kCallFunction) call = node;
  }
  REQUIRE(call);
  values.reserve(call->args().size());
  for (const ir::Argument& arg : call->args()) {
    if (arg.isNone()) {
      values.emplace_back();
      continue;
    }
    const ir::Node* input = arg.toNode();
    values.push_back(input->op() == ir::Opcode::kGetAttr
                         ? fxc::exec::fromTensor(*gm.findTensor(input->target()))
                         : placeholders.at(next++));
  }
  std::vector<const Value*> pointers;
  for (size_t k = 0; k < values.size(); ++k)
    pointers.push_back(call->args()[k].isNone() ? nullptr : &values[k]);
  std::any state;
  fxc::exec::KernelContext context(*call, nullptr, pointers, nullptr, gm.opset, &state);
  auto out = fxc::exec::cpuKernels().at(call->target())(context);
  return out.at(0).native != nullptr;
}

}  // namespace

TEST_CASE(
    "QLinearConv(Transpose): oneDNN's int8 (de)convolution equals ONNX's integer arithmetic") {
  // fxc.QLinearConvTranspose (oneDNN's deconvolution) takes QLinearConv's inputs; its weight is
  // [C_in, C_out / group, k, k] and `out_pad` its output_padding.
  struct Case {
    int64_t n, cin, h, w, cout, k, stride, pad, group;
    ir::DType x_type;
    int64_t x_zp;
    ir::DType y_type;
    int64_t y_zp;
    bool per_channel, bias;
    bool transposed = false;
    int64_t out_pad = 0;
  };
  const auto u8 = ir::DType::kUInt8, s8 = ir::DType::kInt8;
  std::vector<Case> cases = {
      {1, 3, 17, 19, 8, 3, 1, 1, 1, u8, 0, u8, 0, true, true},
      {2, 3, 32, 32, 16, 7, 2, 3, 1, u8, 128, u8, 3, true, true},    // a stem, zero points
      {1, 16, 9, 9, 16, 3, 1, 1, 16, u8, 7, u8, 0, true, true},      // depthwise
      {1, 16, 10, 10, 32, 1, 2, 0, 1, s8, -3, s8, 5, false, false},  // int8 input, per tensor
      {1, 64, 14, 14, 64, 3, 1, 1, 1, u8, 10, s8, -20, true, true},  // uint8 in, int8 out
      {1, 8, 12, 12, 8, 3, 1, 1, 2, s8, 0, u8, 128, true, true},     // grouped
      // resnet18's shapes as the ort-cpu preset quantizes them (uint8 after a ReLU, zero point
      // 0: cuDNN's int8 input is x − 128, the accumulator corrected by 128·Σw), every stride.
      {1, 64, 56, 56, 64, 3, 1, 1, 1, u8, 0, u8, 0, true, true},
      {1, 64, 56, 56, 128, 3, 2, 1, 1, u8, 0, u8, 0, true, true},
      {1, 128, 28, 28, 256, 1, 2, 0, 1, u8, 0, u8, 0, true, true},
      {1, 512, 7, 7, 512, 3, 1, 1, 1, u8, 0, u8, 0, true, true},
      // Transposed: a decoder's 4×4 stride-2 upsampling, an output_padding, grouped.
      {2, 16, 7, 9, 8, 4, 2, 1, 1, u8, 3, u8, 10, true, true, true},
      {1, 8, 6, 5, 12, 3, 2, 1, 1, s8, -2, s8, -5, false, true, true, 1},
      {1, 8, 6, 6, 8, 3, 1, 1, 2, u8, 100, u8, 0, false, false, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.cin);
    CAPTURE(c.group);
    CAPTURE(c.stride);
    CAPTURE(c.transposed);
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    int64_t cin_g = c.cin / c.group;
    Value w = randomInts(c.transposed ? std::vector<int64_t>{c.cin, c.cout / c.group, c.k, c.k}
                                      : std::vector<int64_t>{c.cout, cin_g, c.k, c.k},
                         s8, -127, 127, 11);
    Value sw = randomFloats({c.per_channel ? c.cout : 1}, 0.001f, 0.01f, 12);
    if (!c.per_channel) sw.shape.clear();
    float sx = 0.02f;
    // An output scale that spreads the results over the integer range, with some saturation
    // (a transposed convolution sums about stride² times fewer terms into each output).
    float terms = static_cast<float>(cin_g * c.k * c.k) /
                  static_cast<float>(c.transposed ? c.stride * c.stride : 1);
    float sy = 2.0f * sx * 0.0055f * std::sqrt(terms) * 74 * 73 / 128;
    std::vector<ir::Argument> args = {
        x,
        b.scale(sx),
        b.zeroPoint(c.x_zp, c.x_type),
        b.constant(w),
        b.constant(sw),
        b.constant(Value::ints(sw.shape, std::vector<int64_t>(sw.f.size(), 0), s8)),
        b.scale(sy),
        b.zeroPoint(c.y_zp, c.y_type)};
    if (c.bias)
      args.emplace_back(b.constant(randomInts({c.cout}, ir::DType::kInt32, -20000, 20000, 13)));
    ir::Kwargs attributes = {{"kernel_shape", ints({c.k, c.k})},
                             {"strides", ints({c.stride, c.stride})},
                             {"pads", ints({c.pad, c.pad, c.pad, c.pad})},
                             {"group", ir::Argument(c.group)}};
    if (c.out_pad) attributes.emplace_back("output_padding", ints({c.out_pad, c.out_pad}));
    ir::Node* conv =
        b.g().callFunction(c.transposed ? "fxc.QLinearConvTranspose" : "onnx.QLinearConv",
                           std::move(args), attributes);
    b.g().output(conv);
    bool is_u8 = c.x_type == u8;
    std::vector<Value> inputs = {
        randomInts({c.n, c.cin, c.h, c.w}, c.x_type, is_u8 ? 0 : -128, is_u8 ? 255 : 127, 14)};
    CHECK(fastKernelTakes(*b.gm, inputs));
    Value want = run(*b.gm, Backend::kReference, inputs)[0];
    for (Backend backend : fastBackends()) {
      CAPTURE(static_cast<int>(backend));
      Value got = run(*b.gm, backend, inputs)[0];
      REQUIRE(got.shape == want.shape);
      CHECK(got.dtype == c.y_type);
      // Exact but for results on a rounding tie (oneDNN rescales in float, the reference in
      // double): those may differ by one unit.
      int64_t differ = 0, worst = 0, saturated = 0;
      for (size_t k = 0; k < want.i.size(); ++k) {
        int64_t d = std::abs(got.i[k] - want.i[k]);
        differ += d != 0;
        worst = std::max(worst, d);
        saturated += want.i[k] == (c.y_type == u8 ? 255 : 127);
      }
      CHECK(worst <= 1);
      CHECK(differ <= std::max<int64_t>(2, static_cast<int64_t>(want.i.size()) / 1000));
      CHECK(saturated < static_cast<int64_t>(want.i.size()) / 4);  // the range is exercised
    }
  }
}

TEST_CASE("QLinearConvTranspose: output pixels no input reaches hold the bias alone") {
  // A stride past the kernel (3 over 2 rows, 2 over 1 column) and rows only output_padding adds:
  // oneDNN's int8 deconvolution left such pixels unwritten (other values run to run, up to 127
  // steps off); the model's answer there is Q(bias). Both backends must give the reference's.
  Builder b;
  ir::Node* x = b.g().placeholder("x");
  Value w = randomInts({4, 6, 2, 1}, ir::DType::kInt8, -127, 127, 41);
  Value sw = randomFloats({6}, 0.001f, 0.01f, 42);
  Value bias = randomInts({6}, ir::DType::kInt32, -20000, 20000, 43);
  ir::Node* conv = b.g().callFunction(
      "fxc.QLinearConvTranspose",
      {x, b.scale(0.02f), b.zeroPoint(3, ir::DType::kUInt8), b.constant(w), b.constant(sw),
       b.constant(Value::ints({6}, std::vector<int64_t>(6, 0), ir::DType::kInt8)), b.scale(0.05f),
       b.zeroPoint(-7, ir::DType::kInt8), b.constant(bias)},
      {{"kernel_shape", ints({2, 1})},
       {"strides", ints({3, 2})},
       {"pads", ints({0, 0, 0, 0})},
       {"output_padding", ints({2, 1})},
       {"group", ir::Argument(int64_t{1})}});
  b.g().output(conv);
  std::vector<Value> inputs = {randomInts({2, 4, 5, 4}, ir::DType::kUInt8, 0, 255, 44)};
  Value want = run(*b.gm, Backend::kReference, inputs)[0];
  REQUIRE(want.shape == std::vector<int64_t>{2, 6, 16, 8});
  int64_t bias_only = 0;  // rows 2, 5, 8, 11, 14, 15 and the odd columns: no tap
  for (int64_t r = 0; r < 16; ++r)
    for (int64_t col = 0; col < 8; ++col) bias_only += r % 3 == 2 || col % 2 == 1;
  REQUIRE(bias_only > 0);
  for (Backend backend : fastBackends()) {
    CAPTURE(static_cast<int>(backend));
    for (int again = 0; again < 3; ++again) {
      Value got = run(*b.gm, backend, inputs)[0];
      REQUIRE(got.shape == want.shape);
      int64_t worst = 0;
      for (size_t k = 0; k < want.i.size(); ++k)
        worst = std::max<int64_t>(worst, std::abs(got.i[k] - want.i[k]));
      CHECK(worst <= 1);
    }
  }
}

TEST_CASE("QLinearConv(Act): with power-of-two scales every tie is exact and rounds as Q does") {
  // s_x·s_w/s_y = 1/2 (QLinearConv) or 1/128 (QLinearConvAct, a clamp at −0.375 = −1.5 steps):
  // every product in float is exact, so oneDNN must give QuantizeLinear's result bit for bit —
  // round half to even, then the zero point. oneDNN had added an odd zero point before its
  // rounding: every tie went to the other neighbour (a quarter of the outputs, one step off).
  const auto u8 = ir::DType::kUInt8, s8 = ir::DType::kInt8;
  struct Case {
    ir::DType y_type;
    int64_t y_zp;
    bool clamp;
  };
  for (const Case& c : std::vector<Case>{{u8, 127, false},
                                         {s8, -115, false},
                                         {s8, 4, false},
                                         {u8, 0, false},
                                         {s8, -115, true},
                                         {u8, 33, true}}) {
    CAPTURE(c.y_zp);
    CAPTURE(c.clamp);
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    std::vector<ir::Argument> args = {x,
                                      b.scale(0.125f),
                                      b.zeroPoint(128, u8),
                                      b.constant(randomInts({8, 4, 3, 3}, s8, -3, 3, 61)),
                                      b.scale(1.0f / 64),
                                      b.zeroPoint(0, s8),
                                      b.scale(c.clamp ? 0.25f : 1.0f / 256),
                                      b.zeroPoint(c.y_zp, c.y_type)};
    ir::Kwargs kwargs = {{"kernel_shape", ints({3, 3})}, {"pads", ints({1, 1, 1, 1})}};
    if (c.clamp) {
      kwargs.emplace_back("activation", ir::Argument(std::string("Hardtanh")));
      kwargs.emplace_back("activation_min", ir::Argument(-0.375));
      kwargs.emplace_back("activation_max", ir::Argument(1.5));
    }
    b.g().output(b.g().callFunction(c.clamp ? "fxc.QLinearConvAct" : "onnx.QLinearConv",
                                    std::move(args), kwargs));
    std::vector<Value> inputs = {randomInts({1, 4, 8, 8}, u8, 96, 160, 62)};
    CHECK(fastKernelTakes(*b.gm, inputs));
    Value want = run(*b.gm, Backend::kReference, inputs)[0];
    for (Backend backend : fastBackends()) {
      CAPTURE(static_cast<int>(backend));
      Value got = run(*b.gm, backend, inputs)[0];
      REQUIRE(got.i.size() == want.i.size());
      size_t off = 0, at_lower_bound = 0;
      for (size_t k = 0; k < want.i.size(); ++k) {
        off += got.i[k] != want.i[k];
        at_lower_bound += want.i[k] == c.y_zp - 2;  // Q(−0.375) = round(−1.5) + z = z − 2
      }
      CHECK(off == 0);
      if (c.clamp) CHECK(at_lower_bound > 0);  // the clamp's tie is exercised
    }
  }
}

TEST_CASE("QLinearConvToFloat: the int8 convolution with a float result, addend and ReLU") {
  struct Case {
    int64_t n, cin, h, w, cout, k, stride, pad, group;
    ir::DType x_type;
    int64_t x_zp;
    bool per_channel, bias, addend, relu;
  };
  const auto u8 = ir::DType::kUInt8, s8 = ir::DType::kInt8;
  std::vector<Case> cases = {
      {1, 16, 14, 14, 32, 3, 1, 1, 1, s8, 0, true, true, true, true},      // trt's residual conv
      {2, 3, 17, 19, 8, 3, 2, 1, 1, u8, 128, true, true, false, true},     // zero point, no addend
      {1, 32, 9, 9, 32, 3, 1, 1, 32, u8, 7, true, false, true, false},     // depthwise, addend only
      {1, 16, 10, 10, 24, 1, 2, 0, 1, s8, -3, false, true, false, false},  // per tensor, plain
      {1, 8, 12, 12, 8, 3, 1, 1, 2, s8, 5, true, true, true, true},        // grouped
  };
  for (const Case& c : cases) {
    CAPTURE(c.cin);
    CAPTURE(c.group);
    CAPTURE(c.addend);
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    int64_t cin_g = c.cin / c.group;
    int64_t oh = (c.h + 2 * c.pad - c.k) / c.stride + 1,
            ow = (c.w + 2 * c.pad - c.k) / c.stride + 1;
    Value sw = randomFloats({c.per_channel ? c.cout : 1}, 0.001f, 0.01f, 32);
    if (!c.per_channel) sw.shape.clear();
    std::vector<ir::Argument> args = {
        x,
        b.scale(0.02f),
        b.zeroPoint(c.x_zp, c.x_type),
        b.constant(randomInts({c.cout, cin_g, c.k, c.k}, s8, -127, 127, 31)),
        b.constant(sw),
        b.constant(Value::ints(sw.shape, std::vector<int64_t>(sw.f.size(), 0), s8))};
    if (c.bias || c.addend)
      args.emplace_back(c.bias ? ir::Argument(b.constant(randomFloats({c.cout}, -2, 2, 33)))
                               : ir::Argument());
    if (c.addend) args.emplace_back(b.g().placeholder("z"));
    ir::Kwargs kwargs = {{"kernel_shape", ints({c.k, c.k})},
                         {"strides", ints({c.stride, c.stride})},
                         {"pads", ints({c.pad, c.pad, c.pad, c.pad})},
                         {"group", ir::Argument(c.group)}};
    if (c.relu) kwargs.emplace_back("activation", ir::Argument(std::string("Relu")));
    b.g().output(b.g().callFunction("fxc.QLinearConvToFloat", std::move(args), kwargs));
    bool is_u8 = c.x_type == u8;
    std::vector<Value> inputs = {
        randomInts({c.n, c.cin, c.h, c.w}, c.x_type, is_u8 ? 0 : -128, is_u8 ? 255 : 127, 34)};
    if (c.addend) inputs.push_back(randomFloats({c.n, c.cout, oh, ow}, -3, 3, 35));
    CHECK(fastKernelTakes(*b.gm, inputs));
    Value want = run(*b.gm, Backend::kReference, inputs)[0];
    for (Backend backend : fastBackends()) {
      CAPTURE(static_cast<int>(backend));
      Value got = run(*b.gm, backend, inputs)[0];
      REQUIRE(got.shape == want.shape);
      REQUIRE(got.isFloat());
      // Float rounding only: the accumulator is exact in both.
      float range = 0;
      size_t zeros = 0;
      for (float v : want.f) range = std::max(range, std::fabs(v));
      REQUIRE(range > 0.5f);
      for (size_t k = 0; k < want.f.size(); ++k) {
        CHECK(std::fabs(got.f[k] - want.f[k]) <= 2e-6f * range);
        zeros += want.f[k] == 0.0f;
      }
      // ReLU clips about half of the values; without it (almost) none are 0.
      CHECK((zeros > want.f.size() / 4) == c.relu);
    }
  }
}

TEST_CASE("QLinearConvAct with an 8-bit addend: oneDNN's int8 convolution equals the exact one") {
  // Q([act](acc·s_x·s_w + DQ(z))): oneDNN sums z (a binary post-op) in its own units, then one
  // linear step to the output's, then the ReLU or clamp. The reference: the exact accumulator in
  // double, the float sum, the activation, Q. Within one output unit (float rounding at a tie).
  struct Case {
    int64_t n, cin, h, w, cout, k, stride, pad;
    ir::DType z_type;
    int64_t z_zp, y_zp;
    bool per_channel, bias;
    std::string activation;  // "", "ReLU", "Hardtanh" (-1, 2)
  };
  const auto u8 = ir::DType::kUInt8, s8 = ir::DType::kInt8;
  std::vector<Case> cases = {
      {1, 16, 14, 14, 32, 3, 1, 1, s8, 0, 0, true, true, "ReLU"},  // the trt preset's block
      {2, 8, 9, 11, 16, 1, 2, 0, u8, 120, 10, true, true, "ReLU"},
      {1, 16, 10, 10, 24, 3, 1, 1, s8, -5, 3, false, false, ""},
      {1, 8, 12, 12, 8, 3, 1, 1, u8, 128, -2, true, true, "Hardtanh"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.cin);
    CAPTURE(c.activation);
    CAPTURE(c.z_zp);
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    ir::Node* z = b.g().placeholder("z");
    int64_t oh = (c.h + 2 * c.pad - c.k) / c.stride + 1,
            ow = (c.w + 2 * c.pad - c.k) / c.stride + 1;
    Value sw = randomFloats({c.per_channel ? c.cout : 1}, 0.001f, 0.01f, 52);
    if (!c.per_channel) sw.shape.clear();
    std::vector<ir::Argument> args = {
        x,
        b.scale(0.02f),
        b.zeroPoint(0, s8),
        b.constant(randomInts({c.cout, c.cin, c.k, c.k}, s8, -127, 127, 51)),
        b.constant(sw),
        b.constant(Value::ints(sw.shape, std::vector<int64_t>(sw.f.size(), 0), s8)),
        b.scale(0.04f),
        b.zeroPoint(c.y_zp, s8),
        c.bias ? ir::Argument(b.constant(randomInts({c.cout}, ir::DType::kInt32, -900, 900, 53)))
               : ir::Argument(),
        z,
        b.scale(0.03f),
        b.zeroPoint(c.z_zp, c.z_type)};
    ir::Kwargs kwargs = {{"kernel_shape", ints({c.k, c.k})},
                         {"strides", ints({c.stride, c.stride})},
                         {"pads", ints({c.pad, c.pad, c.pad, c.pad})}};
    if (!c.activation.empty()) kwargs.emplace_back("activation", ir::Argument(c.activation));
    if (c.activation == "Hardtanh") {
      kwargs.emplace_back("activation_min", ir::Argument(-1.0));
      kwargs.emplace_back("activation_max", ir::Argument(2.0));
    }
    b.g().output(b.g().callFunction("fxc.QLinearConvAct", std::move(args), kwargs));
    bool z_u8 = c.z_type == u8;
    std::vector<Value> inputs = {
        randomInts({c.n, c.cin, c.h, c.w}, s8, -128, 127, 54),
        randomInts({c.n, c.cout, oh, ow}, c.z_type, z_u8 ? 0 : -128, z_u8 ? 255 : 127, 55)};
    CHECK(fastKernelTakes(*b.gm, inputs));
    Value want = run(*b.gm, Backend::kReference, inputs)[0];
    for (Backend backend : fastBackends()) {
      CAPTURE(static_cast<int>(backend));
      Value got = run(*b.gm, backend, inputs)[0];
      REQUIRE(got.shape == want.shape);
      REQUIRE(got.i.size() == want.i.size());
      size_t off = 0, clipped = 0, spread = 0;
      int64_t lo = want.i[0], hi = want.i[0];
      for (size_t k = 0; k < want.i.size(); ++k) {
        CHECK(std::llabs(got.i[k] - want.i[k]) <= 1);
        off += got.i[k] != want.i[k];
        lo = std::min(lo, want.i[k]);
        hi = std::max(hi, want.i[k]);
        clipped += want.i[k] == c.y_zp;
      }
      spread = static_cast<size_t>(hi - lo);
      CHECK(off <= want.i.size() / 100);
      CHECK(spread > 20);  // the values span many steps: the test sees the sum and the scales
      // A ReLU sends about half of the values to the zero point; without one, few land there.
      if (c.activation != "Hardtanh")
        CHECK((clipped > want.i.size() / 4) == (c.activation == "ReLU"));
    }
    // The same interpreter given an addend of another shape (x's the same: the plan is kept for
    // x) refuses as the reference does, then runs the first inputs again unchanged.
    std::vector<Value> wider = inputs;
    wider[1] =
        randomInts({c.n, c.cout, oh, ow + 1}, c.z_type, z_u8 ? 0 : -128, z_u8 ? 255 : 127, 56);
    auto refused = Interpreter(*b.gm, Backend::kReference).run(wider);
    REQUIRE_FALSE(refused.ok());
    Interpreter fast(*b.gm, Backend::kCpu);
    auto first = fast.run(inputs);
    REQUIRE_MESSAGE(first.ok(), first.error());
    auto bad = fast.run(wider);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error() == refused.error());
    auto again = fast.run(inputs);
    REQUIRE_MESSAGE(again.ok(), again.error());
    CHECK(again.value()[0].i == first.value()[0].i);
  }
}

TEST_CASE("8-bit loops: QuantizeLinear, QLinearAdd, Max, DequantizeLinear equal the reference") {
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    CAPTURE(static_cast<int>(dtype));
    bool u8 = dtype == ir::DType::kUInt8;
    Builder b;
    ir::Node* xa = b.g().placeholder("a");
    ir::Node* xb = b.g().placeholder("b");
    ir::Node* qa = b.quantize(xa, 0.05f, u8 ? 120 : -8, dtype);
    ir::Node* qb = b.quantize(xb, 0.031f, u8 ? 3 : 0, dtype);
    ir::Node* sum = b.g().callFunction(
        "com.microsoft.QLinearAdd",
        {qa, b.scale(0.05f), b.zeroPoint(u8 ? 120 : -8, dtype), qb, b.scale(0.031f),
         b.zeroPoint(u8 ? 3 : 0, dtype), b.scale(0.07f), b.zeroPoint(u8 ? 100 : 4, dtype)});
    ir::Node* clipped =
        b.g().callFunction("torch.maximum", {sum, b.zeroPoint(u8 ? 100 : 4, dtype)});
    b.g().output(ir::Argument::tuple(
        {ir::Argument(b.dequantize(clipped, 0.07f, u8 ? 100 : 4, dtype)), ir::Argument(sum)}));
    // Values on rounding ties (x / s = k + 0.5) included: multiples of s/2. The larger shape
    // runs on the thread pool in blocks, the last one partial.
    for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 16, 9, 9}, {2, 16, 70, 71}}) {
      Value a = randomFloats(shape, -7.0f, 7.0f, 1);
      Value c = randomFloats(shape, -4.0f, 4.0f, 2);
      for (size_t k = 0; k < a.f.size(); k += 7) a.f[k] = 0.025f * std::round(a.f[k] / 0.025f);
      std::vector<Value> inputs = {a, c};
      auto want = run(*b.gm, Backend::kReference, inputs);
      auto got = run(*b.gm, Backend::kCpu, inputs);
      CHECK(got[0].f == want[0].f);  // bit for bit: the same float arithmetic
      CHECK(got[1].i == want[1].i);
      CHECK(got[1].dtype == dtype);
    }
  }
  // The fast kernels take these (they would hand anything else to the reference, unseen above).
  Builder q;
  q.g().output(q.quantize(q.g().placeholder("x"), 0.1f, 7, ir::DType::kUInt8));
  CHECK(fastKernelTakes(*q.gm, {randomFloats({1, 8, 4, 4}, -1, 1, 3)}));
}

// A window entirely in the padding (pads 3 above a 3 × 1 window, stride 2): the reference
// refuses the pool; oneDNN answered the type's minimum for the first output row (-128, 0), a
// number the model does not define. Both backends refuse, with the reference's message.
TEST_CASE("8-bit max pooling with a window entirely in the padding is refused on both backends") {
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    CAPTURE(static_cast<int>(dtype));
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    b.g().output(b.g().callFunction(
        "torch.nn.functional.max_pool2d", {x},
        {{"kernel_shape", ints({3, 1})}, {"strides", ints({2, 1})}, {"pads", ints({3, 0, 0, 0})}}));
    bool u8 = dtype == ir::DType::kUInt8;
    std::vector<Value> inputs = {
        randomInts({1, 16, 11, 11}, dtype, u8 ? 0 : -128, u8 ? 255 : 127, 64)};
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      auto ran = Interpreter(*b.gm, backend).run(inputs);
      REQUIRE_FALSE(ran.ok());
      CHECK(ran.error().find("a pooling window lies entirely in the padding") != std::string::npos);
    }
  }
}

TEST_CASE("8-bit max pooling and concatenation on oneDNN equal the reference, bit for bit") {
  // cat(Q(a), Q(b), c) on oneDNN's concat (the Qs' results native, c a plain 8-bit input), then
  // a 3×3 max pool on it, and one on the plain input alone (oneDNN's NCHW 8-bit pooling is its
  // reference loops: the kernel reorders to channels-last first). Integer results: equal.
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    CAPTURE(static_cast<int>(dtype));
    bool u8 = dtype == ir::DType::kUInt8;
    Builder b;
    ir::Node* a = b.quantize(b.g().placeholder("a"), 0.05f, u8 ? 120 : -8, dtype);
    ir::Node* bq = b.quantize(b.g().placeholder("b"), 0.05f, u8 ? 120 : -8, dtype);
    ir::Node* c = b.g().placeholder("c");
    ir::Node* cat =
        b.g().callFunction("torch.cat", {a, bq, c}, {{"axis", ir::Argument(int64_t{1})}});
    auto pool = [&](ir::Node* x, int64_t stride, int64_t pad, int64_t k = 3) {
      return b.g().callFunction("torch.nn.functional.max_pool2d", {x},
                                {{"kernel_shape", ints({k, k})},
                                 {"strides", ints({stride, stride})},
                                 {"pads", ints({pad, pad, pad, pad})}});
    };
    // The last: 2 × 2, stride 2 on 9 × 9 (its last window ends before the input's edge).
    b.g().output(ir::Argument::tuple({ir::Argument(pool(cat, 1, 1)), ir::Argument(pool(c, 2, 0)),
                                      ir::Argument(cat), ir::Argument(pool(cat, 2, 0, 2))}));
    std::vector<Value> inputs = {
        randomFloats({2, 16, 9, 9}, -6.0f, 6.0f, 61), randomFloats({2, 8, 9, 9}, -6.0f, 6.0f, 62),
        randomInts({2, 5, 9, 9}, dtype, u8 ? 0 : -128, u8 ? 255 : 127, 63)};
    auto want = run(*b.gm, Backend::kReference, inputs);
    auto got = run(*b.gm, Backend::kCpu, inputs);
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      CAPTURE(k);
      CHECK(got[k].shape == want[k].shape);
      CHECK(got[k].dtype == dtype);
      CHECK(got[k].i == want[k].i);
    }
  }
}

namespace {

struct Lowered {
  int64_t conv = 0, add = 0, refused = 0, max_pool = 0, requantize = 0, conv_to_float = 0,
          moved = 0, lookup = 0, conv_add = 0;
};

Lowered lower(ir::GraphModule& gm) {
  const auto* pass = fxc::passes::Registry::instance().find("quant-lower");
  REQUIRE(pass);
  auto result = pass->run(gm, {});
  REQUIRE(result);
  CHECK(ir::lintGraph(gm.graph(), &gm).empty());
  Lowered counts;
  for (const auto& [what, n] : result.value().counts) {
    if (what == "conv") counts.conv = n;
    if (what == "add") counts.add = n;
    if (what == "refused") counts.refused = n;
    if (what == "max-pool") counts.max_pool = n;
    if (what == "requantize") counts.requantize = n;
    if (what == "conv to float") counts.conv_to_float = n;
    if (what == "data movement") counts.moved = n;
    if (what == "lookup") counts.lookup = n;
    if (what == "conv add") counts.conv_add = n;
  }
  return counts;
}

// The lowered graph (reference and oneDNN kernels) against the QDQ graph as written (reference
// kernels, float): every output element within `units` steps of `step`, at most `fraction` of
// them off at all.
void checkAgainstQdq(const ir::GraphModule& qdq, const ir::GraphModule& lowered,
                     const std::vector<Value>& inputs, float step, double units = 1.0,
                     double fraction = 0.01) {
  Value want = run(qdq, Backend::kReference, inputs)[0];
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    CAPTURE(static_cast<int>(backend));
    Value got = run(lowered, backend, inputs)[0];
    REQUIRE(got.shape == want.shape);
    size_t off = 0;
    double worst = 0;
    for (size_t k = 0; k < want.f.size(); ++k) {
      double d = std::fabs(static_cast<double>(got.f[k]) - want.f[k]);
      worst = std::max(worst, d);
      off += d > 1e-6;
    }
    CHECK(worst <= units * step * 1.0001);
    CHECK(static_cast<double>(off) <= fraction * static_cast<double>(want.f.size()));
  }
}

// x → Q → DQ → conv(DQ(w), bias) → [relu] → Q(sy, zy) → DQ → output: a QDQ model's convolution.
struct ConvModel {
  ir::DType y_type = ir::DType::kUInt8;
  int64_t y_zp = 0;
  bool relu = true;
  int bias = 1;  // 0: none, 1: int32 at sx·sw (DequantizeLinear), 2: float constant
  int64_t w_zp = 0;
  float bias_scale_factor = 1.0f;  // 1: exactly sx·sw; else another scale
  bool clamp = false;              // torch.clamp(-0.5, clamp_max) after the (relu-less) conv
  // An activation after the (relu-less) conv: a module type, or a function (torch.*); with
  // attributes; its result read by the Q and, when `read_twice`, by the output too.
  std::string activation = {};
  ir::Kwargs activation_attributes = {};
  bool read_twice = false;
  // A transposed convolution (stride 2, output_padding 1; W [4, 8 / group, 3, 3]): 1 with
  // per-channel scales, 2 grouped with one scale, 3 grouped with per-channel scales.
  int transposed = 0;
  float clamp_max = 0.9f;
};

std::unique_ptr<ir::GraphModule> convModel(const ConvModel& m, float sx, float sy) {
  auto b = std::make_unique<Builder>();
  ir::Node* x = b->g().placeholder("x");
  ir::Node* dx =
      b->dequantize(b->quantize(x, sx, 128, ir::DType::kUInt8), sx, 128, ir::DType::kUInt8);
  int64_t group = m.transposed >= 2 ? 2 : 1, scales = m.transposed == 2 ? 1 : 8 / group;
  Value w = randomInts(
      m.transposed ? std::vector<int64_t>{4, 8 / group, 3, 3} : std::vector<int64_t>{8, 4, 3, 3},
      ir::DType::kInt8, -127, 127, 21);
  Value sw = randomFloats({scales}, 0.002f, 0.01f, 22);
  ir::Node* dw = b->g().callFunction(
      "onnx.DequantizeLinear",
      {b->constant(w), b->constant(sw),
       b->constant(Value::ints({scales}, std::vector<int64_t>(scales, m.w_zp), ir::DType::kInt8))},
      {{"axis", ir::Argument(int64_t{m.transposed ? 1 : 0})}});
  std::vector<ir::Argument> args = {dx, dw};
  if (m.bias == 1) {
    std::vector<float> bs(8);
    for (size_t c = 0; c < 8; ++c) bs[c] = sx * sw.f[c % sw.f.size()] * m.bias_scale_factor;
    args.emplace_back(b->g().callFunction(
        "onnx.DequantizeLinear",
        {b->constant(randomInts({8}, ir::DType::kInt32, -3000, 3000, 23)),
         b->constant(Value::floats({8}, bs)),
         b->constant(Value::ints({8}, std::vector<int64_t>(8, 0), ir::DType::kInt32))},
        {{"axis", ir::Argument(int64_t{0})}}));
  } else if (m.bias == 2) {
    args.emplace_back(b->constant(randomFloats({8}, -0.3f, 0.3f, 24)));
  }
  ir::Node* value =
      m.transposed ? b->g().callFunction("torch.nn.functional.conv_transpose2d", std::move(args),
                                         {{"kernel_shape", ints({3, 3})},
                                          {"pads", ints({1, 1, 1, 1})},
                                          {"strides", ints({2, 2})},
                                          {"output_padding", ints({1, 1})},
                                          {"group", ir::Argument(group)}})
                   : b->g().callFunction("torch.nn.functional.conv2d", std::move(args),
                                         {{"kernel_shape", ints({3, 3})},
                                          {"pads", ints({1, 1, 1, 1})},
                                          {"strides", ints({1, 1})}});
  if (m.relu) value = b->g().callFunction("torch.relu", {value});
  if (m.clamp)
    value = b->g().callFunction("torch.clamp", {value, b->scale(-0.5f), b->scale(m.clamp_max)});
  if (m.activation.rfind("torch.", 0) == 0) {
    value = b->g().callFunction(m.activation, {value}, m.activation_attributes);
  } else if (!m.activation.empty()) {
    b->gm->addModule("act", m.activation)->attributes() = m.activation_attributes;
    value = b->g().callModule("act", {value});
  }
  ir::Node* q = b->quantize(value, sy, m.y_zp, m.y_type);
  ir::Node* y = b->dequantize(q, sy, m.y_zp, m.y_type);
  b->g().output(m.read_twice ? ir::Argument::tuple({ir::Argument(y), ir::Argument(value)})
                             : ir::Argument(y));
  return std::move(b->gm);
}

}  // namespace

TEST_CASE("quant-lower: convolutions lowered compute the QDQ graph within one output step") {
  const float sx = 0.01f, sy = 0.02f;
  std::vector<Value> inputs = {randomFloats({2, 4, 10, 10}, -1.2f, 1.3f, 5)};
  struct Variant {
    const char* what;
    ConvModel model;
    int64_t lowered;
    // Lowered to fxc.QLinearConvAct, not QLinearConv: a clamp the convolution applies (ReLU or
    // Hardtanh) where saturation alone does not clip, not an integer Max/Min after it; or a bias
    // that is no exact int32 number of s_x·s_w[c], added in float.
    bool conv_act = false;
  };
  const auto s8 = ir::DType::kInt8;
  std::vector<Variant> variants = {
      {"relu absorbed by saturation (uint8, zero point 0)", {}, 1},
      {"relu in the convolution (uint8, zero point 30)", {ir::DType::kUInt8, 30}, 1, true},
      {"relu in the convolution (int8, zero point 0)", {s8, 0}, 1, true},
      {"no relu, int8 output", {s8, -3, false}, 1},
      {"no bias", {ir::DType::kUInt8, 0, true, 0}, 1},
      {"float bias kept in real units", {ir::DType::kUInt8, 0, true, 2}, 1, true},
      {"int32 bias at another scale, requantized (relu in the convolution: zero point 5)",
       {ir::DType::kUInt8, 5, true, 1, 0, 1.37f},
       1,
       true},
      {"weight zero point not 0: refused", {ir::DType::kUInt8, 0, true, 1, 1}, 0},
      {"clamp in the convolution (int8)", {s8, 3, false, 1, 0, 1.0f, true}, 1, true},
      {"clamp whose top saturation does (uint8)",
       {ir::DType::kUInt8, 40, false, 0, 0, 1.0f, true},
       1,
       true},
      {"clamp that saturation does entirely (int8, scale 0.0035: [-0.448, 0.4445])",
       {s8, 0, false, 1, 0, 1.0f, true},
       1},
  };
  // A clamp from below only, not to 0: kept as an integer Max (an unbounded Hardtanh is no
  // oneDNN post-op).
  ConvModel one_sided{s8, 3, false, 1, 0, 1.0f, true};
  one_sided.clamp_max = INFINITY;
  variants.push_back({"one-sided clamp kept as a Max (int8)", one_sided, 1});
  // Transposed convolutions: fxc.QLinearConvTranspose.
  for (int transposed : {1, 2, 3}) {
    ConvModel m;
    m.transposed = transposed;
    m.relu = transposed != 1;
    variants.push_back({transposed == 1   ? "transposed, per channel, no relu"
                        : transposed == 2 ? "transposed, grouped, per tensor"
                                          : "transposed, grouped, per channel: refused",
                        m, transposed == 3 ? 0 : 1});
  }
  ConvModel transposed_float_bias;
  transposed_float_bias.transposed = 1;
  transposed_float_bias.bias = 2;
  variants.push_back({"transposed, float bias kept in real units", transposed_float_bias, 1});
  for (const Variant& v : variants) {
    std::string what = v.what;
    CAPTURE(what);
    // One variant's scale puts the clamp's bounds beyond the int8 range.
    bool saturating = std::string(v.what).rfind("clamp that saturation", 0) == 0;
    float y_scale = saturating ? 0.0035f : sy;
    auto qdq = convModel(v.model, sx, y_scale);
    auto lowered = convModel(v.model, sx, y_scale);
    Lowered counts = lower(*lowered);
    CHECK(counts.conv == v.lowered);
    CHECK(counts.refused == 1 - v.lowered);
    int64_t in_conv = 0, bounds = 0;
    for (const ir::Node* node : lowered->graph()) {
      in_conv += node->target() == "fxc.QLinearConvAct";
      bounds += node->target() == "torch.maximum" || node->target() == "torch.minimum";
    }
    CHECK(in_conv == (v.conv_act ? 1 : 0));
    CHECK(bounds == (v.model.clamp_max == INFINITY ? 1 : 0));
    checkAgainstQdq(*qdq, *lowered, inputs, y_scale);
  }
}

TEST_CASE("quant-lower: a float bias is added in real units, not rounded to the accumulator's") {
  // Q(conv(DQ(x), DQ(w), b)) with b[c] = (k + f)·s_x·s_w[c], f a fraction in [0.2, 0.8], and
  // s_x·s_w/s_y near 0.37: b rounded to int32 units of s_x·s_w[c] moves the real result by up to
  // 0.19 of an output step, which changes a third of the outputs. The oracle is computed here:
  // the exact integer accumulator, then (acc·s_x·s_w[c] + b[c]) / s_y in double, rounded half to
  // even; outputs within 1e-3 of a tie are skipped (the QDQ graph's float arithmetic may round
  // them either way). Both the QDQ graph as written and the lowered graph on both backends must
  // equal it everywhere else.
  const float sx = 0.01f, sy = 0.002f;
  const int64_t n = 2, cin = 4, cout = 8, h = 6, w = 6, zx = 128, zy = 128;
  // Small inputs and weights keep the outputs inside uint8's range (checked below).
  Value wq = randomInts({cout, cin, 3, 3}, ir::DType::kInt8, -6, 6, 31);
  Value sw = randomFloats({cout}, 0.06f, 0.09f, 32);
  std::vector<float> bias(cout);
  std::mt19937 rng(33);
  std::uniform_int_distribution<int> whole(-100, 100);
  std::uniform_real_distribution<double> fraction(0.2, 0.8);
  for (int64_t c = 0; c < cout; ++c)
    bias[c] = static_cast<float>((whole(rng) + fraction(rng)) * sx * sw.f[c]);
  // x on the input's grid: Q(x) = k + 128 exactly.
  Value xq = randomInts({n, cin, h, w}, ir::DType::kUInt8, 118, 138, 34);
  Value x = Value::floats(xq.shape, std::vector<float>(xq.i.size()));
  for (size_t k = 0; k < xq.i.size(); ++k) x.f[k] = static_cast<float>(xq.i[k] - zx) * sx;

  auto model = [&] {
    auto b = std::make_unique<Builder>();
    ir::Node* dx = b->dequantize(b->quantize(b->g().placeholder("x"), sx, zx, ir::DType::kUInt8),
                                 sx, zx, ir::DType::kUInt8);
    ir::Node* dw = b->g().callFunction(
        "onnx.DequantizeLinear",
        {b->constant(wq), b->constant(sw),
         b->constant(Value::ints({cout}, std::vector<int64_t>(cout, 0), ir::DType::kInt8))},
        {{"axis", ir::Argument(int64_t{0})}});
    ir::Node* conv = b->g().callFunction(
        "torch.nn.functional.conv2d", {dx, dw, b->constant(Value::floats({cout}, bias))},
        {{"kernel_shape", ints({3, 3})}, {"pads", ints({1, 1, 1, 1})}, {"strides", ints({1, 1})}});
    b->g().output(b->quantize(conv, sy, zy, ir::DType::kUInt8));
    return std::move(b->gm);
  };
  // The oracle.
  std::vector<int64_t> want(static_cast<size_t>(n * cout * h * w));
  std::vector<bool> tie(want.size());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t o = 0; o < cout; ++o)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x0 = 0; x0 < w; ++x0) {
          int64_t acc = 0;
          for (int64_t c = 0; c < cin; ++c)
            for (int64_t ky = 0; ky < 3; ++ky)
              for (int64_t kx = 0; kx < 3; ++kx) {
                int64_t yy = y + ky - 1, xx = x0 + kx - 1;
                if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
                acc += (xq.i[((i * cin + c) * h + yy) * w + xx] - zx) *
                       wq.i[((o * cin + c) * 3 + ky) * 3 + kx];
              }
          double t = (static_cast<double>(acc) * sx * sw.f[o] + bias[o]) / sy;
          size_t k = static_cast<size_t>(((i * cout + o) * h + y) * w + x0);
          tie[k] = std::fabs(t - std::floor(t) - 0.5) < 1e-3;
          want[k] = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(t)) + zy, 0, 255);
        }
  // Rounding the bias would have moved this many of them (the test's power to fail).
  size_t moved = 0;
  for (int64_t o = 0; o < cout; ++o) {
    double units = static_cast<double>(sx * sw.f[o]);
    moved += std::nearbyint(bias[o] / units) * units != static_cast<double>(bias[o]);
  }
  CHECK(moved == static_cast<size_t>(cout));
  // Most outputs inside uint8's range (a saturated one says nothing about the bias).
  int64_t saturated =
      std::count(want.begin(), want.end(), 0) + std::count(want.begin(), want.end(), 255);
  CHECK(saturated < static_cast<int64_t>(want.size() / 20));
  auto qdq = model();
  auto lowered = model();
  Lowered counts = lower(*lowered);
  REQUIRE(counts.conv == 1);
  int64_t conv_act = 0;
  for (const ir::Node* node : lowered->graph()) conv_act += node->target() == "fxc.QLinearConvAct";
  CHECK(conv_act == 1);
  auto compare = [&](const Value& got) {
    REQUIRE(got.i.size() == want.size());
    size_t checked = 0, wrong = 0;
    for (size_t k = 0; k < want.size(); ++k) {
      if (tie[k]) continue;
      ++checked;
      wrong += got.i[k] != want[k];
    }
    CHECK(checked > want.size() * 9 / 10);
    CHECK(wrong == 0);
  };
  {
    INFO("the QDQ graph as written, reference kernels");
    compare(run(*qdq, Backend::kReference, {x})[0]);
  }
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    INFO("lowered, backend " << static_cast<int>(backend));
    compare(run(*lowered, backend, {x})[0]);
  }
}

TEST_CASE("quant-lower: Q(act(conv)) becomes QLinearConvAct within one output step") {
  // Q(act(conv(DQ(x), DQ(w), b))) for an activation that is no clamp: one int8 convolution that
  // applies the activation before its Q (oneDNN: output scales, the activation, × 1/s_y as
  // post-ops). Against the QDQ graph as written: within one output step. Near misses: the
  // activation read twice (the convolution runs to float instead), a Hardsigmoid (not one of
  // the fused activations).
  const float sx = 0.01f, sy = 0.004f;
  std::vector<Value> inputs = {randomFloats({2, 4, 10, 10}, -1.2f, 1.3f, 5)};
  struct Variant {
    std::string activation;
    ir::Kwargs attributes;
    bool read_twice;
    int64_t fused;
  };
  std::vector<Variant> variants = {
      {"Hardswish", {}, false, 1},
      {"SiLU", {}, false, 1},
      {"Sigmoid", {}, false, 1},
      {"Tanh", {}, false, 1},
      {"LeakyReLU", {{"alpha", ir::Argument(0.1)}}, false, 1},
      {"GELU", {}, false, 1},
      {"GELU", {{"approximate", ir::Argument(std::string("tanh"))}}, false, 1},
      {"torch.nn.functional.hardswish", {}, false, 1},
      {"torch.sigmoid", {}, false, 1},
      {"Hardswish", {}, true, 0},
      {"Hardsigmoid", {}, false, 1},
      {"Hardsigmoid", {{"alpha", ir::Argument(1.0 / 6)}, {"beta", ir::Argument(0.5)}}, false, 1},
      {"ELU", {}, false, 0},
  };
  for (const Variant& v : variants) {
    CAPTURE(v.activation);
    CAPTURE(v.read_twice);
    ConvModel m;
    m.relu = false;
    m.y_zp = 60;
    m.activation = v.activation;
    m.activation_attributes = v.attributes;
    m.read_twice = v.read_twice;
    auto qdq = convModel(m, sx, sy);
    auto lowered = convModel(m, sx, sy);
    lower(*lowered);
    int64_t fused = 0, to_float = 0;
    for (const ir::Node* node : lowered->graph()) {
      fused += node->target() == "fxc.QLinearConvAct";
      to_float += node->target() == "fxc.QLinearConvToFloat";
    }
    CHECK(fused == v.fused);
    CHECK(to_float == 1 - v.fused);
    checkAgainstQdq(*qdq, *lowered, inputs, sy);
  }
}

TEST_CASE("quant-lower: residual adds, max pooling and requantization") {
  // Q(relu(DQ(a) + DQ(b))), b through a max pooling with its own Q, and a DQ → Q round trip.
  auto make = [](bool same_shape, bool same_params) {
    auto b = std::make_unique<Builder>();
    const auto u8 = ir::DType::kUInt8;
    ir::Node* x = b->g().placeholder("x");
    ir::Node* y = b->g().placeholder("y");
    ir::Node* qx = b->quantize(x, 0.03f, 100, u8);
    ir::Node* pooled = b->g().callFunction(
        "torch.nn.functional.max_pool2d", {b->dequantize(qx, 0.03f, 100, u8)},
        {{"kernel_shape", ints({2, 2})}, {"strides", ints({1, 1})}, {"pads", ints({0, 0, 1, 1})}});
    float s = same_params ? 0.03f : 0.025f;
    int64_t z = same_params ? 100 : 90;
    ir::Node* qp = b->quantize(pooled, s, z, u8);
    ir::Node* da = b->dequantize(qp, s, z, u8);
    ir::Node* db = b->dequantize(b->quantize(y, 0.02f, 128, u8), 0.02f, 128, u8);
    std::vector<std::string> shape = {"1", "4", "6", "6"};
    da->meta.shape = shape;
    db->meta.shape = same_shape ? shape : std::vector<std::string>{"1", "4", "1", "6"};
    ir::Node* sum = b->g().callFunction("operator.add", {da, db});
    ir::Node* q = b->quantize(b->g().callFunction("torch.relu", {sum}), 0.04f, 0, u8);
    b->g().output(b->dequantize(q, 0.04f, 0, u8));
    return std::move(b->gm);
  };
  Value x = randomFloats({1, 4, 6, 6}, -3, 3, 7);
  for (bool same_params : {true, false}) {
    CAPTURE(same_params);
    auto qdq = make(true, same_params);
    auto lowered = make(true, same_params);
    Lowered counts = lower(*lowered);
    CHECK(counts.max_pool == 1);
    CHECK(counts.requantize == (same_params ? 1 : 0));
    CHECK(counts.add == 1);
    checkAgainstQdq(*qdq, *lowered, {x, randomFloats({1, 4, 6, 6}, -2, 2, 8)}, 0.04f, 0.0, 0.0);
  }
  // An operand that broadcasts ([1, 4, 1, 6]): the add's own broadcasting, exact as well.
  auto qdq = make(false, true);
  auto broadcast = make(false, true);
  Lowered counts = lower(*broadcast);
  CHECK(counts.add == 1);
  CHECK(counts.refused == 0);
  checkAgainstQdq(*qdq, *broadcast, {x, randomFloats({1, 4, 1, 6}, -2, 2, 8)}, 0.04f, 0.0, 0.0);
}

TEST_CASE(
    "QLinearAdd/QLinearMul: [1]-shaped scales on vectors, and C of A's type without C's zero "
    "point") {
  // Per-tensor parameters given as [1] tensors, operands of rank 1 and 0, int8, no zero point for
  // C: the QDQ graph with the same numbers (scalar parameters) is the oracle, on both backends.
  for (bool mul : {false, true}) {
    CAPTURE(mul);
    const auto s8 = ir::DType::kInt8;
    Builder q;
    ir::Node* qa = q.quantize(q.g().placeholder("a"), 0.05f, -3, s8);
    ir::Node* qb = q.quantize(q.g().placeholder("b"), 0.02f, 4, s8);
    auto one = [&](float v) { return q.constant(Value::floats({1}, {v})); };
    auto zero = [&](int64_t z) { return q.constant(Value::ints({1}, {z}, s8)); };
    q.g().output(q.g().callFunction(
        mul ? "com.microsoft.QLinearMul" : "com.microsoft.QLinearAdd",
        {qa, one(0.05f), zero(-3), qb, one(0.02f), zero(4), one(mul ? 0.004f : 0.06f)}));
    Builder d;
    ir::Node* da = d.dequantize(d.quantize(d.g().placeholder("a"), 0.05f, -3, s8), 0.05f, -3, s8);
    ir::Node* db = d.dequantize(d.quantize(d.g().placeholder("b"), 0.02f, 4, s8), 0.02f, 4, s8);
    ir::Node* f = d.g().callFunction(mul ? "operator.mul" : "operator.add", {da, db});
    d.g().output(d.quantize(f, mul ? 0.004f : 0.06f, 0, s8));
    std::vector<Value> inputs = {randomFloats({37}, -6, 6, 121), randomFloats({}, -2, 2, 122)};
    Value want = run(*d.gm, Backend::kReference, inputs)[0];
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      Value got = run(*q.gm, backend, inputs)[0];
      CHECK(got.dtype == s8);
      CHECK(got.shape == want.shape);
      CHECK(got.i == want.i);
    }
  }
}

TEST_CASE("quant-lower: Q(DQ(a) · DQ(b)) becomes QLinearMul, bit for bit, in oneDNN's layouts") {
  // A squeeze-excitation's product: x (plain after its Q, or channels-last after a max pool)
  // times s of x's shape, [N, C, 1, 1], [1, C, 1, 1] or one element, either operand first,
  // [relu], then Q. Against the QDQ graph as written: equal (the same float arithmetic), on
  // both backends; the shape runs on the thread pool in blocks that start mid-row. Near misses
  // stay as they are: the product read twice, a per-axis quantized operand.
  const std::vector<std::vector<int64_t>> scale_shapes = {
      {2, 24, 37, 41}, {2, 24, 1, 1}, {1, 24, 1, 1}, {1}, {}};
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    for (size_t shape = 0; shape < scale_shapes.size(); ++shape) {
      for (int variant = 0; variant < 5; ++variant) {
        bool pooled = variant == 1, swapped = variant == 2, relu = variant == 2;
        bool twice = variant == 3, per_axis = variant == 4;
        CAPTURE(static_cast<int>(dtype));
        CAPTURE(shape);
        CAPTURE(variant);
        bool u8 = dtype == ir::DType::kUInt8;
        auto make = [&] {
          Builder b;
          ir::Node* v = b.quantize(b.g().placeholder("x"), 0.05f, u8 ? 120 : -8, dtype);
          if (pooled)
            v = b.g().callFunction("torch.nn.functional.max_pool2d", {v},
                                   {{"kernel_shape", ints({3, 3})},
                                    {"strides", ints({1, 1})},
                                    {"pads", ints({1, 1, 1, 1})}});
          ir::Node* x = b.dequantize(v, 0.05f, u8 ? 120 : -8, dtype);
          ir::Node* s = b.g().placeholder("s");
          ir::Node* qs;
          if (per_axis) {
            std::vector<float> scales(24, 0.0041f);
            scales[5] = 0.0043f;
            ir::Node* sc = b.constant(Value::floats({24}, scales));
            ir::Node* zp =
                b.constant(Value::ints({24}, std::vector<int64_t>(24, u8 ? 7 : -100), dtype));
            qs = b.g().callFunction("onnx.QuantizeLinear", {s, sc, zp},
                                    {{"axis", ir::Argument(int64_t{1})}});
          } else {
            qs = b.quantize(s, 0.0041f, u8 ? 7 : -100, dtype);
          }
          ir::Node* ds = b.g().callFunction("onnx.DequantizeLinear",
                                            {qs, qs->args()[1], qs->args()[2]}, qs->kwargs());
          ir::Node* product =
              b.g().callFunction("operator.mul", swapped ? std::vector<ir::Argument>{ds, x}
                                                         : std::vector<ir::Argument>{x, ds});
          ir::Node* last = relu ? b.g().callFunction("torch.relu", {product}) : product;
          ir::Node* y = b.dequantize(b.quantize(last, 0.011f, u8 ? 60 : -3, dtype), 0.011f,
                                     u8 ? 60 : -3, dtype);
          b.g().output(twice ? ir::Argument::tuple({ir::Argument(y), ir::Argument(product)})
                             : ir::Argument(y));
          return std::move(b.gm);
        };
        if (per_axis && scale_shapes[shape].size() != 4) continue;
        auto qdq = make();
        auto lowered = make();
        lower(*lowered);
        int64_t integer = 0;
        for (const ir::Node* node : lowered->graph())
          integer += node->target() == "com.microsoft.QLinearMul";
        CHECK(integer == (twice || per_axis ? 0 : 1));
        Value x = randomFloats({2, 24, 37, 41}, -6.5f, 6.0f, 111);
        Value s = randomFloats(scale_shapes[shape], -0.4f, 1.0f, 112);
        s.f[0] = 0.5f;
        checkAgainstQdq(*qdq, *lowered, {x, s}, 0.011f, 0.0, 0.0);
      }
    }
  }
}

TEST_CASE("quant-lower: a Q moves through concat, permute and reshape onto the 8-bit values") {
  // Q(reshape(permute(cat(DQ(a), DQ(b))))): the Q moves inside (one per cat operand), then
  // Q(DQ(a)) with a's own scale and zero point drops; b's requantizes on 8-bit values. Near
  // misses: the cat read by another node too (stays), a per-channel Q (stays).
  const auto u8 = ir::DType::kUInt8;
  auto make = [&](bool cat_read_twice, bool per_channel) {
    auto b = std::make_unique<Builder>();
    ir::Node* x = b->g().placeholder("x");
    ir::Node* y = b->g().placeholder("y");
    ir::Node* da = b->dequantize(b->quantize(x, 0.03f, 100, u8), 0.03f, 100, u8);
    ir::Node* db = b->dequantize(b->quantize(y, 0.02f, 128, u8), 0.02f, 128, u8);
    ir::Node* cat =
        b->g().callFunction("torch.cat", {da, db}, {{"axis", ir::Argument(int64_t{1})}});
    ir::Node* perm = b->g().callFunction("torch.permute", {cat}, {{"perm", ints({0, 2, 3, 1})}});
    ir::Node* flat =
        b->g().callFunction("torch.reshape", {perm, b->constant(Value::ints({3}, {1, -1, 8}))});
    ir::Node* out;
    if (per_channel) {
      ir::Node* q =
          b->g().callFunction("onnx.QuantizeLinear",
                              {flat, b->constant(randomFloats({8}, 0.02f, 0.04f, 51)),
                               b->constant(Value::ints({8}, std::vector<int64_t>(8, 100), u8))},
                              {{"axis", ir::Argument(int64_t{2})}});
      out = b->g().callFunction("onnx.DequantizeLinear", {q, q->args()[1], q->args()[2]},
                                {{"axis", ir::Argument(int64_t{2})}});
    } else {
      out = b->dequantize(b->quantize(flat, 0.03f, 100, u8), 0.03f, 100, u8);
    }
    if (cat_read_twice) {
      ir::Node* total = b->g().callFunction("torch.sum", {cat});
      out = b->g().callFunction("operator.add", {out, total});
    }
    b->g().output(out);
    return std::move(b->gm);
  };
  std::vector<Value> inputs = {randomFloats({1, 4, 5, 6}, -3, 3, 52),
                               randomFloats({1, 4, 5, 6}, -2.5f, 2.5f, 53)};
  for (auto [twice, per_channel] : {std::pair{false, false}, {true, false}, {false, true}}) {
    CAPTURE(twice);
    CAPTURE(per_channel);
    auto qdq = make(twice, per_channel);
    auto lowered = make(twice, per_channel);
    Lowered counts = lower(*lowered);
    bool moves = !twice && !per_channel;
    CHECK(counts.moved == (moves ? 3 : twice ? 2 : 0));  // read twice: reshape, permute move
    CHECK(counts.requantize == (moves ? 1 : 0));
    int cats_on_int8 = 0;
    for (const ir::Node* node : lowered->graph()) {
      if (node->target() != "torch.cat") continue;
      for (const ir::Argument& arg : node->args())
        cats_on_int8 += arg.isNode() && arg.toNode()->target() != "onnx.DequantizeLinear";
    }
    CHECK(cats_on_int8 == (moves ? 2 : 0));
    // Exact: every lowered graph computes the QDQ graph's values bit for bit.
    checkAgainstQdq(*qdq, *lowered, inputs, 0.03f, 0.0, 0.0);
  }
}

// The trt preset's residual block: Q(relu(conv(DQ(x), DQ(w), b) + DQ(Q(y)))), the convolution's
// result float. `shape` of the addend (a broadcast one is not fused), whether the convolution
// has a second user (nothing fused then), whether a ReLU and a final Q follow.
std::unique_ptr<ir::GraphModule> residualModel(bool relu, bool broadcast, bool shared, bool q,
                                               bool z_per_channel = false) {
  Builder b;
  const auto s8 = ir::DType::kInt8;
  ir::Node* x = b.g().placeholder("x");
  ir::Node* y = b.g().placeholder("y");
  ir::Node* dx = b.dequantize(b.quantize(x, 0.02f, 0, s8), 0.02f, 0, s8);
  Value sw = randomFloats({8}, 0.002f, 0.01f, 42);
  ir::Node* dw =
      b.g().callFunction("onnx.DequantizeLinear",
                         {b.constant(randomInts({8, 4, 3, 3}, s8, -127, 127, 41)), b.constant(sw),
                          b.constant(Value::ints({8}, std::vector<int64_t>(8, 0), s8))},
                         {{"axis", ir::Argument(int64_t{0})}});
  ir::Node* conv = b.g().callFunction(
      "torch.nn.functional.conv2d", {dx, dw, b.constant(randomFloats({8}, -0.5f, 0.5f, 43))},
      {{"kernel_shape", ints({3, 3})}, {"pads", ints({1, 1, 1, 1})}, {"strides", ints({1, 1})}});
  std::vector<std::string> shape = {"2", "8", "10", "10"};
  conv->meta.shape = shape;
  conv->meta.dtype = "float32";
  ir::Node* qy = b.quantize(y, 0.03f, 0, s8);
  ir::Node* dy = z_per_channel ? b.g().callFunction(
                                     "onnx.DequantizeLinear",
                                     {qy, b.constant(randomFloats({8}, 0.02f, 0.04f, 47)),
                                      b.constant(Value::ints({8}, std::vector<int64_t>(8, 0), s8))},
                                     {{"axis", ir::Argument(int64_t{1})}})
                               : b.dequantize(qy, 0.03f, 0, s8);
  dy->meta.shape = broadcast ? std::vector<std::string>{"1", "8", "1", "10"} : shape;
  dy->meta.dtype = "float32";
  ir::Node* value = b.g().callFunction("operator.add", {conv, dy});
  value->meta.shape = shape;
  value->meta.dtype = "float32";
  if (relu) value = b.g().callFunction("torch.relu", {value});
  if (q) value = b.dequantize(b.quantize(value, 0.05f, 0, s8), 0.05f, 0, s8);
  if (shared) value = b.g().callFunction("operator.mul", {value, conv});
  b.g().output(value);
  return std::move(b.gm);
}

TEST_CASE("quant-lower: a convolution whose result stays float, with the residual add and ReLU") {
  std::vector<Value> inputs = {randomFloats({2, 4, 10, 10}, -2.5f, 2.5f, 44),
                               randomFloats({2, 8, 10, 10}, -3.0f, 3.0f, 45)};
  Value broadcast_y = randomFloats({1, 8, 1, 10}, -3.0f, 3.0f, 46);
  // With a Q after the sum and an addend dequantized per tensor: one QLinearConvAct with the
  // 8-bit addend (8-bit result); else QLinearConvToFloat (float result).
  struct Variant {
    const char* what;
    bool relu, broadcast, shared, q, z_per_channel;
    int64_t remaining_adds, remaining_relus, conv_add;
  };
  std::vector<Variant> variants = {
      {"add and relu in an 8-bit convolution, with its Q", true, false, false, true, false, 0, 0,
       1},
      {"add in an 8-bit convolution, no relu, with its Q", false, false, false, true, false, 0, 0,
       1},
      {"addend dequantized per channel: float result, then Q", true, false, false, true, true, 0, 0,
       0},
      {"add and relu fused, float result", true, false, false, false, false, 0, 0, 0},
      {"broadcast addend: the add stays", true, true, false, true, false, 1, 1, 0},
      {"the convolution has another user: nothing fused", true, false, true, false, false, 1, 1, 0},
  };
  for (const Variant& v : variants) {
    std::string what = v.what;
    CAPTURE(what);
    auto qdq = residualModel(v.relu, v.broadcast, v.shared, v.q, v.z_per_channel);
    auto lowered = residualModel(v.relu, v.broadcast, v.shared, v.q, v.z_per_channel);
    Lowered counts = lower(*lowered);
    CHECK(counts.conv_to_float == 1 - v.conv_add);
    CHECK(counts.conv_add == v.conv_add);
    int64_t eight_bit = 0;
    for (const ir::Node* node : lowered->graph())
      eight_bit += node->target() == "fxc.QLinearConvAct";
    CHECK(eight_bit == v.conv_add);
    int64_t adds = 0, relus = 0, convs = 0;
    for (const ir::Node* node : lowered->graph()) {
      adds += node->target() == "operator.add";
      relus += node->target() == "torch.relu";
      convs += node->target() == "torch.nn.functional.conv2d";
    }
    CHECK(convs == 0);
    CHECK(adds == v.remaining_adds);
    CHECK(relus == v.remaining_relus);
    std::vector<Value> in = inputs;
    if (v.broadcast) in[1] = broadcast_y;
    // With a final Q: within one step of 0.05 on rounding ties; float: rounding only (the
    // outputs are of order 10, or 100 where multiplied by the convolution).
    if (v.q)
      checkAgainstQdq(*qdq, *lowered, in, 0.05f);
    else
      checkAgainstQdq(*qdq, *lowered, in, v.shared ? 1e-4f : 2e-5f, 1.0, 1.0);
  }
}

TEST_CASE("MatMulIntegerToFloat: oneDNN's int8 matmul with a float result equals the exact one") {
  struct Case {
    std::vector<int64_t> a_shape;
    int64_t n;
    ir::DType a_type;
    int64_t a_zp;
    bool per_column, bias;
  };
  const auto u8 = ir::DType::kUInt8, s8 = ir::DType::kInt8;
  std::vector<Case> cases = {
      {{1, 1280}, 1000, u8, 0, true, true},   // a classifier at batch 1
      {{8, 512}, 100, u8, 131, true, true},   // batch 8, zero point
      {{2, 7, 64}, 48, s8, -5, false, true},  // a transformer's Linear: A of rank 3
      {{3, 33}, 17, s8, 0, true, false},      // odd sizes, no bias
  };
  for (const Case& c : cases) {
    CAPTURE(c.n);
    Builder b;
    int64_t k = c.a_shape.back();
    Value sw = randomFloats({c.per_column ? c.n : 1}, 0.001f, 0.01f, 52);
    if (!c.per_column) sw.shape.clear();
    std::vector<ir::Argument> args = {
        b.g().placeholder("a"),
        b.constant(randomInts({k, c.n}, s8, -127, 127, 51)),
        b.scale(0.02f),
        b.constant(sw),
        b.zeroPoint(c.a_zp, c.a_type),
        b.constant(Value::ints(sw.shape, std::vector<int64_t>(sw.f.size(), 0), s8))};
    if (c.bias) args.emplace_back(b.constant(randomFloats({c.n}, -2, 2, 53)));
    b.g().output(b.g().callFunction("com.microsoft.MatMulIntegerToFloat", std::move(args)));
    bool is_u8 = c.a_type == u8;
    std::vector<Value> inputs = {
        randomInts(c.a_shape, c.a_type, is_u8 ? 0 : -128, is_u8 ? 255 : 127, 54)};
    Value want = run(*b.gm, Backend::kReference, inputs)[0];
    Value got = run(*b.gm, Backend::kCpu, inputs)[0];
    REQUIRE(got.shape == want.shape);
    REQUIRE(got.isFloat());
    CHECK(got.shape.back() == c.n);
    float range = 0;
    for (float v : want.f) range = std::max(range, std::fabs(v));
    REQUIRE(range > 0.5f);
    for (size_t e = 0; e < want.f.size(); ++e)
      CHECK(std::fabs(got.f[e] - want.f[e]) <= 2e-6f * range);
  }
}

namespace {

// x → Q → DQ → Gemm(DQ(w), c) or DQ(x) @ DQ(w) [+ c]: a quantized Linear whose result stays float.
std::unique_ptr<ir::GraphModule> linearModel(bool gemm, bool trans_b, bool per_column,
                                             std::vector<int64_t> x_shape, float alpha = 1.0f) {
  Builder b;
  const auto s8 = ir::DType::kInt8, u8 = ir::DType::kUInt8;
  int64_t k = x_shape.back(), n = 24;
  ir::Node* x = b.g().placeholder("x");
  ir::Node* dx = b.dequantize(b.quantize(x, 0.015f, 120, u8), 0.015f, 120, u8);
  std::vector<int64_t> w_shape = trans_b ? std::vector<int64_t>{n, k} : std::vector<int64_t>{k, n};
  Value sw = randomFloats({per_column ? n : 1}, 0.002f, 0.01f, 62);
  if (!per_column) sw.shape.clear();
  ir::Node* dw = b.g().callFunction(
      "onnx.DequantizeLinear",
      {b.constant(randomInts(w_shape, s8, -127, 127, 61)), b.constant(sw),
       b.constant(Value::ints(sw.shape, std::vector<int64_t>(sw.f.size(), 0), s8))},
      {{"axis", ir::Argument(int64_t{trans_b ? 0 : 1})}});
  ir::Node* bias = b.constant(randomFloats({n}, -0.5f, 0.5f, 63));
  ir::Node* y;
  if (gemm) {
    y = b.g().callFunction("onnx.Gemm", {dx, dw, bias},
                           {{"alpha", ir::Argument(static_cast<double>(alpha))},
                            {"beta", ir::Argument(1.0)},
                            {"transB", ir::Argument(int64_t{trans_b ? 1 : 0})}});
  } else {
    y = b.g().callFunction("operator.add", {b.g().callFunction("operator.matmul", {dx, dw}), bias});
  }
  b.g().output(y);
  return std::move(b.gm);
}

}  // namespace

TEST_CASE("quant-lower: a Gemm or MatMul whose result stays float becomes MatMulIntegerToFloat") {
  struct Variant {
    const char* what;
    bool gemm, trans_b, per_column;
    std::vector<int64_t> x_shape;
    float alpha;
    int64_t lowered;
  };
  std::vector<Variant> variants = {
      {"Gemm transB=1 (torch's Linear), per column", true, true, true, {3, 40}, 1.0f, 1},
      {"Gemm transB=0, per tensor", true, false, false, {3, 40}, 1.0f, 1},
      {"MatMul + bias, rank 3", false, false, true, {2, 5, 40}, 1.0f, 1},
      {"MatMul + bias, a 1-D input (numpy's row)", false, false, true, {40}, 1.0f, 1},
      {"Gemm alpha=0.5: refused", true, true, true, {3, 40}, 0.5f, 0},
  };
  for (const Variant& v : variants) {
    std::string what = v.what;
    CAPTURE(what);
    auto qdq = linearModel(v.gemm, v.trans_b, v.per_column, v.x_shape, v.alpha);
    auto lowered = linearModel(v.gemm, v.trans_b, v.per_column, v.x_shape, v.alpha);
    const auto* pass = fxc::passes::Registry::instance().find("quant-lower");
    auto result = pass->run(*lowered, {});
    REQUIRE(result);
    CHECK(ir::lintGraph(lowered->graph(), lowered.get()).empty());
    int64_t lowered_count = 0, left = 0;
    for (const auto& [key, count] : result.value().counts)
      if (key == "matmul to float") lowered_count = count;
    for (const ir::Node* node : lowered->graph())
      left += node->target() == "onnx.Gemm" || node->target() == "operator.matmul" ||
              node->target() == "operator.add";
    CHECK(lowered_count == v.lowered);
    CHECK(left == (v.lowered ? 0 : 1));
    std::vector<Value> inputs = {randomFloats(v.x_shape, -1.8f, 2.0f, 64)};
    // Float rounding only (outputs of order 1).
    checkAgainstQdq(*qdq, *lowered, inputs, 1e-5f, 1.0, 1.0);
  }
}

namespace {

// A BatchNorm2d module over `channels` with random statistics; `training` sets training_mode.
ir::Node* batchNorm(Builder& b, ir::Node* x, int64_t channels, bool training, uint32_t seed) {
  std::string path = "bn" + std::to_string(b.constants++);
  ir::Module* bn = b.gm->addModule(path, "BatchNorm2d");
  bn->setTensor("weight", fxc::exec::toTensor(randomFloats({channels}, 0.5f, 2.0f, seed)));
  bn->setTensor("bias", fxc::exec::toTensor(randomFloats({channels}, -1.0f, 1.0f, seed + 1)));
  bn->setTensor("running_mean",
                fxc::exec::toTensor(randomFloats({channels}, -0.5f, 0.5f, seed + 2)));
  bn->setTensor("running_var", fxc::exec::toTensor(randomFloats({channels}, 0.2f, 3.0f, seed + 3)));
  bn->setAttribute("epsilon", ir::Argument(1e-5));
  if (training) bn->setAttribute("training_mode", ir::Argument(int64_t{1}));
  return b.g().callModule(path, {x});
}

ir::Node* module(Builder& b, const std::string& type, ir::Node* x) {
  std::string path = "m" + std::to_string(b.constants++);
  b.gm->addModule(path, type);
  return b.g().callModule(path, {x});
}

std::vector<std::string> dims(const std::vector<int64_t>& shape) {
  std::vector<std::string> out;
  for (int64_t d : shape) out.push_back(std::to_string(d));
  return out;
}

}  // namespace

TEST_CASE("quant-lower: Q(f(DQ(x))) for an elementwise f becomes a lookup table, bit for bit") {
  // x → Q → DQ → f → Q(0.04, zy) → DQ → output. Lowered, f and the Qs around it are one
  // fxc.QLinearLookup whose table the pass computes with f's own ops: the lowered graph equals
  // the QDQ graph as written (reference kernels, float), every element. The near misses keep f.
  const std::vector<int64_t> shape = {2, 5, 4, 6};
  struct Variant {
    const char* what;
    std::function<ir::Node*(Builder&, ir::Node*)> f;
    bool lowers;
    int64_t rows;  // the table's: 1 per tensor, else the extent of the axis
  };
  auto c = [](Builder& b, std::vector<int64_t> s, float lo, float hi, uint32_t seed) {
    return b.constant(randomFloats(std::move(s), lo, hi, seed));
  };
  std::vector<Variant> variants = {
      {"BatchNorm2d then ReLU (DenseNet)",
       [](Builder& b, ir::Node* v) { return module(b, "ReLU", batchNorm(b, v, 5, false, 71)); },
       true, 5},
      {"Hardswish", [](Builder& b, ir::Node* v) { return module(b, "Hardswish", v); }, true, 1},
      {"x * sigmoid(x), two paths from the input",
       [](Builder& b, ir::Node* v) {
         return b.g().callFunction("operator.mul", {v, b.g().callFunction("torch.sigmoid", {v})});
       },
       true, 1},
      {"per-channel affine by broadcast constants, then clamp",
       [&](Builder& b, ir::Node* v) {
         ir::Node* m = b.g().callFunction("operator.mul", {v, c(b, {5, 1, 1}, 0.5f, 2, 72)});
         ir::Node* a = b.g().callFunction("operator.add", {c(b, {1, 5, 1, 1}, -1, 1, 73), m});
         return b.g().callFunction("torch.clamp", {a, b.scale(-1.5f), b.scale(2.5f)});
       },
       true, 5},
      {"a constant varying along the rows (axis -2)",
       [&](Builder& b, ir::Node* v) {
         return b.g().callFunction("operator.sub", {v, c(b, {4, 1}, -1, 1, 74)});
       },
       true, 4},
      {"no op: a requantization", [](Builder&, ir::Node* v) { return v; }, true, 1},
      {"near miss: BatchNorm in training mode",
       [](Builder& b, ir::Node* v) { return batchNorm(b, v, 5, true, 75); }, false, 0},
      {"near miss: a constant varying along two axes",
       [&](Builder& b, ir::Node* v) {
         return b.g().callFunction("operator.mul", {v, c(b, {5, 1, 6}, 0.5f, 2, 76)});
       },
       false, 0},
      {"near miss: a constant that broadcasts the value to a larger shape",
       [&](Builder& b, ir::Node* v) {
         return b.g().callFunction("operator.add", {v, c(b, {3, 1, 1, 1, 1}, -1, 1, 77)});
       },
       false, 0},
      {"near miss: a softmax inside",
       [](Builder& b, ir::Node* v) {
         ir::Node* s =
             b.g().callFunction("torch.softmax", {v}, {{"dim", ir::Argument(int64_t{1})}});
         return b.g().callFunction("torch.relu", {s});
       },
       false, 0},
  };
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    bool u8 = dtype == ir::DType::kUInt8;
    for (const Variant& v : variants) {
      std::string what = v.what;
      CAPTURE(what);
      CAPTURE(u8);
      auto make = [&](bool read_elsewhere) {
        Builder b;
        ir::Node* x = b.g().placeholder("x");
        ir::Node* d =
            b.dequantize(b.quantize(x, 0.05f, u8 ? 128 : 0, dtype), 0.05f, u8 ? 128 : 0, dtype);
        d->meta.shape = dims(shape);
        ir::Node* f = v.f(b, d);
        ir::Node* y =
            b.dequantize(b.quantize(f, 0.04f, u8 ? 60 : -20, dtype), 0.04f, u8 ? 60 : -20, dtype);
        if (read_elsewhere) {  // f's result read by more than the Q: f stays
          b.g().output(ir::Argument::tuple({ir::Argument(y), ir::Argument(f)}));
        } else {
          b.g().output(y);
        }
        return std::move(b.gm);
      };
      // Inputs on every 8-bit value and past both ends of the range.
      Value input = randomFloats(shape, u8 ? -6.5f : -6.5f, u8 ? 6.5f : 6.5f, 78);
      for (bool elsewhere : {false, true}) {
        if (elsewhere && (!v.lowers || what.rfind("no op", 0) == 0)) continue;
        CAPTURE(elsewhere);
        auto qdq = make(elsewhere);
        auto lowered = make(elsewhere);
        int64_t lookups = lower(*lowered).lookup, tables = 0;
        bool affine = false;  // the table's rows integer affine maps: the kernel's vector path
        for (const ir::Node* node : lowered->graph()) {
          if (node->target() != "fxc.QLinearLookup") continue;
          auto tensor = lowered->findTensor(node->args()[1].toNode()->target());
          tables = tensor->numel() / 256;
          affine = fxc::exec::affineRows(fxc::exec::fromTensor(*tensor).i,
                                         static_cast<size_t>(tables), u8 ? 0 : -128)
                       .has_value();
        }
        bool lowers = v.lowers && !elsewhere;
        CHECK(lookups == (lowers ? 1 : 0));
        if (lowers) CHECK(tables == v.rows);
        // A BatchNorm and ReLU's table takes the affine path, so the comparison below covers it.
        if (lowers && what.rfind("BatchNorm2d then ReLU", 0) == 0) CHECK(affine);
        std::vector<Value> inputs = {input};
        Value want = run(*qdq, Backend::kReference, inputs)[0];
        for (Backend backend : {Backend::kReference, Backend::kCpu}) {
          Value got = run(*lowered, backend, inputs)[0];
          CHECK(got.shape == want.shape);
          CHECK(got.f == want.f);
        }
      }
    }
  }
}

TEST_CASE("quant-lower: a BatchNorm after a concatenation of dequantized values is one lookup") {
  // DenseNet's block: cat(DQ(a), DQ(b)) → BatchNorm → ReLU → Q becomes the concatenation of the
  // 8-bit a and b, then a table of one row per channel, each row with its operand's scale.
  const auto u8 = ir::DType::kUInt8;
  auto make = [&](bool cat_read_twice) {
    auto b = std::make_unique<Builder>();
    ir::Node* da =
        b->dequantize(b->quantize(b->g().placeholder("a"), 0.03f, 100, u8), 0.03f, 100, u8);
    ir::Node* db =
        b->dequantize(b->quantize(b->g().placeholder("b"), 0.02f, 128, u8), 0.02f, 128, u8);
    da->meta.shape = dims({1, 3, 5, 6});
    db->meta.shape = dims({1, 4, 5, 6});
    ir::Node* cat =
        b->g().callFunction("torch.cat", {da, db}, {{"axis", ir::Argument(int64_t{1})}});
    cat->meta.shape = dims({1, 7, 5, 6});
    ir::Node* f = module(*b, "ReLU", batchNorm(*b, cat, 7, false, 81));
    ir::Node* y = b->dequantize(b->quantize(f, 0.05f, 0, u8), 0.05f, 0, u8);
    if (cat_read_twice) y = b->g().callFunction("operator.add", {y, cat});
    b->g().output(y);
    return std::move(b->gm);
  };
  std::vector<Value> inputs = {randomFloats({1, 3, 5, 6}, -3.5f, 4, 82),
                               randomFloats({1, 4, 5, 6}, -3, 3, 83)};
  for (bool twice : {false, true}) {
    CAPTURE(twice);
    auto qdq = make(twice);
    auto lowered = make(twice);
    lower(*lowered);
    int64_t lookups = 0, int8_cats = 0;
    for (const ir::Node* node : lowered->graph()) {
      lookups += node->target() == "fxc.QLinearLookup";
      int8_cats += node->target() == "torch.cat" &&
                   node->args()[0].toNode()->target() != "onnx.DequantizeLinear";
    }
    CHECK(lookups == (twice ? 0 : 1));
    CHECK(int8_cats == (twice ? 0 : 1));
    checkAgainstQdq(*qdq, *lowered, inputs, 0.05f, 0.0, 0.0);
  }
}

TEST_CASE("quant-lower: a BatchNorm's table is its formula's, x - mean first, in every run") {
  // DQ(int8, scale 10⁴) → BatchNorm → Q(0.01): the formula (x − mean) / √(var + ε) · γ + β in
  // double, computed here, against the lowered graph (the table quant-lower computes with the
  // reference BatchNorm) and the graph as written on both backends. Channel 0 and 1: a mean of
  // about 10⁶ that inputs of 10⁶ sit near (folded as x·a + (β − mean·a) in float, the result was
  // three output steps off); channel 2: γ = +∞ and a mean off the input grid (±∞ for every
  // element; the fold gave 0·∞ = NaN).
  const std::vector<float> gamma = {1.0f, 2.0f, std::numeric_limits<float>::infinity()},
                           beta = {0.0f, 0.1f, 0.0f}, mean = {1000000.375f, 999999.8125f, 5000.0f},
                           var = {1.0f, 1.0f, 1.0f};
  const float eps = 1e-5f, sx = 10000.0f, sy = 0.01f;
  const std::vector<int64_t> shape = {1, 3, 4, 6};
  auto make = [&] {
    Builder b;
    ir::Node* x = b.g().placeholder("x");
    ir::Node* d = b.dequantize(b.quantize(x, sx, 0, ir::DType::kInt8), sx, 0, ir::DType::kInt8);
    d->meta.shape = dims(shape);
    ir::Module* bn = b.gm->addModule("bn", "BatchNorm2d");
    bn->setTensor("weight", fxc::exec::toTensor(Value::floats({3}, gamma)));
    bn->setTensor("bias", fxc::exec::toTensor(Value::floats({3}, beta)));
    bn->setTensor("running_mean", fxc::exec::toTensor(Value::floats({3}, mean)));
    bn->setTensor("running_var", fxc::exec::toTensor(Value::floats({3}, var)));
    bn->setAttribute("epsilon", ir::Argument(static_cast<double>(eps)));
    ir::Node* f = b.g().callModule("bn", {d});
    b.g().output(b.dequantize(b.quantize(f, sy, 0, ir::DType::kInt8), sy, 0, ir::DType::kInt8));
    return std::move(b.gm);
  };
  // Every fourth input at 10⁶ (q = 100, next to channels 0 and 1's means), the rest spread.
  Value input = randomFloats(shape, -1.2e6f, 1.2e6f, 84);
  for (size_t k = 0; k < input.f.size(); k += 4) input.f[k] = 1e6f;
  std::vector<float> want(input.f.size());
  for (size_t k = 0; k < input.f.size(); ++k) {
    size_t ch = k / 24;
    double q = std::clamp(std::nearbyint(static_cast<double>(input.f[k]) / sx), -128.0, 127.0);
    double y =
        (q * sx - mean[ch]) / std::sqrt(static_cast<double>(var[ch]) + eps) * gamma[ch] + beta[ch];
    want[k] = static_cast<float>(std::clamp(std::nearbyint(y / sy), -128.0, 127.0) * sy);
  }
  auto qdq = make();
  auto lowered = make();
  CHECK(lower(*lowered).lookup == 1);
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    CAPTURE(static_cast<int>(backend));
    for (const ir::GraphModule* gm : {qdq.get(), lowered.get()}) {
      Value got = run(*gm, backend, {input})[0];
      REQUIRE(got.f.size() == want.size());
      for (size_t k = 0; k < want.size(); ++k) {
        CAPTURE(k);
        CHECK(got.f[k] == doctest::Approx(want[k]).epsilon(1e-6));
      }
    }
  }
}

TEST_CASE("8-bit lookup on oneDNN: plain and channels-last layouts equal the reference") {
  // Q(x) → [max pool: its 8-bit result channels-last] → fxc.QLinearLookup with one row, or one
  // per channel; a shape large enough to run in blocks on the thread pool, starting mid-row.
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    for (bool pooled : {false, true}) {
      for (int64_t rows : {1, 24}) {
        CAPTURE(static_cast<int>(dtype));
        CAPTURE(pooled);
        CAPTURE(rows);
        Builder b;
        ir::Node* v = b.quantize(b.g().placeholder("x"), 0.05f, 3, dtype);
        if (pooled)
          v = b.g().callFunction("torch.nn.functional.max_pool2d", {v},
                                 {{"kernel_shape", ints({3, 3})},
                                  {"strides", ints({1, 1})},
                                  {"pads", ints({1, 1, 1, 1})}});
        ir::Node* table = b.constant(randomInts({rows * 256}, ir::DType::kInt8, -128, 127, 91));
        ir::Kwargs kwargs;
        if (rows > 1) kwargs.emplace_back("axis", ir::Argument(int64_t{-3}));
        b.g().output(b.g().callFunction("fxc.QLinearLookup", {v, table}, kwargs));
        std::vector<Value> inputs = {randomFloats({2, 24, 37, 41}, -7, 7, 92)};
        auto want = run(*b.gm, Backend::kReference, inputs);
        auto got = run(*b.gm, Backend::kCpu, inputs);
        CHECK(got[0].dtype == ir::DType::kInt8);
        CHECK(got[0].i == want[0].i);
      }
    }
  }
  // The fast kernel takes a native 8-bit value (a Q's), and says a table of the wrong size.
  Builder b;
  ir::Node* q = b.quantize(b.g().placeholder("x"), 0.05f, 3, ir::DType::kUInt8);
  b.g().output(b.g().callFunction(
      "fxc.QLinearLookup", {q, b.constant(randomInts({3 * 256}, ir::DType::kUInt8, 0, 255, 93))},
      {{"axis", ir::Argument(int64_t{1})}}));
  Interpreter interpreter(*b.gm, Backend::kCpu);
  auto wrong = interpreter.run({randomFloats({1, 4, 2, 2}, -1, 1, 94)});
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().find("3 rows for 4 indices") != std::string::npos);
}

TEST_CASE("lookup tables as integer affine maps: exact where a row is one, refused elsewhere") {
  // Rows clamp(round(α·v + β), lo, hi) over the 8-bit values v — what a BatchNorm and ReLU
  // between DequantizeLinear and QuantizeLinear give — rising and falling, shallow and steep,
  // constant; each must come back as a map equal to it on all 256 values, and the kernel on
  // oneDNN's layouts (plain, channels-last) must give the reference's bytes. Near misses — one
  // entry off by one, a row that is not monotone (a GELU's dip), a slope past 64 — keep the
  // table (the same bytes either way).
  std::mt19937 rng(95);
  std::uniform_real_distribution<double> slope(0.05, 3.0), offset(-200, 200);
  auto row = [&](int64_t first, double alpha, double beta, int64_t lo, int64_t hi) {
    std::vector<int64_t> t(256);
    for (int64_t k = 0; k < 256; ++k)
      t[k] = std::clamp<int64_t>(static_cast<int64_t>(std::nearbyint(alpha * (first + k) + beta)),
                                 lo, hi);
    return t;
  };
  for (int64_t first : {int64_t{0}, int64_t{-128}}) {
    CAPTURE(first);
    int64_t lo = first, hi = first + 255;
    std::vector<int64_t> table;
    for (int r = 0; r < 24; ++r) {
      double alpha = slope(rng) * (r % 3 == 1 ? -1 : 1);
      std::vector<int64_t> t = r == 5   ? row(first, 0, 17.0, lo, hi)  // constant
                               : r == 7 ? row(first, 40.0, -40.0 * (first + 100), lo, hi)
                               : r % 4 == 0
                                   ? row(first, alpha, offset(rng), first + 30, hi)  // ReLU
                                   : row(first, alpha, offset(rng), lo, hi);
      table.insert(table.end(), t.begin(), t.end());
    }
    auto fitted = fxc::exec::affineRows(table, 24, first);
    REQUIRE(fitted);
    for (size_t r = 0; r < 24; ++r) {
      for (int64_t k = 0; k < 256; ++k) {
        int64_t v = first + k;
        int64_t got =
            std::clamp<int64_t>((static_cast<int64_t>(fitted->a[r]) * v + fitted->b[r]) >> 16,
                                fitted->lo[r], fitted->hi[r]);
        REQUIRE(got == table[r * 256 + static_cast<size_t>(k)]);
      }
    }
    // Near misses: each refused.
    std::vector<int64_t> off = table;
    off[3 * 256 + 140] += off[3 * 256 + 140] < hi ? 1 : -1;
    CHECK_FALSE(fxc::exec::affineRows(off, 24, first));
    std::vector<int64_t> dip = row(first, 0.5, 0, lo, hi);
    dip[20] = dip[21] + 1;
    CHECK_FALSE(fxc::exec::affineRows(dip, 1, first));
    CHECK_FALSE(fxc::exec::affineRows(row(first, 70.0, -70.0 * (first + 128), lo, hi), 1, first));
    CHECK(fxc::exec::affineRows(row(first, 60.0, -60.0 * (first + 128), lo, hi), 1, first));
    // The kernel, affine and not, against the reference: channels-last (after a max pool) and
    // plain; one row and 24.
    ir::DType dtype = first < 0 ? ir::DType::kInt8 : ir::DType::kUInt8;
    for (bool near_miss : {false, true}) {
      for (bool pooled : {false, true}) {
        for (int64_t rows : {1, 24}) {
          CAPTURE(near_miss);
          CAPTURE(pooled);
          CAPTURE(rows);
          std::vector<int64_t> t(near_miss ? off.begin() : table.begin(),
                                 (near_miss ? off.begin() : table.begin()) + rows * 256);
          if (near_miss && rows == 1) t[140] += t[140] < hi ? 1 : -1;
          Builder b;
          ir::Node* v = b.quantize(b.g().placeholder("x"), 0.05f, first < 0 ? 3 : 128, dtype);
          if (pooled)
            v = b.g().callFunction("torch.nn.functional.max_pool2d", {v},
                                   {{"kernel_shape", ints({3, 3})},
                                    {"strides", ints({1, 1})},
                                    {"pads", ints({1, 1, 1, 1})}});
          ir::Node* table_node = b.constant(Value::ints({rows * 256}, t, dtype));
          ir::Kwargs kwargs;
          if (rows > 1) kwargs.emplace_back("axis", ir::Argument(int64_t{1}));
          b.g().output(b.g().callFunction("fxc.QLinearLookup", {v, table_node}, kwargs));
          CHECK(fxc::exec::affineRows(t, static_cast<size_t>(rows), first).has_value() ==
                !near_miss);
          std::vector<Value> inputs = {randomFloats({2, 24, 37, 41}, -7, 7, 96)};
          auto want = run(*b.gm, Backend::kReference, inputs);
          auto got = run(*b.gm, Backend::kCpu, inputs);
          CHECK(got[0].i == want[0].i);
        }
      }
    }
  }
}

TEST_CASE("quant-lower: Q(GlobalAveragePool(DQ(x))) on integers, within one output step") {
  // Lowered to com.microsoft.QLinearGlobalAveragePool: an exact integer sum per plane. Against
  // the QDQ graph as written (float mean of the dequantized values) within one step of the
  // output (a result on a rounding tie); on oneDNN's layouts (plain, and channels-last after a
  // max pool) equal to the reference kernel. Near misses: the pool read twice, another output
  // type.
  for (ir::DType dtype : {ir::DType::kUInt8, ir::DType::kInt8}) {
    for (int variant = 0; variant < 4; ++variant) {
      bool pooled = variant == 1, twice = variant == 2, other_type = variant == 3;
      CAPTURE(static_cast<int>(dtype));
      CAPTURE(variant);
      bool u8 = dtype == ir::DType::kUInt8;
      auto make = [&] {
        Builder b;
        ir::Node* v = b.quantize(b.g().placeholder("x"), 0.05f, u8 ? 100 : -7, dtype);
        if (pooled)
          v = b.g().callFunction("torch.nn.functional.max_pool2d", {v},
                                 {{"kernel_shape", ints({3, 3})},
                                  {"strides", ints({1, 1})},
                                  {"pads", ints({1, 1, 1, 1})}});
        ir::Node* d = b.dequantize(v, 0.05f, u8 ? 100 : -7, dtype);
        ir::Node* mean = b.g().callFunction("torch.nn.functional.adaptive_avg_pool2d", {d});
        ir::DType y_type = other_type ? (u8 ? ir::DType::kInt8 : ir::DType::kUInt8) : dtype;
        bool y_u8 = y_type == ir::DType::kUInt8;
        ir::Node* y = b.dequantize(b.quantize(mean, 0.006f, y_u8 ? 20 : -100, y_type), 0.006f,
                                   y_u8 ? 20 : -100, y_type);
        b.g().output(twice ? ir::Argument::tuple({ir::Argument(y), ir::Argument(mean)})
                           : ir::Argument(y));
        return std::move(b.gm);
      };
      auto qdq = make();
      auto lowered = make();
      lower(*lowered);
      int64_t integer = 0;
      for (const ir::Node* node : lowered->graph())
        integer += node->target() == "com.microsoft.QLinearGlobalAveragePool";
      CHECK(integer == (twice || other_type ? 0 : 1));
      // Means spread over several output steps, unsaturated.
      std::vector<Value> inputs = {randomFloats({2, 24, 13, 11}, -0.6f, 0.8f, 101)};
      Value want = run(*qdq, Backend::kReference, inputs)[0];
      Value reference = run(*lowered, Backend::kReference, inputs)[0];
      Value fast = run(*lowered, Backend::kCpu, inputs)[0];
      CHECK(fast.f == reference.f);
      REQUIRE(reference.shape == want.shape);
      size_t off = 0;
      std::vector<float> distinct;
      for (size_t k = 0; k < want.f.size(); ++k) {
        CHECK(std::fabs(reference.f[k] - want.f[k]) <= 0.006f * 1.0001f);
        off += reference.f[k] != want.f[k];
        if (std::find(distinct.begin(), distinct.end(), want.f[k]) == distinct.end())
          distinct.push_back(want.f[k]);
      }
      CHECK(off <= want.f.size() / 50);
      CHECK(distinct.size() >= 5);  // the means spread over steps, not saturated
    }
  }
}
