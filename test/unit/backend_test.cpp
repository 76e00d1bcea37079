// The fast CPU kernels (oneDNN) against the reference kernels, over a table of shapes: every
// case is a one-node graph run by both backends on the same seeded data.
#include "exec/cudnn/backend.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <tuple>

#include "exec/interpreter.h"
#include "ir/graph_module.h"
#include "ir/lint.h"
#include "onnx/export.h"
#include "onnx/load.h"
#include "onnx/trace.h"
#include "passes/registry.h"
#include "test_models.h"

using fxc::exec::Backend;
using fxc::exec::Interpreter;
using fxc::exec::Value;
namespace ir = fxc::ir;

namespace {

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> out(n);
  for (float& v : out) v = normal(rng);
  return out;
}

std::shared_ptr<ir::Tensor> tensor(std::vector<int64_t> dims, uint32_t seed) {
  auto t = std::make_shared<ir::Tensor>();
  t->dtype = ir::DType::kFloat32;
  t->dims = std::move(dims);
  std::vector<float> data = randomFloats(static_cast<size_t>(t->numel()), seed);
  t->setBytes(std::string(reinterpret_cast<const char*>(data.data()), data.size() * 4));
  return t;
}

ir::Argument ints(std::vector<int64_t> values) {
  std::vector<ir::Argument> items(values.begin(), values.end());
  return ir::Argument::list(std::move(items));
}

// x → module `type` (tensors and attributes given) → output.
std::unique_ptr<ir::GraphModule> oneModule(
    const std::string& type, std::vector<std::pair<std::string, std::vector<int64_t>>> tensors,
    ir::Kwargs attributes, size_t inputs = 1) {
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Module* module = gm->addModule("m", type);
  uint32_t seed = 100;
  for (auto& [name, dims] : tensors) module->setTensor(name, tensor(dims, seed++));
  module->attributes() = std::move(attributes);
  std::vector<ir::Argument> args;
  for (size_t k = 0; k < inputs; ++k)
    args.emplace_back(gm->graph().placeholder("x" + std::to_string(k)));
  gm->graph().output(gm->graph().callModule("m", std::move(args)));
  gm->opset = 17;
  return gm;
}

Value input(std::vector<int64_t> shape, uint32_t seed) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return Value::floats(std::move(shape), randomFloats(n, seed));
}

// max |fast - reference| / max(1, max |reference|); infinite where one holds a NaN the other
// does not hold in that place (std::max skips a NaN difference: such a case passed unseen).
double normalizedError(const Value& fast, const Value& reference) {
  REQUIRE(fast.shape == reference.shape);
  REQUIRE(fast.f.size() == reference.f.size());
  double diff = 0, scale = 1;
  for (size_t k = 0; k < fast.f.size(); ++k) {
    if (std::isnan(fast.f[k]) || std::isnan(reference.f[k])) {
      if (std::isnan(fast.f[k]) != std::isnan(reference.f[k]))
        return std::numeric_limits<double>::infinity();
      continue;
    }
    diff = std::max(diff, static_cast<double>(std::fabs(fast.f[k] - reference.f[k])));
    scale = std::max(scale, static_cast<double>(std::fabs(reference.f[k])));
  }
  return diff / scale;
}

// Whether the GPU backend can be tested here (once; the reason is reported by its own test).
bool gpuUsable() {
  static const bool usable = fxc::exec::cudnn::deviceUsable(nullptr);
  return usable;
}

// Runs the reference kernels, then the CPU backend (oneDNN) and, where a CUDA device is usable,
// the cuDNN backend, each twice (their plans are reused the second time).
void checkBackendsAgree(const ir::GraphModule& gm, std::vector<Value> inputs) {
  Interpreter reference(gm, Backend::kReference);
  auto want = reference.run(inputs);
  REQUIRE_MESSAGE(want, (want ? "" : want.error()));
  std::vector<std::pair<Backend, double>> backends = {{Backend::kCpu, 1e-5}};
  if (gpuUsable()) backends.emplace_back(Backend::kCudnn, 1e-4);
  for (auto [backend, tolerance] : backends) {
    Interpreter fast(gm, backend);
    for (int run = 0; run < 2; ++run) {
      auto got = fast.run(inputs);
      REQUIRE_MESSAGE(got, (got ? "" : got.error()));
      for (size_t k = 0; k < want.value().size(); ++k)
        CHECK(normalizedError(got.value()[k], want.value()[k]) < tolerance);
    }
  }
}

// The module exported to ONNX and traced again without recognition (every op as written).
std::unique_ptr<ir::GraphModule> exportAndReadBack(const ir::GraphModule& gm) {
  auto exported = fxc::onnx::exportModel(gm);
  REQUIRE_MESSAGE(exported.ok(), exported.error());
  exported.value().materialize();
  std::string bytes;
  REQUIRE(exported.value().proto->SerializeToString(&bytes));
  auto loaded = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
  REQUIRE_MESSAGE(loaded.ok(), loaded.error());
  fxc::onnx::TraceOptions options;
  options.recognize = false;
  auto again = fxc::onnx::trace(loaded.take(), options);
  REQUIRE_MESSAGE(again.ok(), again.error());
  return again.take();
}

// The graph's outputs on one backend.
std::vector<Value> runOn(const ir::GraphModule& gm, const std::vector<Value>& inputs,
                         Backend backend) {
  auto ran = Interpreter(gm, backend).run(inputs);
  REQUIRE_MESSAGE(ran.ok(), ran.error());
  return ran.take();
}

// The graph's outputs on the reference kernels, then on the CPU backend.
std::vector<std::vector<Value>> runOnBoth(const ir::GraphModule& gm,
                                          const std::vector<Value>& inputs) {
  return {runOn(gm, inputs, Backend::kReference), runOn(gm, inputs, Backend::kCpu)};
}

// Every output the same shape and the same bits (a NaN equals a NaN of the same bits; -0 is not
// +0).
void checkSameBits(const std::vector<Value>& got, const std::vector<Value>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t o = 0; o < want.size(); ++o) {
    CAPTURE(o);
    REQUIRE(got[o].shape == want[o].shape);
    REQUIRE(got[o].f.size() == want[o].f.size());
    CHECK(std::memcmp(got[o].f.data(), want[o].f.data(), want[o].f.size() * sizeof(float)) == 0);
  }
}

// A pass's near-miss table: a default case, changed as `what` says.
template <class Case>
Case variant(const char* what, const std::function<void(Case&)>& change) {
  Case k;
  k.what = what;
  change(k);
  return k;
}

}  // namespace

TEST_CASE("convolution: oneDNN equals the reference over strides, pads, groups, dilations") {
  // ConvTranspose2d too (oneDNN's deconvolution): W [C_in, C_out / group, kh, kw], `out_pad`
  // its output_padding.
  struct Case {
    int64_t n, cin, h, w, cout, kh, kw, stride, dilation, group;
    std::vector<int64_t> pads;
    bool bias;
    bool transposed = false;
    int64_t out_pad = 0;
  };
  std::vector<Case> cases = {
      {1, 3, 17, 19, 8, 3, 3, 1, 1, 1, {1, 1, 1, 1}, true},
      {2, 3, 32, 32, 16, 7, 7, 2, 1, 1, {3, 3, 3, 3}, true},          // a stem
      {1, 16, 9, 9, 16, 3, 3, 1, 1, 16, {1, 1, 1, 1}, true},          // depthwise
      {1, 16, 10, 10, 32, 1, 1, 2, 1, 1, {0, 0, 0, 0}, false},        // a strided 1x1 shortcut
      {1, 8, 12, 12, 8, 3, 3, 1, 2, 2, {2, 2, 2, 2}, true},           // dilated, grouped
      {3, 4, 8, 11, 6, 2, 3, 3, 1, 1, {0, 1, 2, 0}, true},            // asymmetric pads, stride 3
      {1, 64, 14, 14, 64, 3, 3, 1, 1, 1, {1, 1, 1, 1}, true},         // a resnet block
      {1, 6, 5, 5, 4, 5, 5, 1, 1, 2, {0, 0, 0, 0}, true},             // a 1x1 output
      {2, 16, 7, 9, 8, 4, 4, 2, 1, 1, {1, 1, 1, 1}, true, true},      // a 2x upsampling
      {1, 8, 6, 5, 12, 3, 3, 2, 1, 1, {1, 1, 1, 1}, false, true, 1},  // output_padding
      {1, 8, 6, 6, 8, 3, 3, 1, 2, 2, {2, 1, 0, 2}, true, true},       // dilated, grouped
      {1, 32, 14, 14, 16, 2, 2, 2, 1, 1, {0, 0, 0, 0}, true, true},   // a U-Net's 2x2 up
  };
  for (const Case& c : cases) {
    CAPTURE(c.cin);
    CAPTURE(c.stride);
    CAPTURE(c.group);
    CAPTURE(c.transposed);
    std::vector<int64_t> weight = {c.cout, c.cin / c.group, c.kh, c.kw};
    if (c.transposed) weight = {c.cin, c.cout / c.group, c.kh, c.kw};
    std::vector<std::pair<std::string, std::vector<int64_t>>> tensors = {{"weight", weight}};
    if (c.bias) tensors.push_back({"bias", {c.cout}});
    ir::Kwargs attributes = {{"strides", ints({c.stride, c.stride})},
                             {"dilations", ints({c.dilation, c.dilation})},
                             {"pads", ints(c.pads)},
                             {"group", ir::Argument(c.group)}};
    if (c.out_pad) attributes.emplace_back("output_padding", ints({c.out_pad, c.out_pad}));
    auto gm = oneModule(c.transposed ? "ConvTranspose2d" : "Conv2d", tensors, attributes);
    checkBackendsAgree(*gm, {input({c.n, c.cin, c.h, c.w}, 7)});
  }
}

TEST_CASE("convolution: a new input shape on the same interpreter is planned again") {
  auto gm = oneModule("Conv2d", {{"weight", {4, 3, 3, 3}}, {"bias", {4}}},
                      {{"pads", ints({1, 1, 1, 1})}});
  Interpreter reference(*gm, Backend::kReference), fast(*gm, Backend::kCpu);
  for (int64_t size : {8, 13, 8}) {
    std::vector<Value> inputs = {input({1, 3, size, size}, static_cast<uint32_t>(size))};
    auto want = reference.run(inputs);
    auto got = fast.run(inputs);
    REQUIRE(want);
    REQUIRE(got);
    CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-5);
  }
}

TEST_CASE("pooling: oneDNN equals the reference, ceil_mode and count_include_pad included") {
  struct Case {
    bool max;
    int64_t k, stride;
    std::vector<int64_t> pads;
    int64_t ceil_mode, include_pad;
    int64_t h, w;
  };
  std::vector<Case> cases = {
      {true, 3, 2, {1, 1, 1, 1}, 0, 0, 112, 112},  // resnet's stem pool
      {true, 3, 2, {0, 0, 0, 0}, 1, 0, 13, 13},    // squeezenet's ceil_mode pool
      {true, 2, 2, {0, 0, 0, 0}, 0, 0, 9, 9},     {false, 3, 1, {1, 1, 1, 1}, 0, 1, 10, 7},
      {false, 3, 1, {1, 1, 1, 1}, 0, 0, 10, 7},   {false, 2, 2, {0, 0, 0, 0}, 1, 0, 9, 9},
      {false, 3, 2, {1, 1, 1, 1}, 1, 1, 10, 10},  // the reference's case (extra window)
      // The last window ends before the input: face-api's ResNet stem pool (72 → 35) and its
      // shortcut pools (35 → 17), padded and not, rows and columns apart.
      {true, 3, 2, {0, 0, 0, 0}, 0, 0, 72, 72},   {false, 2, 2, {0, 0, 0, 0}, 0, 1, 35, 35},
      {false, 2, 2, {0, 0, 0, 0}, 0, 0, 35, 34},  {true, 3, 2, {1, 1, 1, 1}, 0, 0, 10, 11},
      {false, 3, 2, {1, 0, 1, 0}, 0, 1, 12, 9},
  };
  for (const Case& c : cases) {
    CAPTURE(c.max);
    CAPTURE(c.ceil_mode);
    CAPTURE(c.include_pad);
    auto gm = oneModule(c.max ? "MaxPool2d" : "AvgPool2d", {},
                        {{"kernel_shape", ints({c.k, c.k})},
                         {"strides", ints({c.stride, c.stride})},
                         {"pads", ints(c.pads)},
                         {"ceil_mode", ir::Argument(c.ceil_mode)},
                         {"count_include_pad", ir::Argument(c.include_pad)}});
    checkBackendsAgree(*gm, {input({2, 5, c.h, c.w}, 3)});
  }
}

TEST_CASE("Gemm and MatMul: sgemm equals the reference") {
  struct Case {
    int64_t trans_a, trans_b;
    std::vector<int64_t> a, b, c;
  };
  std::vector<Case> cases = {
      {0, 1, {4, 7}, {5, 7}, {5}},     // Linear
      {0, 0, {4, 7}, {7, 5}, {4, 1}},  // C per row
      {1, 0, {7, 4}, {7, 5}, {4, 5}},  // transA, full C
      {1, 1, {7, 4}, {5, 7}, {}},      // no C
      {0, 1, {2, 3, 6}, {8, 6}, {8}},  // Linear on 3-D input
  };
  for (const Case& c : cases) {
    CAPTURE(c.trans_a);
    CAPTURE(c.trans_b);
    std::vector<std::pair<std::string, std::vector<int64_t>>> tensors = {{"weight", c.b}};
    if (!c.c.empty()) tensors.push_back({"bias", c.c});
    auto gm = oneModule("Linear", tensors,
                        {{"transA", ir::Argument(c.trans_a)},
                         {"transB", ir::Argument(c.trans_b)},
                         {"alpha", ir::Argument(0.5)},
                         {"beta", ir::Argument(2.0)}});
    checkBackendsAgree(*gm, {input(c.a, 5)});
  }
  for (auto [a, b] : std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>>{
           {{3, 4}, {4, 6}},
           {{2, 3, 4}, {4, 5}},
           {{2, 1, 3, 4}, {3, 4, 2}},
           {{4, 12, 33, 16}, {1, 12, 16, 29}}}) {  // 48 products: one per thread at a time
    auto gm = std::make_unique<ir::GraphModule>();
    ir::Node* x = gm->graph().placeholder("a");
    ir::Node* y = gm->graph().placeholder("b");
    gm->graph().output(gm->graph().callFunction("operator.matmul", {x, y}));
    checkBackendsAgree(*gm, {input(a, 1), input(b, 2)});
  }
}

TEST_CASE("small primitives run on the calling thread and leave the thread count as it was") {
  // A 1×1 convolution of 2 MFLOP runs on the team; one of 0.1 MFLOP, its Linear, softmax,
  // concatenation and the layout kernels after it on the calling thread (dnnl_common.h's
  // SerialScope): both equal the reference, and the next kernel sees the thread count --threads
  // set.
  int before = fxc::exec::maxThreads();
  fxc::exec::setThreads(2);
  for (int64_t hw : {4, 20}) {
    CAPTURE(hw);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Module* m = gm->addModule("m", "Conv2d");
    m->setTensor("weight", tensor({32, 32, 1, 1}, 11));
    m->setTensor("bias", tensor({32}, 12));
    ir::Graph& g = gm->graph();
    ir::Node* x = g.placeholder("x");
    ir::Node* conv = g.callModule("m", {x});
    ir::Node* soft = g.callFunction("torch.softmax", {conv}, {{"axis", ir::Argument(int64_t{1})}});
    // The layout kernels on a convolution's output that only they read (eltwise, binary,
    // global pooling).
    ir::Node* again = g.callModule("m", {x});
    ir::Node* relu = g.callFunction("torch.relu", {again});
    ir::Node* sum = g.callFunction("operator.add", {relu, again});
    ir::Node* pooled = g.callFunction("torch.nn.functional.adaptive_avg_pool2d", {sum},
                                      {{"output_size", ints({1, 1})}});
    g.output(ir::Argument::list(
        {g.callFunction("torch.cat", {conv, soft}, {{"axis", ir::Argument(int64_t{1})}}), pooled}));
    checkBackendsAgree(*gm, {input({1, 32, hw, hw}, 3)});
    CHECK(fxc::exec::maxThreads() == 2);
  }
  fxc::exec::setThreads(before);
}

TEST_CASE("fused convolutions in oneDNN's layout: ConvReLU2d -> ConvAddReLU2d -> MaxPool2d") {
  // Values stay in oneDNN's blocked layout between the three kernels; the output is plain.
  auto gm = std::make_unique<ir::GraphModule>();
  auto conv = [&](const std::string& path, const std::string& type, uint32_t seed) {
    ir::Module* m = gm->addModule(path, type);
    m->setTensor("weight", tensor({16, 16, 3, 3}, seed));
    m->setTensor("bias", tensor({16}, seed + 1));
    m->attributes() = {{"pads", ints({1, 1, 1, 1})}};
  };
  conv("a", "ConvReLU2d", 1);
  conv("b", "ConvAddReLU2d", 3);
  gm->addModule("pool", "MaxPool2d")->attributes() = {{"kernel_shape", ints({2, 2})},
                                                      {"strides", ints({2, 2})}};
  ir::Graph& g = gm->graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* a = g.callModule("a", {x});
  ir::Node* b = g.callModule("b", {a, a});
  ir::Node* b2 = g.callModule("b", {b, x});  // a plain residual
  g.output(g.callModule("pool", {b2}));
  checkBackendsAgree(*gm, {input({2, 16, 12, 12}, 9)});
}

// Bit for bit: NaN matches NaN, and -0 only -0.
void checkSameBits(const Value& got, const Value& want) {
  REQUIRE(got.shape == want.shape);
  REQUIRE(got.f.size() == want.f.size());
  size_t differ = 0;
  for (size_t k = 0; k < got.f.size(); ++k)
    differ += std::memcmp(&got.f[k], &want.f[k], sizeof(float)) != 0 &&
              !(std::isnan(got.f[k]) && std::isnan(want.f[k]));
  CHECK(differ == 0);
}

// Graphs whose values come from depthwise 1×1 convolutions of weight -2, bias 0 (exactly -2x,
// NaN and overflow to -inf kept in their channel; oneDNN leaves them channels-last): both
// backends compute them exactly, so what reads them sees the same values on both.
struct ChannelsLast {
  std::unique_ptr<ir::GraphModule> gm = std::make_unique<ir::GraphModule>();
  ir::Node* conv(const std::string& name, int64_t channels) {
    ir::Module* m = gm->addModule(name, "Conv2d");
    auto w = std::make_shared<ir::Tensor>();
    w->dtype = ir::DType::kFloat32;
    w->dims = {channels, 1, 1, 1};
    std::vector<float> minus_two(static_cast<size_t>(channels), -2.0f);
    w->setBytes(std::string(reinterpret_cast<const char*>(minus_two.data()), channels * 4));
    m->setTensor("weight", w);
    m->attributes() = {{"group", ir::Argument(channels)}};
    return gm->graph().callModule(name, {gm->graph().placeholder(name + "_in")});
  }
};

// Values with the edges a max pool must keep: NaN, -inf after the convolution (3e38 · -2),
// +inf, runs of them filling whole windows, and zeros of both signs (a max of +0 and -0 keeps
// the one the window reaches first).
Value edgy(std::vector<int64_t> shape, uint32_t seed) {
  Value v = input(std::move(shape), seed);
  for (size_t k = 0; k < v.f.size(); ++k) {
    if (k % 5 == 2) v.f[k] = (k * 2654435761u) & 64 ? 0.0f : -0.0f;  // signs mixed in a channel
    if (k % 13 == 0) v.f[k] = std::numeric_limits<float>::quiet_NaN();
    if (k % 17 == 0 || (k / 40) % 9 == 4) v.f[k] = 3e38f;  // -inf once doubled and negated
    if (k % 19 == 0) v.f[k] = -3e38f;
  }
  return v;
}

TEST_CASE("channels-last max pooling and concatenation equal the reference bit for bit") {
  struct Case {
    int64_t k, stride, dilation;
    std::vector<int64_t> pads;
    int64_t ceil_mode;
    int64_t channels, h, w;
  };
  std::vector<Case> cases = {
      {3, 2, 1, {0, 0, 0, 0}, 1, 64, 15, 15},  // squeezenet's
      {3, 2, 1, {1, 1, 1, 1}, 0, 16, 12, 11},  // resnet's stem pool
      {2, 2, 1, {0, 0, 0, 0}, 0, 24, 9, 9},
      {3, 1, 2, {2, 1, 0, 2}, 1, 20, 10, 7},  // dilated, uneven padding
      {5, 3, 1, {2, 2, 2, 2}, 1, 40, 8, 8},   // windows past the input (ceil_mode)
      {3, 2, 1, {1, 1, 1, 1}, 0, 84, 9, 10},  // 64 channels at a time, then 16, then 4
      {2, 1, 1, {0, 0, 1, 1}, 0, 8, 5, 6},    // fewer than 16
      {3, 2, 1, {1, 1, 1, 1}, 0, 200, 7, 9},  // three times 64, then 8
      {3, 1, 1, {0, 0, 0, 0}, 0, 72, 5, 5},   // 64, then 8
  };
  // Each case on a convolution's output, and on an input permuted from [N, H, W, C] (those
  // bytes read as channels-last: the input's own values, signed zeros the convolution's sums
  // would make +0 among them).
  for (const Case& c : cases) {
    for (bool permuted : {false, true}) {
      CAPTURE(c.k);
      CAPTURE(c.channels);
      CAPTURE(permuted);
      ChannelsLast net;
      ir::Module* pool = net.gm->addModule("pool", "MaxPool2d");
      pool->attributes() = {{"kernel_shape", ints({c.k, c.k})},
                            {"strides", ints({c.stride, c.stride})},
                            {"dilations", ints({c.dilation, c.dilation})},
                            {"pads", ints(c.pads)},
                            {"ceil_mode", ir::Argument(c.ceil_mode)}};
      ir::Graph& g = net.gm->graph();
      ir::Node* x = permuted ? g.callFunction("torch.permute", {g.placeholder("x")},
                                              {{"perm", ints({0, 3, 1, 2})}})
                             : net.conv("conv", c.channels);
      g.output(g.callModule("pool", {x}));
      std::vector<Value> inputs = {permuted ? edgy({2, c.h, c.w, c.channels}, 5)
                                            : edgy({2, c.channels, c.h, c.w}, 5)};
      if (permuted) {
        // The infinities the convolution makes of ±3e38; the other values negative, so that
        // many windows' maximum is a zero, of either sign, as the first zero they reach.
        for (float& v : inputs[0].f) {
          if (std::fabs(v) == 3e38f)
            v = v > 0 ? -std::numeric_limits<float>::infinity()
                      : std::numeric_limits<float>::infinity();
          else if (v != 0.0f)
            v = -std::fabs(v);
        }
      }
      Value want = runOn(*net.gm, inputs, Backend::kReference)[0];
      size_t infinite = 0, negative_zeros = 0, positive_zeros = 0;
      for (float v : want.f) {
        infinite += v == -std::numeric_limits<float>::infinity();
        negative_zeros += v == 0.0f && std::signbit(v);
        positive_zeros += v == 0.0f && !std::signbit(v);
      }
      // The windows of -inf are there to be kept (runs along a plane: the convolution's input).
      if (!permuted) CHECK(infinite > 0);
      if (permuted) CHECK((negative_zeros > 0 && positive_zeros > 0));
      Interpreter fast(*net.gm, Backend::kCpu);
      for (int run = 0; run < 2; ++run) {
        auto got = fast.run(inputs);
        REQUIRE_MESSAGE(got, (got ? "" : got.error()));
        checkSameBits(got.value()[0], want);
      }
    }
  }
  // Concatenations of channels-last values (along channels, and along rows), and with a plain
  // value (another order: oneDNN's concat).
  for (int64_t axis : {1, 2, -1}) {
    CAPTURE(axis);
    ChannelsLast net;
    ir::Graph& g = net.gm->graph();
    ir::Node* a = net.conv("a", 16);
    ir::Node* b = net.conv("b", axis == 1 ? 24 : 16);
    ir::Node* two = g.callFunction("torch.cat", {a, b, a}, {{"axis", ir::Argument(axis)}});
    ir::Node* plain = g.placeholder("plain");
    ir::Node* three = g.callFunction("torch.cat", {two, plain}, {{"axis", ir::Argument(axis)}});
    g.output(ir::Argument::list({two, three}));
    std::vector<Value> inputs = {edgy({2, 16, 7, 5}, 1), edgy({2, axis == 1 ? 24 : 16, 7, 5}, 2)};
    std::vector<int64_t> plain_shape = {2, axis == 1 ? 56 : 16, axis == 2 ? 21 : 7,
                                        axis == -1 ? 15 : 5};
    inputs.push_back(input(plain_shape, 3));
    std::vector<Value> want = runOn(*net.gm, inputs, Backend::kReference);
    std::vector<Value> got = runOn(*net.gm, inputs, Backend::kCpu);
    REQUIRE(got.size() == 2);
    checkSameBits(got[0], want[0]);
    checkSameBits(got[1], want[1]);
  }
}

TEST_CASE("the cuDNN backend: tested where a CUDA device is usable") {
  std::string why;
  if (!fxc::exec::cudnn::deviceUsable(&why)) {
    MESSAGE("cuDNN kernels not run here: no CUDA device: " << why);
    return;
  }
  CHECK(fxc::exec::cudnn::compiled());
}

TEST_CASE("elementwise, BatchNorm, softmax, views and concat: every backend agrees") {
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Module* bn = gm->addModule("bn", "BatchNorm2d");
  bn->setTensor("weight", tensor({6}, 1));
  bn->setTensor("bias", tensor({6}, 2));
  bn->setTensor("running_mean", tensor({6}, 3));
  auto var = tensor({6}, 4);
  std::vector<float> positive = {0.5f, 1.0f, 1.5f, 2.0f, 0.7f, 0.9f};
  var->setBytes(std::string(reinterpret_cast<const char*>(positive.data()), 24));
  bn->setTensor("running_var", var);
  gm->addModule("relu", "ReLU");
  gm->opset = 17;
  ir::Graph& g = gm->graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* y = g.placeholder("y");  // [6, 1, 1]: broadcasts over x [2, 6, 5, 5]
  ir::Node* normed = g.callModule("bn", {x});
  ir::Node* sum = g.callFunction("operator.add", {normed, y});
  ir::Node* product = g.callFunction("operator.mul", {sum, x});
  ir::Node* quotient = g.callFunction("operator.truediv", {product, y});
  ir::Node* relu = g.callModule("relu", {quotient});
  ir::Node* sig = g.callFunction("torch.sigmoid", {relu});
  ir::Node* swish = g.callFunction("torch.nn.functional.hardswish", {quotient});
  ir::Node* joined =
      g.callFunction("torch.cat", {sig, swish}, {{"axis", ir::Argument(int64_t{1})}});
  ir::Node* flat = g.callFunction("torch.flatten", {joined}, {{"axis", ir::Argument(int64_t{1})}});
  ir::Node* soft = g.callFunction("torch.softmax", {flat}, {{"axis", ir::Argument(int64_t{-1})}});
  g.output(soft);
  Value xv = input({2, 6, 5, 5}, 11), yv = input({6, 1, 1}, 12);
  checkBackendsAgree(*gm, {xv, yv});

  // The same graph worked by hand in double (not through any kernel): the reference kernels
  // against it, so that the backends above are compared with something that cannot share a bug.
  auto floats = [](const ir::Module& m, const char* name) {
    auto t = m.tensor(name);
    std::vector<float> out(t->byteSize() / 4);
    std::memcpy(out.data(), t->bytes(), t->byteSize());
    return out;
  };
  std::vector<float> w = floats(*bn, "weight"), b = floats(*bn, "bias"),
                     mean = floats(*bn, "running_mean"), v = floats(*bn, "running_var");
  std::vector<std::vector<double>> rows(2);  // the softmax of each [12, 5, 5] batch row
  for (int n = 0; n < 2; ++n) {
    std::vector<double> sig, swish;
    for (int c = 0; c < 6; ++c) {
      for (int k = 0; k < 25; ++k) {
        double x = xv.f[static_cast<size_t>((n * 6 + c) * 25 + k)];
        double normed = (x - mean[c]) / std::sqrt(v[c] + 1e-5) * w[c] + b[c];
        double quotient = (normed + yv.f[c]) * x / yv.f[c];
        sig.push_back(1 / (1 + std::exp(-std::max(quotient, 0.0))));
        swish.push_back(quotient * std::clamp(quotient / 6 + 0.5, 0.0, 1.0));
      }
    }
    rows[n] = sig;
    rows[n].insert(rows[n].end(), swish.begin(), swish.end());
    double largest = *std::max_element(rows[n].begin(), rows[n].end()), total = 0;
    for (double& e : rows[n]) total += (e = std::exp(e - largest));
    for (double& e : rows[n]) e /= total;
  }
  Interpreter reference(*gm, Backend::kReference);
  auto got = reference.run({xv, yv});
  REQUIRE_MESSAGE(got, (got ? "" : got.error()));
  const Value& result = got.value()[0];
  REQUIRE(result.shape == std::vector<int64_t>{2, 300});
  for (int n = 0; n < 2; ++n) {
    for (int k = 0; k < 300; ++k) {
      double want = rows[n][static_cast<size_t>(k)];
      CHECK(std::fabs(result.f[static_cast<size_t>(n * 300 + k)] - want) <= 1e-7 + 1e-5 * want);
    }
  }

  // BatchNorm alone with variances near ε (where dropping it shows), against its formula.
  auto alone = std::make_unique<ir::GraphModule>();
  alone->opset = 17;
  ir::Module* bn2 = alone->addModule("bn", "BatchNorm2d");
  for (const char* name : {"weight", "bias", "running_mean"})
    bn2->setTensor(name, bn->tensor(name));
  std::vector<float> tiny = {0.5f, 1e-5f, 1.5f, 2e-5f, 0.0f, 0.9f};
  auto tiny_var = std::make_shared<ir::Tensor>(*bn->tensor("running_var"));
  tiny_var->setBytes(std::string(reinterpret_cast<const char*>(tiny.data()), 24));
  bn2->setTensor("running_var", tiny_var);
  alone->graph().output(alone->graph().callModule("bn", {alone->graph().placeholder("x")}));
  auto bn_out = Interpreter(*alone, Backend::kReference).run({xv});
  REQUIRE_MESSAGE(bn_out, (bn_out ? "" : bn_out.error()));
  for (size_t k = 0; k < xv.f.size(); ++k) {
    size_t c = k / 25 % 6;
    double want = (xv.f[k] - mean[c]) / std::sqrt(tiny[c] + 1e-5) * w[c] + b[c];
    CHECK(std::fabs(bn_out.value()[0].f[k] - want) <= 1e-5 * (1 + std::fabs(want)));
  }
  checkBackendsAgree(*alone, {xv});
}

TEST_CASE(
    "Clip with its bounds in the module (ReLU6 as traced): values worked by hand, every backend") {
  // Clip(x, 0, 6) with constant bounds traces to module Hardtanh holding tensors min and max;
  // the cuDNN kernel once read only inputs and attributes and computed the identity.
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Module* clip = gm->addModule("clip", "Hardtanh");
  auto scalar = [](float v) {
    auto t = std::make_shared<ir::Tensor>();
    t->dtype = ir::DType::kFloat32;
    t->setBytes(std::string(reinterpret_cast<const char*>(&v), 4));
    return t;
  };
  clip->setTensor("min", scalar(0.0f));
  clip->setTensor("max", scalar(6.0f));
  gm->opset = 13;
  ir::Graph& g = gm->graph();
  g.output(g.callModule("clip", {g.placeholder("x")}));
  std::vector<float> x = {-7.5f, -0.5f, 0.0f, 0.25f, 5.9f, 6.0f, 6.5f, 100.0f};
  std::vector<float> want = {0.0f, 0.0f, 0.0f, 0.25f, 5.9f, 6.0f, 6.0f, 6.0f};
  Interpreter reference(*gm, Backend::kReference);
  auto got = reference.run({Value::floats({2, 4}, x)});
  REQUIRE_MESSAGE(got, (got ? "" : got.error()));
  CHECK(got.value()[0].f == want);
  checkBackendsAgree(*gm, {input({2, 3, 4, 4}, 21)});
  checkBackendsAgree(*gm, {Value::floats({2, 4}, x)});
}

TEST_CASE("transposes (permute) of every rank up to 6: every backend agrees") {
  for (std::vector<int64_t> perm : std::vector<std::vector<int64_t>>{{1, 0},
                                                                     {0, 2, 1},
                                                                     {0, 2, 3, 1},
                                                                     {3, 1, 0, 2},
                                                                     {},
                                                                     {4, 0, 3, 1, 2},
                                                                     {5, 4, 3, 0, 1, 2}}) {
    CAPTURE(perm.size());
    size_t rank = perm.empty() ? 4 : perm.size();
    std::vector<int64_t> shape(rank);
    for (size_t d = 0; d < rank; ++d) shape[d] = static_cast<int64_t>(d + 2);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Graph& g = gm->graph();
    ir::Kwargs kwargs;
    if (!perm.empty()) kwargs.emplace_back("perm", ints(perm));
    ir::Node* t = g.callFunction("torch.permute", {g.placeholder("x")}, kwargs);
    g.output(g.callFunction("torch.sigmoid", {t}));  // a device kernel after it
    checkBackendsAgree(*gm, {input(shape, 31)});
  }
}

TEST_CASE("permute and stepped Slice put every element where a naive index walk does") {
  // The copy runs in 16 × 16 tiles when the last output axis walks the input with a stride, in
  // rows otherwise, on the thread pool past 65,536 elements: sizes around the tile's edge, and
  // large ones.
  std::mt19937 rng(7);
  auto walk = [](const Value& x, const std::vector<int64_t>& out_shape,
                 const std::vector<int64_t>& strides, int64_t offset) {
    std::vector<float> out;
    std::vector<int64_t> index(out_shape.size(), 0);
    int64_t n = 1;
    for (int64_t d : out_shape) n *= d;
    for (int64_t k = 0; k < n; ++k) {
      int64_t at = offset;
      for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
      out.push_back(x.f.at(static_cast<size_t>(at)));
      for (size_t d = index.size(); d-- > 0;) {
        if (++index[d] < out_shape[d]) break;
        index[d] = 0;
      }
    }
    return out;
  };
  struct Case {
    std::vector<int64_t> shape, perm;
  };
  const std::vector<Case> cases = {{{197, 12, 64}, {1, 2, 0}},  // attention's Kᵀ: parallel tiles
                                   {{197, 12, 64}, {1, 0, 2}},  // heads first: rows of 64
                                   {{17, 33}, {1, 0}},
                                   {{16, 16}, {1, 0}},
                                   {{15, 4, 17}, {2, 0, 1}},
                                   {{3, 1, 5, 16}, {3, 2, 1, 0}},
                                   {{2, 3, 4, 5, 6}, {4, 1, 3, 0, 2}},
                                   {{4, 3}, {1, 0}},
                                   {{300, 301}, {1, 0}},
                                   {{2, 64, 33, 33}, {0, 2, 3, 1}},
                                   {{2, 33, 33, 64}, {0, 3, 1, 2}}};
  for (const Case& k : cases) {
    CAPTURE(k.shape.size());
    CAPTURE(k.shape[0]);
    CAPTURE(k.perm[0]);
    Value x = input(k.shape, static_cast<uint32_t>(rng()));
    std::vector<int64_t> in_strides(k.shape.size(), 1), out_shape, strides;
    for (size_t d = k.shape.size() - 1; d-- > 0;)
      in_strides[d] = in_strides[d + 1] * k.shape[d + 1];
    for (int64_t p : k.perm) {
      out_shape.push_back(k.shape[static_cast<size_t>(p)]);
      strides.push_back(in_strides[static_cast<size_t>(p)]);
    }
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Graph& g = gm->graph();
    g.output(g.callFunction("torch.permute", {g.placeholder("x")}, {{"perm", ints(k.perm)}}));
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      auto got = Interpreter(*gm, backend).run({x});
      REQUIRE_MESSAGE(got.ok(), got.error());
      CHECK(got.value()[0].shape == out_shape);
      CHECK(got.value()[0].f == walk(x, out_shape, strides, 0));
    }
  }
  // Slice with steps of either sign, on every axis of [20, 37, 41] at once.
  for (int64_t step : {1, 2, -1, -3, 5}) {
    CAPTURE(step);
    std::vector<int64_t> shape = {20, 37, 41};
    Value x = input(shape, 9);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    auto constant = [&](const std::string& name, std::vector<int64_t> values) {
      int64_t n = static_cast<int64_t>(values.size());
      gm->setTensor(name, fxc::exec::toTensor(Value::ints({n}, std::move(values))));
      return gm->graph().getAttr(name);
    };
    std::vector<int64_t> starts =
        step > 0 ? std::vector<int64_t>{1, 0, 3} : std::vector<int64_t>{18, 36, 39};
    std::vector<int64_t> ends =
        step > 0 ? std::vector<int64_t>{20, 35, 41} : std::vector<int64_t>{-100, 0, 2};
    ir::Graph& g = gm->graph();
    ir::Node* in = g.placeholder("x");
    g.output(g.callFunction("onnx.Slice",
                            {in, constant("starts", starts), constant("ends", ends),
                             constant("axes", {0, 1, 2}), constant("steps", {step, step, step})}));
    std::vector<int64_t> out_shape, strides = {37 * 41 * step, 41 * step, step};
    int64_t offset = starts[0] * 37 * 41 + starts[1] * 41 + starts[2];
    for (size_t d = 0; d < 3; ++d) {
      int64_t begin = starts[d], end = std::max<int64_t>(ends[d], -1);  // clamped as ONNX does
      out_shape.push_back(step > 0 ? (end - begin + step - 1) / step
                                   : (begin - end - step - 1) / -step);
    }
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      auto got = Interpreter(*gm, backend).run({x});
      REQUIRE_MESSAGE(got.ok(), got.error());
      CHECK(got.value()[0].shape == out_shape);
      CHECK(got.value()[0].f == walk(x, out_shape, strides, offset));
    }
  }
}

TEST_CASE(
    "LayerNorm (any eps, affine or not, last axes), GELU both ways, erf: every backend agrees") {
  for (int64_t axis : {-1, 1}) {
    for (bool affine : {true, false}) {
      CAPTURE(axis);
      CAPTURE(affine);
      auto gm = std::make_unique<ir::GraphModule>();
      gm->opset = 17;
      ir::Module* norm = gm->addModule("norm", "LayerNorm");
      int64_t inner = axis == -1 ? 24 : 5 * 24;
      if (affine) {
        norm->setTensor("weight", tensor({inner}, 41));
        norm->setTensor("bias", tensor({inner}, 42));
      }
      norm->attributes() = {{"axis", ir::Argument(axis)}, {"epsilon", ir::Argument(1e-6)}};
      gm->addModule("gelu", "GELU");
      ir::Module* tanh_gelu = gm->addModule("gelu_tanh", "GELU");
      tanh_gelu->attributes() = {{"approximate", ir::Argument(std::string("tanh"))}};
      ir::Graph& g = gm->graph();
      ir::Node* x = g.placeholder("x");
      ir::Node* n = g.callModule("norm", {x});
      ir::Node* a = g.callModule("gelu", {n});
      ir::Node* b = g.callModule("gelu_tanh", {n});
      ir::Node* e = g.callFunction("torch.erf", {n});
      g.output(g.callFunction("torch.cat", {a, b, e}, {{"axis", ir::Argument(int64_t{-1})}}));
      // Rows with a large common offset: a one-pass variance would lose them.
      Value in = input({3, 5, 24}, 43);
      for (float& v : in.f) v = 1000.0f + v;
      checkBackendsAgree(*gm, {in});
    }
  }
}

TEST_CASE("float64 inputs to a float32-only backend's kernel run the CPU kernel, or are refused") {
  // The cuDNN backend's kernels compute float32; float64OnCpu gives float64 inputs to the CPU
  // table's kernel, which computes them in double (operator.add) or refuses them by name (an
  // H200 run refused float64_ops: every cuDNN kernel was wrapped in a refusal before).
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Node* a = gm->graph().placeholder("a");
  ir::Node* b = gm->graph().placeholder("b");
  ir::Node* add = gm->graph().callFunction("operator.add", {a, b});
  int backend_calls = 0;
  fxc::exec::Kernel backend = [&](const fxc::exec::KernelContext&) {
    ++backend_calls;
    return fxc::exec::outputs(Value::floats({1}, {-1.0f}));
  };
  fxc::exec::Kernel guarded =
      fxc::exec::float64OnCpu(backend, fxc::exec::cpuKernels().at("operator.add"), "operator.add");
  Value x = Value::doubles({2}, {0.1, 1e300}), y = Value::doubles({2}, {0.2, 1e300});
  std::vector<Value> sum = guarded(fxc::exec::KernelContext(*add, nullptr, {&x, &y}, nullptr));
  CHECK(backend_calls == 0);
  REQUIRE(sum.at(0).isDouble());
  CHECK(sum.at(0).d == std::vector<double>{0.1 + 0.2, 2e300});  // in double, not float32
  Value f = Value::floats({1}, {1.0f});
  sum = guarded(fxc::exec::KernelContext(*add, nullptr, {&f, &f}, nullptr));
  CHECK(backend_calls == 1);
  CHECK(sum.at(0).f == std::vector<float>{-1.0f});
  // No CPU kernel: refused by name, the backend's kernel never sees float64.
  fxc::exec::Kernel alone = fxc::exec::float64OnCpu(backend, fxc::exec::Kernel(), "module:Foo");
  CHECK_THROWS_WITH_AS(alone(fxc::exec::KernelContext(*add, nullptr, {&x, &y}, nullptr)),
                       "unsupported: float64 inputs to Foo (computed in float32 only)",
                       fxc::exec::ExecError);
  CHECK(backend_calls == 1);
}

TEST_CASE("the cuDNN backend loads and its kernel table builds, device or not") {
  // Loading resolves the plugin's symbols against this executable; building the table looks up
  // every CPU kernel it falls back to. Neither needs a device.
  if (!fxc::exec::cudnn::compiled()) {
    std::string why;
    fxc::exec::cudnn::deviceUsable(&why);
    MESSAGE("cuDNN backend not built: " << why);
    return;
  }
  const auto& gpu = fxc::exec::cudnn::kernels();
  CHECK(gpu.size() >= 30);
  for (const auto& [key, kernel] : gpu) {
    CAPTURE(key);
    CHECK(fxc::exec::cpuKernels().count(key) == 1);
    CHECK(static_cast<bool>(kernel));
  }
}

TEST_CASE("every node of the repository's CNNs has a cuDNN kernel (no CPU fallback)") {
  if (!fxc::exec::cudnn::compiled()) {
    MESSAGE("cuDNN backend not built");
    return;
  }
  for (const char* stem : {"resnet18_narrow", "mobilenet_v2_narrow", "mobilenet_v3_small_narrow",
                           "squeezenet1_1_narrow"}) {
    CAPTURE(stem);
    auto loaded = fxc::onnx::loadModel(testModelsDir() + "/" + stem + ".onnx");
    REQUIRE(loaded.ok());
    auto traced = fxc::onnx::trace(loaded.take(), {});
    REQUIRE(traced.ok());
    // Constructing the interpreter needs no device; running would.
    Interpreter gpu(*traced.value(), Backend::kCudnn);
    std::string fallbacks;
    for (const auto& node : gpu.fallbacks()) fallbacks += node + " ";
    CHECK_MESSAGE(fallbacks.empty(), "CPU fallbacks: " << fallbacks);
  }
}

TEST_CASE("Softmax, LayerNorm, GELU and reductions: oneDNN equals the reference") {
  auto oneCall = [](const std::string& target, ir::Kwargs kwargs, size_t inputs = 1) {
    auto gm = std::make_unique<ir::GraphModule>();
    std::vector<ir::Argument> args;
    for (size_t k = 0; k < inputs; ++k)
      args.emplace_back(gm->graph().placeholder("x" + std::to_string(k)));
    gm->graph().output(gm->graph().callFunction(target, std::move(args), std::move(kwargs)));
    gm->opset = 17;
    return gm;
  };
  // Softmax along every axis of a 4-D input, and before opset 13 (flattened at axis).
  for (int64_t axis : {-1, 0, 1, 2, 3}) {
    CAPTURE(axis);
    checkBackendsAgree(*oneCall("torch.softmax", {{"axis", ir::Argument(axis)}}),
                       {input({2, 3, 5, 7}, 11)});
  }
  // Along a strided axis (the CPU reorders it innermost) with a NaN and a +inf in two of its
  // columns: NaN throughout both, as the reference gives.
  Value special = input({2, 4, 3}, 19);
  special.f[1] = NAN;        // [0, 0, 1]: column (0, ·, 1)
  special.f[17] = INFINITY;  // [1, 1, 2]: column (1, ·, 2)
  checkBackendsAgree(*oneCall("torch.softmax", {{"axis", ir::Argument(int64_t{1})}}), {special});
  auto legacy = oneCall("torch.softmax", {{"axis", ir::Argument(int64_t{1})}});
  legacy->opset = 11;
  checkBackendsAgree(*legacy, {input({2, 3, 5}, 12)});
  // LayerNorm: a module (weight and bias), over one and two trailing axes, any epsilon; and the
  // functional form with scale and bias as inputs, and with a one-element scale.
  for (auto [shape, axis, eps] : std::vector<std::tuple<std::vector<int64_t>, int64_t, double>>{
           {{2, 5, 16}, -1, 1e-5}, {{3, 4, 6}, 1, 1e-6}, {{7, 33}, -1, 1e-2}}) {
    int64_t inner = 1;
    for (size_t d =
             static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(shape.size()) : axis);
         d < shape.size(); ++d)
      inner *= shape[d];
    CAPTURE(axis);
    auto gm = oneModule("LayerNorm", {{"weight", {inner}}, {"bias", {inner}}},
                        {{"axis", ir::Argument(axis)}, {"epsilon", ir::Argument(eps)}});
    checkBackendsAgree(*gm, {input(shape, 13)});
  }
  checkBackendsAgree(*oneCall("torch.nn.functional.layer_norm", {}, 3),
                     {input({4, 8}, 14), input({8}, 15), input({8}, 16)});
  checkBackendsAgree(*oneCall("torch.nn.functional.layer_norm", {}, 2),
                     {input({4, 8}, 17), input({1}, 18)});
  // GELU, exact and tanh-approximated, over the tails and the middle of both.
  for (const char* approximate : {"none", "tanh"}) {
    CAPTURE(approximate);
    Value x = input({1000}, 19);
    for (size_t k = 0; k < x.f.size(); ++k) x.f[k] *= 4.0f;  // up to about ±12
    checkBackendsAgree(*oneCall("torch.nn.functional.gelu",
                                {{"approximate", ir::Argument(std::string(approximate))}}),
                       {x});
  }
  // SiLU, Sigmoid and Tanh over the same range.
  for (const char* target : {"module:SiLU", "module:Sigmoid", "module:Tanh"}) {
    CAPTURE(target);
    Value x = input({1000}, 21);
    for (size_t k = 0; k < x.f.size(); ++k) x.f[k] *= 6.0f;  // up to about ±20
    checkBackendsAgree(*oneModule(std::string(target).substr(7), {}, {}), {x});
  }
  // Reductions over one axis, several, all of them, with and without keepdims.
  for (const char* target : {"torch.sum", "torch.mean", "torch.amax", "torch.amin"}) {
    for (auto [axes, keep] : std::vector<std::pair<std::vector<int64_t>, int64_t>>{
             {{1}, 1}, {{0, 2}, 0}, {{}, 0}, {{-1}, 0}}) {
      CAPTURE(target);
      CAPTURE(keep);
      checkBackendsAgree(*oneCall(target, {{"axes", ints(axes)}, {"keepdims", ir::Argument(keep)}}),
                         {input({3, 4, 5}, 20)});
    }
  }
}

namespace {

// x → conv a (16 → channels) → op(a) → conv b (channels → 8) → output: the op's input is in
// oneDNN's layout (blocked; with channels not a multiple of the block, padded), and so is its
// output where it runs natively. `op` builds the op on the graph.
std::unique_ptr<ir::GraphModule> betweenConvolutions(
    int64_t channels, const std::function<ir::Node*(ir::GraphModule&, ir::Node*)>& op) {
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Module* a = gm->addModule("a", "Conv2d");
  a->setTensor("weight", tensor({channels, 16, 3, 3}, 11));
  a->setTensor("bias", tensor({channels}, 12));
  a->attributes() = {{"pads", ints({1, 1, 1, 1})}};
  ir::Module* b = gm->addModule("b", "Conv2d");
  b->setTensor("weight", tensor({8, channels, 1, 1}, 13));
  ir::Graph& g = gm->graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* y = op(*gm, g.callModule("a", {x}));
  g.output(g.callModule("b", {y}));
  gm->opset = 17;
  return gm;
}

// A BatchNorm module (`type`) over `channels` with random statistics and the given epsilon.
ir::Module* addBatchNorm(ir::GraphModule& m, const std::string& path, int64_t channels,
                         double epsilon, const char* type = "BatchNorm2d") {
  ir::Module* bn = m.addModule(path, type);
  bn->setTensor("weight", tensor({channels}, 21));
  bn->setTensor("bias", tensor({channels}, 22));
  bn->setTensor("running_mean", tensor({channels}, 23));
  // A variance is positive: |N(0, 1)| + 0.1 (a NaN would compare as equal).
  auto var = tensor({channels}, 24);
  std::vector<float> values(static_cast<size_t>(channels));
  std::memcpy(values.data(), var->bytes(), values.size() * 4);
  for (float& v : values) v = std::fabs(v) + 0.1f;
  var->setBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  bn->setTensor("running_var", var);
  bn->attributes() = {{"epsilon", ir::Argument(epsilon)}};
  return bn;
}

}  // namespace

TEST_CASE(
    "activations, global pooling and broadcast add/mul on oneDNN's layout equal the reference") {
  struct Activation {
    const char* type;
    ir::Kwargs attributes;
  };
  const std::vector<Activation> activations = {
      {"ReLU", {}},
      {"Hardtanh", {{"min", ir::Argument(0.0)}, {"max", ir::Argument(6.0)}}},
      {"Hardtanh", {{"min", ir::Argument(-0.5)}, {"max", ir::Argument(0.25)}}},
      {"LeakyReLU", {{"alpha", ir::Argument(0.2)}}},
      {"Hardswish", {}},
      {"SiLU", {}},
      {"Sigmoid", {}},
      {"Tanh", {}},
      {"GELU", {}},
      {"GELU", {{"approximate", ir::Argument(std::string("tanh"))}}}};
  for (int64_t channels : {16, 12, 40}) {
    for (const Activation& activation : activations) {
      CAPTURE(channels);
      CAPTURE(activation.type);
      auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
        // The convolution's outputs spread over about ±40: every bound and curved part is hit.
        m.addModule("act", activation.type)->attributes() = activation.attributes;
        return m.graph().callModule("act", {v});
      });
      checkBackendsAgree(*gm, {input({2, 16, 9, 7}, 5)});
    }
  }
  // The other operand: the same shape in the same layout (x + x), another convolution's output,
  // a plain value of the same shape, per channel ([1, C, 1, 1], [C, 1, 1]), per batch entry and
  // channel, per batch entry, a scalar, broadcasts along W or H (not run natively), and
  // operands of lower rank that broadcast along the batch only; on either side.
  for (int64_t channels : {16, 12}) {
    for (const char* target : {"operator.add", "operator.mul"}) {
      CAPTURE(channels);
      CAPTURE(target);
      for (std::vector<int64_t> other : std::vector<std::vector<int64_t>>{{2, channels, 9, 7},
                                                                          {1, channels, 1, 1},
                                                                          {2, channels, 1, 1},
                                                                          {2, 1, 1, 1},
                                                                          {channels, 1, 1},
                                                                          {},
                                                                          {1},
                                                                          {7},
                                                                          {9, 1},
                                                                          {channels, 9, 7},
                                                                          {9, 7}}) {
        CAPTURE(other.size());
        for (bool native_first : {true, false}) {
          auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
            ir::Node* o = m.graph().placeholder("other");
            return m.graph().callFunction(target, {native_first ? v : o, native_first ? o : v});
          });
          checkBackendsAgree(*gm, {input({2, 16, 9, 7}, 5), input(other, 6)});
        }
      }
      // Batch 1: a [C, H, W] operand is the native [1, C, H, W]'s shape at a lower rank.
      for (bool native_first : {true, false}) {
        auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
          ir::Node* o = m.graph().placeholder("other");
          return m.graph().callFunction(target, {native_first ? v : o, native_first ? o : v});
        });
        checkBackendsAgree(*gm, {input({1, 16, 9, 7}, 5), input({channels, 9, 7}, 6)});
      }
      auto twice = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
        return m.graph().callFunction(target, {v, v});
      });
      checkBackendsAgree(*twice, {input({2, 16, 9, 7}, 5)});
    }
    // Two convolutions of the same input added (a residual of two branches); then the global
    // average pool (a squeeze-excitation's) of the sum, multiplied back in.
    auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
      ir::Module* other = m.addModule("other", "Conv2d");
      other->setTensor("weight", tensor({channels, 16, 3, 3}, 41));
      other->attributes() = {{"pads", ints({1, 1, 1, 1})}};
      ir::Node* w = m.graph().callModule("other", {m.graph().first()});
      ir::Node* sum = m.graph().callFunction("operator.add", {v, w});
      m.addModule("pool", "AdaptiveAvgPool2d");
      ir::Node* pooled = m.graph().callModule("pool", {sum});
      return m.graph().callFunction("operator.mul", {sum, pooled});
    });
    checkBackendsAgree(*gm, {input({2, 16, 9, 7}, 5)});
  }
}

TEST_CASE("Transpose of oneDNN's layouts and into channels-last equals the reference") {
  // On a convolution's output (blocked, padded blocks) and a depthwise one's (ConvNeXt's 7 x 7:
  // oneDNN picks channels-last): every perm and its inverse, back to [N, C, H, W] for the next
  // convolution; NHWC → (0, 3, 1, 2), the channels-last value, read by an add with the native
  // input, a per-channel mul, a LayerNorm over C in between (ConvNeXt's block), and by a plain
  // kernel (Flatten) that takes it as NCHW.
  auto permute = [](ir::GraphModule& m, ir::Node* v, std::vector<int64_t> perm) {
    return m.graph().callFunction("torch.permute", {v}, {{"perm", ints(perm)}});
  };
  const std::vector<std::vector<int64_t>> perms = {{0, 2, 3, 1}, {0, 1, 3, 2}, {1, 0, 2, 3},
                                                   {3, 2, 1, 0}, {2, 0, 3, 1}, {0, 1, 2, 3}};
  for (int64_t channels : {16, 12, 40}) {
    for (bool depthwise : {false, true}) {
      for (const auto& perm : perms) {
        CAPTURE(channels);
        CAPTURE(depthwise);
        CAPTURE(perm[0] * 1000 + perm[1] * 100 + perm[2] * 10 + perm[3]);
        auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
          if (depthwise) {
            ir::Module* dw = m.addModule("dw", "Conv2d");
            dw->setTensor("weight", tensor({channels, 1, 7, 7}, 17));
            dw->attributes() = {{"pads", ints({3, 3, 3, 3})}, {"group", ir::Argument(channels)}};
            v = m.graph().callModule("dw", {v});
          }
          std::vector<int64_t> inverse(4);
          for (size_t d = 0; d < 4; ++d)
            inverse[static_cast<size_t>(perm[d])] = static_cast<int64_t>(d);
          return permute(m, permute(m, v, perm), inverse);
        });
        checkBackendsAgree(*gm, {input({2, 16, 9, 7}, 5)});
      }
      // ConvNeXt's block: v → NHWC → LayerNorm(C) → NCHW → · γ[C, 1, 1] → + v.
      auto block = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
        ir::Node* input = v;
        if (depthwise) {
          ir::Module* dw = m.addModule("dw", "Conv2d");
          dw->setTensor("weight", tensor({channels, 1, 7, 7}, 17));
          dw->attributes() = {{"pads", ints({3, 3, 3, 3})}, {"group", ir::Argument(channels)}};
          v = m.graph().callModule("dw", {v});
        }
        ir::Module* norm = m.addModule("norm", "LayerNorm");
        norm->setTensor("weight", tensor({channels}, 18));
        norm->setTensor("bias", tensor({channels}, 19));
        norm->attributes() = {{"axis", ir::Argument(int64_t{-1})}};
        ir::Node* normed = m.graph().callModule("norm", {permute(m, v, {0, 2, 3, 1})});
        ir::Node* back = permute(m, normed, {0, 3, 1, 2});
        ir::Node* gamma = m.graph().placeholder("gamma");
        ir::Node* scaled = m.graph().callFunction("operator.mul", {back, gamma});
        return m.graph().callFunction("operator.add", {scaled, input});
      });
      checkBackendsAgree(*block, {input({2, 16, 9, 7}, 5), input({channels, 1, 1}, 6)});
    }
    // The channels-last value read by a kernel that wants NCHW (Flatten), as the output.
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Graph& g = gm->graph();
    ir::Node* nchw = permute(*gm, g.placeholder("x"), {0, 3, 1, 2});
    gm->addModule("flat", "Flatten");
    g.output(g.callModule("flat", {nchw}));
    checkBackendsAgree(*gm, {input({2, 9, 7, channels}, 7)});
  }
}

TEST_CASE(
    "BatchNorm in inference mode: oneDNN equals the reference, plain and in oneDNN's layout") {
  for (int64_t channels : {16, 12}) {
    for (double epsilon : {1e-5, 0.5}) {
      CAPTURE(channels);
      CAPTURE(epsilon);
      auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
        addBatchNorm(m, "bn", channels, epsilon);
        return m.graph().callModule("bn", {v});
      });
      checkBackendsAgree(*gm, {input({2, 16, 9, 7}, 5)});
    }
  }
  // Plain inputs of rank 2 to 5.
  for (std::vector<int64_t> shape :
       std::vector<std::vector<int64_t>>{{3, 5}, {2, 5, 7}, {2, 5, 4, 3}, {1, 5, 2, 3, 4}}) {
    CAPTURE(shape.size());
    auto gm = std::make_unique<ir::GraphModule>();
    addBatchNorm(*gm, "bn", 5, 1e-3);
    ir::Graph& g = gm->graph();
    g.output(g.callModule("bn", {g.placeholder("x")}));
    gm->opset = 17;
    checkBackendsAgree(*gm, {input(shape, 7)});
  }
}

TEST_CASE("bn-relu: a BatchNorm in inference mode and its ReLU run as one; near misses stay") {
  // x → Conv2d (oneDNN's layout) or a plain input → BatchNorm2d → ReLU → 1×1 Conv2d. After the
  // pass every output equals, bit for bit, what the graph as written gives on the same backend
  // (oneDNN's BatchNorm with its ReLU fused against BatchNorm, then ReLU); the fused graph's CPU
  // run agrees with its reference run; the export, read back as plain ops, gives the reference's
  // bits. Near misses are not fused (refused: reason at -v; not matched: silently). The inputs
  // hold a NaN, ±inf and -0 (a plain input: oneDNN's C++ batch normalization, whose fused ReLU
  // would keep the NaN that fxc's ReLU makes 0).
  struct Case {
    const char* what;
    bool conv_first = true, module_relu = true, bn_is_output = false, bn_twice = false;
    const char* bn_type = "BatchNorm2d";
    ir::Kwargs extra;  // more BatchNorm attributes
    int64_t fused = 1, refused = 0;
    int64_t opset = 17;
  };
  auto with = variant<Case>;
  // An integer attribute of the BatchNorm that makes bn-relu refuse.
  auto refusedFor = [&](const char* key, int64_t value) {
    Case k = with(key, [](Case&) {});
    k.extra = {{key, ir::Argument(value)}};
    k.fused = 0;
    k.refused = 1;
    return k;
  };
  const std::vector<Case> cases = {
      with("a ReLU module after a convolution", [](Case&) {}),
      with("torch.relu", [](Case& k) { k.module_relu = false; }),
      with("a plain input", [](Case& k) { k.conv_first = false; }),
      with("training_mode 0 written out",
           [](Case& k) {
             k.extra = {{"training_mode", ir::Argument(int64_t{0})},
                        {"momentum", ir::Argument(0.9)}};
           }),
      with("is_test 1 written out (opset 6)",
           [](Case& k) {
             k.extra = {{"is_test", ir::Argument(int64_t{1})}, {"momentum", ir::Argument(0.9)}};
             k.opset = 6;
           }),
      refusedFor("spatial", 0),
      refusedFor("training_mode", 1),
      refusedFor("is_test", 0),
      refusedFor("frobnicate", 1),  // an attribute bn-relu does not know
      with("the BatchNorm's output read twice",
           [](Case& k) {
             k.bn_is_output = true;
             k.fused = 0;
           }),
      with("the BatchNorm module called twice",
           [](Case& k) {
             k.bn_twice = true;
             k.fused = 0;
           }),
      with("a BatchNorm1d",
           [](Case& k) {
             k.bn_type = "BatchNorm1d";
             k.fused = 0;
           }),
  };
  for (const Case& k : cases) {
    std::string what = k.what;
    CAPTURE(what);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = k.opset;
    const int64_t channels = 12;
    ir::Module* first = gm->addModule("a", "Conv2d");
    first->setTensor("weight", tensor({channels, 4, 3, 3}, 81));
    first->attributes() = {{"pads", ints({1, 1, 1, 1})}};
    gm->addModule("b", "Conv2d")->setTensor("weight", tensor({8, channels, 1, 1}, 82));
    ir::Module* bn = addBatchNorm(*gm, "bn", channels, 1e-3, k.bn_type);
    for (const auto& attribute : k.extra) bn->attributes().push_back(attribute);
    gm->addModule("relu", "ReLU");
    ir::Graph& g = gm->graph();
    ir::Node* x = g.placeholder("x");
    ir::Node* value = k.conv_first ? g.callModule("a", {x}) : x;
    ir::Node* normed = g.callModule("bn", {value});
    ir::Node* relu =
        k.module_relu ? g.callModule("relu", {normed}) : g.callFunction("torch.relu", {normed});
    std::vector<ir::Argument> outs = {ir::Argument(g.callModule("b", {relu})), ir::Argument(relu)};
    if (k.bn_is_output) outs.emplace_back(normed);
    if (k.bn_twice) outs.emplace_back(g.callModule("bn", {relu}));
    g.output(ir::Argument::tuple(outs));
    std::vector<Value> inputs = {k.conv_first ? input({2, 4, 9, 7}, 9) : input({2, 12, 9, 7}, 9)};
    const float special[] = {std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(), -0.0f};
    std::vector<Value> finite = inputs;  // for the comparison within a tolerance
    for (size_t s = 0; s < 4; ++s) inputs[0].f[s * 97 + 5] = special[s];
    // Refused cases are not run: the kernels refuse spatial 0 and training mode without the
    // statistics' outputs, and run an unknown attribute as if absent.
    bool runs = k.refused == 0;
    std::vector<std::vector<Value>> want;
    if (runs) want = runOnBoth(*gm, inputs);
    auto request = fxc::passes::parsePassSpec("bn-relu");
    REQUIRE(request.ok());
    auto result = request.value().pass->run(*gm, request.value().options);
    REQUIRE_MESSAGE(result.ok(), result.error());
    int64_t fused = 0, refused = 0, modules = 0;
    for (const auto& [name, count] : result.value().counts) {
      fused += name == "fused" ? count : 0;
      refused += name == "refused" ? count : 0;
    }
    for (const ir::Node* node : g) {
      const ir::Module* module =
          node->op() == ir::Opcode::kCallModule ? gm->findModule(node->target()) : nullptr;
      modules += module && module->type() == "BNReLU2d";
    }
    CHECK(fused == k.fused);
    CHECK(refused == k.refused);
    CHECK(modules == k.fused);
    CHECK(ir::lintGraph(g, gm.get()).empty());
    if (!runs) continue;
    auto got = runOnBoth(*gm, inputs);
    for (size_t b = 0; b < 2; ++b) checkSameBits(got[b], want[b]);
    checkBackendsAgree(*gm, finite);
    auto again = exportAndReadBack(*gm);
    checkSameBits(runOn(*again, inputs, Backend::kReference), want[0]);
  }
}

TEST_CASE("constant Pad by rows equals the reference: ranks 1 to 5, zero, wide and negative pads") {
  struct Case {
    std::vector<int64_t> shape, pads;
  };
  const std::vector<Case> cases = {
      {{7}, {2, 3}},
      {{3, 5}, {0, 1, 2, 0}},
      {{1, 192, 35, 35}, {0, 0, 1, 1, 0, 0, 1, 1}},  // Inception-v3's, before an AveragePool
      {{2, 3, 4, 5}, {1, 0, 0, 2, 0, 3, 1, 0}},
      {{2, 3, 4, 5}, {0, 0, 0, 0, 0, 0, 0, 0}},
      {{2, 1, 3, 2, 2}, {0, 1, 0, 1, 2, 1, 0, 1, 0, 0}},
      {{2, 3, 4, 5}, {0, 0, -1, 1, 0, 0, 1, -2}},  // crops: the reference's own
      {{2, 0, 3}, {0, 1, 1, 0, 1, 1}}};
  for (const Case& k : cases) {
    CAPTURE(k.shape.size());
    CAPTURE(k.pads[2]);
    auto gm = std::make_unique<ir::GraphModule>();
    ir::Graph& g = gm->graph();
    ir::Node* x = g.placeholder("x");
    ir::Node* pads = g.placeholder("pads");
    ir::Node* value = g.placeholder("value");
    g.output(g.callFunction("torch.nn.functional.pad", {x, pads, value}));
    gm->opset = 17;
    checkBackendsAgree(
        *gm, {input(k.shape, 3), Value::ints({static_cast<int64_t>(k.pads.size())}, k.pads),
              Value::floats({}, {1.5f})});
  }
  // A pad past any size is refused (its sum with the size would overflow), by both kernels.
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Graph& g = gm->graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* pads = g.placeholder("pads");
  g.output(g.callFunction("torch.nn.functional.pad", {x, pads}));
  int64_t huge = std::numeric_limits<int64_t>::max() - 1;
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    auto run = Interpreter(*gm, backend).run({input({2}, 3), Value::ints({2}, {0, huge})});
    REQUIRE_FALSE(run.ok());
    CHECK(run.error().find("is past any tensor's size") != std::string::npos);
  }
}

TEST_CASE("Gather by blocks equals the reference: every axis, negative, repeated and N-d indices") {
  struct Case {
    std::vector<int64_t> shape;
    int64_t axis;
    std::vector<int64_t> index_shape, indices;
  };
  const std::vector<Case> cases = {
      {{3, 2, 4, 5}, 0, {}, {1}},  // qkv[1]: a scalar index drops the axis
      {{3, 2, 4, 5}, 0, {3}, {2, 0, 1}},
      {{3, 2, 4, 5}, 2, {2, 2}, {-1, 0, 3, 3}},
      {{3, 2, 4, 5}, -1, {4}, {4, 0, -5, 2}},  // the last axis: blocks of one element
      {{6}, 0, {2}, {5, 0}},
      {{2, 3}, 1, {0}, {}},
      {{2, 3}, 1, {1}, {3}}};  // out of range: the reference's error
  for (const Case& k : cases) {
    CAPTURE(k.axis);
    CAPTURE(k.indices.size());
    auto gm = std::make_unique<ir::GraphModule>();
    ir::Graph& g = gm->graph();
    ir::Node* x = g.placeholder("x");
    ir::Node* indices = g.placeholder("indices");
    g.output(g.callFunction("onnx.Gather", {x, indices}, {{"axis", ir::Argument(k.axis)}}));
    gm->opset = 17;
    std::vector<Value> inputs = {input(k.shape, 4), Value::ints(k.index_shape, k.indices)};
    if (k.indices.size() == 1 && k.indices[0] == 3 && k.shape.size() == 2) {
      for (Backend backend : {Backend::kReference, Backend::kCpu}) {
        auto run = Interpreter(*gm, backend).run(inputs);
        REQUIRE_FALSE(run.ok());
        CHECK(run.error().find("gather index 3 is out of range") != std::string::npos);
      }
      continue;
    }
    checkBackendsAgree(*gm, inputs);
  }
}

TEST_CASE("Concat of values in oneDNN's layout equals the reference: axes, plain inputs, padding") {
  for (int64_t channels : {16, 12}) {
    for (int64_t axis : {1, 0, 2, -1}) {
      for (bool plain_middle : {false, true}) {
        CAPTURE(channels);
        CAPTURE(axis);
        CAPTURE(plain_middle);
        auto gm = betweenConvolutions(channels, [&](ir::GraphModule& m, ir::Node* v) {
          ir::Graph& g = m.graph();
          // A second native value of v's layout (another convolution of the same input).
          ir::Module* other = m.addModule("other", "Conv2d");
          other->setTensor("weight", tensor({channels, 16, 3, 3}, 41));
          other->attributes() = {{"pads", ints({1, 1, 1, 1})}};
          ir::Node* w = g.callModule("other", {g.first()});
          std::vector<ir::Argument> parts = {v};
          if (plain_middle) parts.emplace_back(g.placeholder("plain"));
          parts.emplace_back(w);
          ir::Node* joined = g.callFunction("torch.cat", parts, {{"axis", ir::Argument(axis)}});
          // Along the channels, a 1×1 conv brings them back to conv b's count; along another
          // axis conv b reads a larger batch, a taller or a wider image.
          if (axis != 1) return joined;
          int64_t total = (plain_middle ? 3 : 2) * channels;
          m.addModule("mix", "Conv2d")->setTensor("weight", tensor({channels, total, 1, 1}, 31));
          return g.callModule("mix", {joined});
        });
        std::vector<Value> inputs = {input({2, 16, 9, 7}, 5)};
        if (plain_middle) inputs.push_back(input({2, channels, 9, 7}, 8));
        checkBackendsAgree(*gm, inputs);
      }
    }
  }
}

TEST_CASE(
    "ConvAct2d: oneDNN's post-op and the reference equal the convolution then the activation") {
  struct Act {
    const char* type;
    ir::Kwargs attributes;  // the activation module's
    bool bounds_as_tensors = false;
  };
  const std::vector<Act> acts = {
      {"Hardtanh", {{"min", ir::Argument(0.0)}, {"max", ir::Argument(6.0)}}},
      {"Hardtanh", {}, true},  // bounds -1.5 and 2.5 as one-element tensors (Clip, opset 11+)
      {"LeakyReLU", {{"alpha", ir::Argument(0.1)}}},
      {"Hardswish", {}},
      {"Hardsigmoid", {}},  // ONNX's α = 0.2, β = 0.5
      {"Hardsigmoid", {{"alpha", ir::Argument(1.0 / 6)}, {"beta", ir::Argument(0.5)}}},
      {"SiLU", {}},
      {"Sigmoid", {}},
      {"Tanh", {}}};
  auto scalar = [](float v) {
    auto t = std::make_shared<ir::Tensor>();
    t->dtype = ir::DType::kFloat32;
    t->dims = {};
    t->setBytes(std::string(reinterpret_cast<const char*>(&v), 4));
    return t;
  };
  for (int64_t channels : {16, 12}) {
    for (const Act& act : acts) {
      CAPTURE(channels);
      CAPTURE(act.type);
      // Unfused: conv → activation module; fused: one ConvAct2d with the same parameters.
      auto make = [&](bool fused) {
        auto gm = std::make_unique<ir::GraphModule>();
        ir::Module* conv = gm->addModule("conv", fused ? "ConvAct2d" : "Conv2d");
        conv->setTensor("weight", tensor({channels, 16, 3, 3}, 51));
        conv->setTensor("bias", tensor({channels}, 52));
        ir::Kwargs attributes = {{"pads", ints({1, 1, 1, 1})}};
        ir::Module* activation = fused ? conv : gm->addModule("act", act.type);
        std::string prefix = fused ? "activation_" : "";
        for (const auto& [key, value] : act.attributes)
          attributes.emplace_back(prefix + key, value);
        if (act.bounds_as_tensors) {
          activation->setTensor(prefix + "min", scalar(-1.5f));
          activation->setTensor(prefix + "max", scalar(2.5f));
        }
        if (fused) {
          attributes.emplace_back("activation", ir::Argument(std::string(act.type)));
          conv->attributes() = attributes;
        } else {
          conv->attributes() = {{"pads", ints({1, 1, 1, 1})}};
          activation->attributes() = act.attributes;
        }
        ir::Graph& g = gm->graph();
        ir::Node* y = g.callModule("conv", {g.placeholder("x")});
        g.output(fused ? y : g.callModule("act", {y}));
        gm->opset = 17;
        return gm;
      };
      auto unfused = make(false), fused = make(true);
      std::vector<Value> inputs = {input({2, 16, 9, 7}, 5)};
      auto want = Interpreter(*unfused, Backend::kReference).run(inputs);
      REQUIRE_MESSAGE(want.ok(), want.error());
      for (Backend backend : {Backend::kReference, Backend::kCpu}) {
        auto got = Interpreter(*fused, backend).run(inputs);
        REQUIRE_MESSAGE(got.ok(), got.error());
        CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-5);
      }
    }
  }
}

TEST_CASE(
    "LinearAct: oneDNN's post-op, the reference and the written ops equal Linear then the "
    "activation") {
  struct Act {
    const char* type;
    ir::Kwargs attributes;  // the activation module's
  };
  const std::vector<Act> acts = {
      {"GELU", {{"approximate", ir::Argument("none")}}},
      {"GELU", {{"approximate", ir::Argument("tanh")}}},
      {"GELU", {}},
      {"ReLU", {}},
      {"Hardtanh", {{"min", ir::Argument(-0.5)}, {"max", ir::Argument(1.5)}}},
      {"LeakyReLU", {{"alpha", ir::Argument(0.2)}}},
      {"Hardswish", {}},
      {"Hardsigmoid", {{"alpha", ir::Argument(1.0 / 6)}, {"beta", ir::Argument(0.5)}}},
      {"SiLU", {}},
      {"Sigmoid", {}},
      {"Tanh", {}}};
  struct Shape {
    int64_t trans_b;
    std::vector<int64_t> a, w;
    bool bias;
  };
  const std::vector<Shape> shapes = {{1, {4, 7}, {5, 7}, true},          // nn.Linear, Gemm-like
                                     {0, {2, 3, 6}, {6, 8}, true},       // MatMul + Add, rank 3
                                     {1, {2, 2, 3, 6}, {8, 6}, false}};  // no bias, rank 4
  for (const Shape& shape : shapes) {
    for (const Act& act : acts) {
      std::string type = act.type;
      CAPTURE(shape.a.size());
      CAPTURE(type);
      CAPTURE(act.attributes.size());
      auto make = [&](bool fused) {
        auto gm = std::make_unique<ir::GraphModule>();
        ir::Module* linear = gm->addModule("fc", fused ? "LinearAct" : "Linear");
        linear->setTensor("weight", tensor(shape.w, 61));
        int64_t n = shape.trans_b ? shape.w[0] : shape.w[1];
        if (shape.bias) linear->setTensor("bias", tensor({n}, 62));
        linear->attributes() = {{"transB", ir::Argument(shape.trans_b)}};
        if (fused) {
          for (const auto& [key, value] : act.attributes)
            linear->attributes().emplace_back("activation_" + key, value);
          linear->attributes().emplace_back("activation", ir::Argument(std::string(act.type)));
        } else {
          gm->addModule("act", act.type)->attributes() = act.attributes;
        }
        ir::Graph& g = gm->graph();
        ir::Node* x = g.placeholder("x");
        x->meta.value_name = "x";
        ir::Node* y = g.callModule("fc", {x});
        g.output(fused ? y : g.callModule("act", {y}));
        gm->opset = 13;
        return gm;
      };
      auto unfused = make(false), fused = make(true);
      std::vector<Value> inputs = {input(shape.a, 5)};
      auto want = Interpreter(*unfused, Backend::kReference).run(inputs);
      REQUIRE_MESSAGE(want.ok(), want.error());
      for (Backend backend : {Backend::kReference, Backend::kCpu}) {
        auto got = Interpreter(*fused, backend).run(inputs);
        REQUIRE_MESSAGE(got.ok(), got.error());
        CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-5);
      }
      // Export writes MatMul (through a Transpose when transB), Add and the activation's ops;
      // read back as plain ops (no recognition), they compute the same.
      auto again = exportAndReadBack(*fused);
      auto got = Interpreter(*again, Backend::kReference).run(inputs);
      REQUIRE_MESSAGE(got.ok(), got.error());
      CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-6);
    }
  }
}

TEST_CASE(
    "linear-bias: the add of a constant vector becomes the Linear's bias; near misses stay adds") {
  struct Case {
    int64_t trans_b;
    std::vector<int64_t> a, w, c;
    bool has_bias, constant_first, known_rank;
    const char* want;  // the pass's count
  };
  const std::vector<Case> cases = {
      {1, {4, 7}, {5, 7}, {5}, false, true, true, "fused"},           // Add(b, x @ Wᵀ)
      {0, {2, 3, 6}, {6, 8}, {8}, false, false, true, "fused"},       // rank 3, W [in, out]
      {0, {2, 3, 6}, {6, 8}, {1, 1, 8}, false, true, true, "fused"},  // [1, 1, out]
      {0, {3, 6}, {6, 8}, {1, 1, 8}, false, true, true, "refused"},   // would add a dim
      {0, {2, 3, 6}, {6, 8}, {1, 8}, false, true, false, "refused"},  // rank unknown
      {0, {2, 3, 6}, {6, 8}, {3, 8}, false, true, true, "refused"},   // not a vector
      {0, {2, 3, 6}, {6, 8}, {1}, false, true, true, "refused"},      // broadcasts one value
      {1, {4, 7}, {5, 7}, {5}, true, true, true, "nothing matched"},  // has a bias already
  };
  for (const Case& k : cases) {
    CAPTURE(k.a.size());
    CAPTURE(k.c.size());
    CAPTURE(k.want);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Module* linear = gm->addModule("fc", "Linear");
    linear->setTensor("weight", tensor(k.w, 71));
    int64_t n = k.trans_b ? k.w[0] : k.w[1];
    if (k.has_bias) linear->setTensor("bias", tensor({n}, 72));
    linear->attributes() = {{"transB", ir::Argument(k.trans_b)}};
    gm->setTensor("c", tensor(k.c, 73));
    ir::Graph& g = gm->graph();
    ir::Node* y = g.callModule("fc", {g.placeholder("x")});
    std::vector<int64_t> out_shape = k.a;
    out_shape.back() = n;
    if (k.known_rank) {
      std::vector<std::string> dims;
      for (int64_t d : out_shape) dims.push_back(std::to_string(d));
      y->meta.shape = dims;
    }
    ir::Node* c = g.getAttr("c");
    g.output(g.callFunction("operator.add", k.constant_first ? std::vector<ir::Argument>{c, y}
                                                             : std::vector<ir::Argument>{y, c}));
    std::vector<Value> inputs = {input(k.a, 5)};
    auto want = Interpreter(*gm, Backend::kReference).run(inputs);
    REQUIRE_MESSAGE(want.ok(), want.error());
    auto request = fxc::passes::parsePassSpec("linear-bias");
    REQUIRE(request.ok());
    auto result = request.value().pass->run(*gm, request.value().options);
    REQUIRE_MESSAGE(result.ok(), result.error());
    bool counted = false;
    for (const auto& [what, count] : result.value().counts) counted |= what == k.want && count == 1;
    CHECK_MESSAGE(
        (counted || (std::string(k.want) == "nothing matched" && result.value().counts.empty())),
        "linear-bias did not report " << k.want);
    size_t adds = 0;
    for (const ir::Node* node : g) adds += node->target() == "operator.add";
    CHECK(adds == (std::string(k.want) == "fused" ? 0u : 1u));
    // Whatever the pass did, the graph computes what it did before, on both backends.
    for (Backend backend : {Backend::kReference, Backend::kCpu}) {
      auto got = Interpreter(*gm, backend).run(inputs);
      REQUIRE_MESSAGE(got.ok(), got.error());
      REQUIRE(got.value()[0].shape == want.value()[0].shape);
      CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-6);
    }
    // Exported: no Gemm but on a matrix (ONNX's Gemm takes rank 2: one on x [2, 3, 6] was a
    // model ONNX Runtime refuses to load), and read back, the same function.
    auto exported = fxc::onnx::exportModel(*gm);
    REQUIRE_MESSAGE(exported.ok(), exported.error());
    size_t gemms = 0;
    for (const auto& node : exported.value().proto->graph().node())
      gemms += node.op_type() == "Gemm";
    if (k.a.size() != 2) CHECK(gemms == 0);
    auto again = exportAndReadBack(*gm);
    auto got = runOn(*again, inputs, Backend::kReference);
    REQUIRE(got[0].shape == want.value()[0].shape);
    CHECK(normalizedError(got[0], want.value()[0]) < 1e-6);
  }
}

TEST_CASE(
    "channel-shuffle: reshape, permute, reshape proved a channel shuffle; slices stay native") {
  // x → Conv2d (channels-last on oneDNN, or a plain input) → reshape [N, g, C/g, H, W] →
  // permute (0, 2, 1, 3, 4) → reshape [N, C, H, W] → Slice of channels (ShuffleNet's chunk) →
  // a 1×1 Conv2d, and the other half as an output. Pure data movement: after the pass every
  // output equals, bit for bit, what the graph as written gives on the same backend (the
  // convolutions are the same kernels; the shuffle, the slices and their layouts are not).
  // Near misses stay as written.
  auto shapeTensor = [](std::vector<int64_t> values) {
    auto t = std::make_shared<ir::Tensor>();
    t->dtype = ir::DType::kInt64;
    t->dims = {static_cast<int64_t>(values.size())};
    t->setBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 8));
    return t;
  };
  struct Case {
    const char* what;
    int64_t channels = 12;
    std::vector<int64_t> split = {2, 2, 6, 5, 7}, merged = {2, 12, 5, 7}, perm = {0, 2, 1, 3, 4};
    bool conv_first = true, known_shape = true, permute_read_twice = false;
    int64_t shuffled = 1;
  };
  // Each case: g 2 after a convolution (channels-last), changed as it says.
  auto with = variant<Case>;
  const std::vector<Case> cases = {
      with("g 2 after a convolution (channels-last)", [](Case&) {}),
      with("g 3, targets with 0 and -1",
           [](Case& k) {
             k.split = {0, 3, -1, 5, 7};
             k.merged = {2, -1, 5, 7};
           }),
      with("g 2 of a plain input", [](Case& k) { k.conv_first = false; }),
      with("another permutation",
           [](Case& k) {
             k.perm = {0, 1, 2, 4, 3};
             k.shuffled = 0;
           }),
      with("the second reshape is another shape",
           [](Case& k) {
             k.merged = {2, 12, 7, 5};
             k.shuffled = 0;
           }),
      with("the first reshape splits the width",
           [](Case& k) {
             k.split = {2, 12, 5, 7, 1};
             k.shuffled = 0;
           }),
      with("the input's shape unknown",
           [](Case& k) {
             k.known_shape = false;
             k.shuffled = 0;
           }),
      with("the permute read twice",
           [](Case& k) {
             k.permute_read_twice = true;
             k.shuffled = 0;
           }),
  };
  for (const Case& k : cases) {
    std::string what = k.what;
    CAPTURE(what);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Module* first = gm->addModule("a", "Conv2d");
    first->setTensor("weight", tensor({k.channels, 4, 1, 1}, 81));
    ir::Module* last = gm->addModule("b", "Conv2d");
    last->setTensor("weight", tensor({8, k.channels / 2, 1, 1}, 82));
    gm->setTensor("split", shapeTensor(k.split));
    gm->setTensor("merged", shapeTensor(k.merged));
    gm->setTensor("starts", shapeTensor({0}));
    gm->setTensor("middle", shapeTensor({k.channels / 2}));
    gm->setTensor("ends", shapeTensor({INT64_MAX}));
    gm->setTensor("axes", shapeTensor({-3}));
    gm->setTensor("row_start", shapeTensor({1}));
    gm->setTensor("row_end", shapeTensor({-1}));
    gm->setTensor("row_axis", shapeTensor({2}));
    ir::Graph& g = gm->graph();
    ir::Node* x = g.placeholder("x");
    ir::Node* value = k.conv_first ? g.callModule("a", {x}) : x;
    if (k.known_shape)
      value->meta.shape = std::vector<std::string>{"2", std::to_string(k.channels), "5", "7"};
    ir::Node* split = g.callFunction("torch.reshape", {value, g.getAttr("split")});
    ir::Node* permuted = g.callFunction("torch.permute", {split}, {{"perm", ints(k.perm)}});
    ir::Node* merged = g.callFunction("torch.reshape", {permuted, g.getAttr("merged")});
    ir::Node* low = g.callFunction(
        "onnx.Slice", {merged, g.getAttr("starts"), g.getAttr("middle"), g.getAttr("axes")});
    ir::Node* high = g.callFunction(
        "onnx.Slice", {merged, g.getAttr("middle"), g.getAttr("ends"), g.getAttr("axes")});
    // Rows 1 to 3 of every channel: a window that is no channel range (the reorder path).
    ir::Node* rows = g.callFunction("onnx.Slice", {merged, g.getAttr("row_start"),
                                                   g.getAttr("row_end"), g.getAttr("row_axis")});
    std::vector<ir::Argument> outs = {ir::Argument(g.callModule("b", {high})), ir::Argument(low),
                                      ir::Argument(rows)};
    if (k.permute_read_twice) outs.emplace_back(permuted);
    g.output(ir::Argument::tuple(outs));
    std::vector<Value> inputs = {k.conv_first ? input({2, 4, 5, 7}, 9) : input({2, 12, 5, 7}, 9)};
    auto want = runOnBoth(*gm, inputs);
    auto request = fxc::passes::parsePassSpec("channel-shuffle");
    REQUIRE(request.ok());
    auto result = request.value().pass->run(*gm, request.value().options);
    REQUIRE_MESSAGE(result.ok(), result.error());
    int64_t shuffled = 0, shuffles = 0, permutes = 0;
    for (const auto& [name, count] : result.value().counts)
      shuffled += name == "shuffled" ? count : 0;
    for (const ir::Node* node : g) {
      shuffles += node->target() == "torch.nn.functional.channel_shuffle";
      permutes += node->target() == "torch.permute";
    }
    CHECK(shuffled == k.shuffled);
    CHECK(shuffles == k.shuffled);
    CHECK(permutes == 1 - k.shuffled);
    CHECK(ir::lintGraph(g, gm.get()).empty());
    auto got = runOnBoth(*gm, inputs);
    for (size_t b = 0; b < 2; ++b) checkSameBits(got[b], want[b]);
    // Export writes the shuffle back as Reshape, Transpose, Reshape; read back as plain ops
    // (no recognition) on the reference kernels, the outputs are the same bits. (No checker
    // here: the graph made in C++ has no types for its input and outputs.)
    auto again = exportAndReadBack(*gm);
    int64_t transposes = 0;
    for (const ir::Node* node : again->graph())
      transposes += node->target() == "torch.permute" || node->target() == "onnx.Transpose";
    CHECK(transposes == 1);
    checkSameBits(runOn(*again, inputs, Backend::kReference), want[0]);
  }
}

// The attention pass against the graph as written: on the reference kernels the same bits (the
// same products, scaling, sum and softmax per element), on the CPU backend within 1e-6 of the
// range (its products may sum in another order), NaN where the written graph has NaN (a row
// masked throughout); each near miss left as written. Blocks: 80 × 900 scores is 73,728 floats,
// more than one block (65,536), so a head runs in two blocks of 72 and 8 rows.
TEST_CASE("attention: matmul, scale, mask, softmax, matmul as one fxc.Attention") {
  struct Case {
    const char* what = "";
    std::vector<int64_t> a = {3, 80, 16}, b = {3, 16, 900}, v = {3, 900, 8};
    std::vector<int64_t> mask = {80, 900};  // empty: no mask
    int scale = 1;                          // 0 none, 1 Mul (scale first), 2 Div
    std::vector<int64_t> scale_shape = {1};
    int64_t axis = -1;
    bool masked_row = false;   // a row of -inf: NaN throughout
    bool second_user = false;  // the softmax's output read by another op too
    bool shapes_known = true;
    std::string options;
    int fused = 1;
  };
  auto with = [](const char* what, const std::function<void(Case&)>& change) {
    return variant<Case>(what, change);
  };
  const std::vector<Case> cases = {
      with("scale and mask", [](Case&) {}),
      with("no scale, no mask",
           [](Case& k) {
             k.scale = 0;
             k.mask.clear();
           }),
      with("divided, mask per head",
           [](Case& k) {
             k.scale = 2;
             k.mask = {3, 1, 900};
           }),
      with("a row masked throughout", [](Case& k) { k.masked_row = true; }),
      with("rank 4, axis 3, a [1, 1] scale",
           [](Case& k) {
             k.a = {2, 2, 80, 16};
             k.b = {2, 2, 16, 900};
             k.v = {2, 2, 900, 8};
             k.mask = {1, 2, 80, 900};
             k.axis = 3;
             k.scale_shape = {1, 1};
           }),
      with("small heads: below min-scores",
           [](Case& k) {
             k.a = {3, 16, 16};
             k.b = {3, 16, 16};
             k.v = {3, 16, 8};
             k.mask = {16, 16};
             k.fused = 0;
           }),
      with("small heads, min-scores 0",
           [](Case& k) {
             k.a = {3, 16, 16};
             k.b = {3, 16, 16};
             k.v = {3, 16, 8};
             k.mask = {16, 16};
             k.options = ":min-scores=0";
           }),
      with("no keys (Lk 0), min-scores 0",
           [](Case& k) {
             k.b = {3, 16, 0};
             k.v = {3, 0, 8};
             k.mask.clear();
             k.options = ":min-scores=0";
           }),
      with("softmax along another axis",
           [](Case& k) {
             k.axis = 1;
             k.fused = 0;
           }),
      with("the mask enlarges the scores",
           [](Case& k) {
             k.a = {1, 80, 16};
             k.b = {1, 16, 900};
             k.v = {1, 900, 8};
             k.mask = {3, 80, 900};
             k.fused = 0;
           }),
      with("a scale of two elements",
           [](Case& k) {
             k.scale_shape = {2, 1, 1};
             k.a = {2, 80, 16};
             k.b = {2, 16, 900};
             k.v = {2, 900, 8};
             k.fused = 0;
           }),
      with("b broadcast over the heads",
           [](Case& k) {
             k.b = {1, 16, 900};
             k.fused = 0;
           }),
      with("the probabilities read twice",
           [](Case& k) {
             k.second_user = true;
             k.fused = 0;
           }),
      with("shapes unknown",
           [](Case& k) {
             k.shapes_known = false;
             k.fused = 0;
           }),
  };
  for (const Case& k : cases) {
    std::string what = k.what;
    CAPTURE(what);
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Graph& g = gm->graph();
    auto known = [&](ir::Node* node, const std::vector<int64_t>& dims) {
      node->meta.dtype = "float32";
      if (!k.shapes_known) return node;
      std::vector<std::string> shape;
      for (int64_t d : dims) shape.push_back(std::to_string(d));
      node->meta.shape = shape;
      return node;
    };
    std::vector<int64_t> scores_shape = k.a;
    scores_shape.back() = k.b.back();
    std::vector<int64_t> out_shape = k.a;
    out_shape.back() = k.v.back();
    ir::Node* a = known(g.placeholder("a"), k.a);
    ir::Node* b = known(g.placeholder("b"), k.b);
    ir::Node* v = known(g.placeholder("v"), k.v);
    ir::Node* x = known(g.callFunction("operator.matmul", {a, b}), scores_shape);
    if (k.scale != 0) {
      auto c = tensor(k.scale_shape, 7);
      gm->setTensor("scale", c);
      ir::Node* scale = known(g.getAttr("scale"), k.scale_shape);
      x = known(k.scale == 1 ? g.callFunction("operator.mul", {scale, x})
                             : g.callFunction("operator.truediv", {x, scale}),
                scores_shape);
    }
    std::vector<Value> inputs = {input(k.a, 1), input(k.b, 2), input(k.v, 3)};
    if (!k.mask.empty()) {
      ir::Node* mask = known(g.placeholder("mask"), k.mask);
      x = known(g.callFunction("operator.add", {x, mask}), scores_shape);
      Value m = input(k.mask, 4);
      int64_t row = k.mask.back();
      // Causal above the diagonal, and (masked_row) all of row 5.
      for (size_t e = 0; e < m.f.size(); ++e) {
        int64_t j = static_cast<int64_t>(e) % row, i = static_cast<int64_t>(e) / row;
        if (k.mask.size() >= 2 && j > (i % k.mask[k.mask.size() - 2]) + 400)
          m.f[e] = -std::numeric_limits<float>::infinity();
        if (k.masked_row && i == 5) m.f[e] = -std::numeric_limits<float>::infinity();
      }
      inputs.push_back(m);
    }
    ir::Node* p =
        known(g.callFunction("torch.softmax", {x}, {{"axis", ir::Argument(k.axis)}}), scores_shape);
    ir::Node* y = known(g.callFunction("operator.matmul", {p, v}), out_shape);
    if (k.second_user)
      g.output(ir::Argument::tuple({ir::Argument(y), ir::Argument(p)}));
    else
      g.output(y);
    auto want = runOnBoth(*gm, inputs);
    auto request = fxc::passes::parsePassSpec("attention" + k.options);
    REQUIRE(request.ok());
    auto result = request.value().pass->run(*gm, request.value().options);
    REQUIRE_MESSAGE(result.ok(), result.error());
    int64_t fused = 0, softmaxes = 0;
    for (const ir::Node* node : g) {
      fused += node->target() == "fxc.Attention";
      softmaxes += node->target() == "torch.softmax";
    }
    CHECK(fused == k.fused);
    CHECK(softmaxes == 1 - k.fused);
    CHECK(ir::lintGraph(g, gm.get()).empty());
    auto got = runOnBoth(*gm, inputs);
    checkSameBits(got[0], want[0]);
    for (size_t o = 0; o < want[1].size(); ++o) {
      size_t nans = 0, nan_mismatch = 0;
      Value finite_got = got[1][o], finite_want = want[1][o];
      for (size_t e = 0; e < finite_want.f.size(); ++e) {
        bool a_nan = std::isnan(finite_got.f[e]), w_nan = std::isnan(finite_want.f[e]);
        nans += w_nan;
        nan_mismatch += a_nan != w_nan;
        if (a_nan || w_nan) finite_got.f[e] = finite_want.f[e] = 0;
      }
      CHECK(nan_mismatch == 0);
      if (k.fused) CHECK((nans > 0) == k.masked_row);
      CHECK(normalizedError(finite_got, finite_want) < 1e-6);
    }
    // Export writes the ops back (MatMul, Mul or Div, Add, Softmax, MatMul); read back as plain
    // ops on the reference kernels, the outputs are the same bits.
    auto again = exportAndReadBack(*gm);
    checkSameBits(runOn(*again, inputs, Backend::kReference), want[0]);
  }
}

// Found by a near-miss review: an op that reads one intermediate twice (s + s, p @ p) counts it
// as one user, and the fused op then read the node it replaced (an internal error on erasing
// it); and a model whose declared shapes say rank 3 where its run has rank 4 let the pass take
// the softmax's axis 2 for the last, which the kernel then did not apply (wrong numbers).
TEST_CASE("attention: an intermediate that is also an operand, and declared shapes a run denies") {
  auto known = [](ir::Node* node, std::vector<int64_t> dims) {
    node->meta.dtype = "float32";
    std::vector<std::string> shape;
    for (int64_t d : dims) shape.push_back(std::to_string(d));
    node->meta.shape = shape;
    return node;
  };
  auto fuse = [](ir::GraphModule& gm) {
    auto request = fxc::passes::parsePassSpec("attention:min-scores=0");
    REQUIRE(request.ok());
    auto result = request.value().pass->run(gm, request.value().options);
    REQUIRE_MESSAGE(result.ok(), result.error());
    int64_t fused = 0;
    for (const ir::Node* node : gm.graph()) fused += node->target() == "fxc.Attention";
    CHECK(ir::lintGraph(gm.graph(), &gm).empty());
    return fused;
  };
  std::vector<int64_t> dims = {2, 8, 8};
  // a, b, v of `dims`; s = a @ b (s + s when `add_twice`); softmax(s) along `axis`; its product
  // with v (with itself when `p_twice`).
  auto attention = [&](bool add_twice, bool p_twice, int64_t axis) {
    auto gm = std::make_unique<ir::GraphModule>();
    gm->opset = 17;
    ir::Graph& g = gm->graph();
    ir::Node* a = known(g.placeholder("a"), dims);
    ir::Node* b = known(g.placeholder("b"), dims);
    ir::Node* v = known(g.placeholder("v"), dims);
    ir::Node* s = known(g.callFunction("operator.matmul", {a, b}), dims);
    if (add_twice) s = known(g.callFunction("operator.add", {s, s}), dims);
    ir::Node* p =
        known(g.callFunction("torch.softmax", {s}, {{"axis", ir::Argument(axis)}}), dims);
    g.output(known(g.callFunction("operator.matmul", {p, p_twice ? p : v}), dims));
    return gm;
  };
  for (int twice = 0; twice < 2; ++twice) {  // softmax(s + s) @ v, then p @ p
    CAPTURE(twice);
    auto gm = attention(twice == 0, twice == 1, -1);
    std::vector<Value> inputs = {input(dims, 1), input(dims, 2), input(dims, 3)};
    auto want = runOn(*gm, inputs, Backend::kReference);
    CHECK(fuse(*gm) == 0);
    checkSameBits(runOn(*gm, inputs, Backend::kReference), want);
  }
  // Declared rank 3, softmax along axis 2; run on rank 4: the fused kernel refuses.
  auto gm = attention(false, false, 2);
  CHECK(fuse(*gm) == 1);
  std::vector<int64_t> actual = {2, 2, 8, 8};
  for (Backend backend : {Backend::kReference, Backend::kCpu}) {
    auto ran =
        Interpreter(*gm, backend).run({input(actual, 1), input(actual, 2), input(actual, 3)});
    REQUIRE_FALSE(ran.ok());
    CHECK(ran.error().find("the softmax's axis 2 is not the last of scores of rank 4") !=
          std::string::npos);
  }
}

TEST_CASE("Linear on oneDNN's matmul (weight packed once, bias fused) equals the reference") {
  struct Case {
    int64_t trans_b;
    std::vector<int64_t> a, b, c;
  };
  const std::vector<Case> cases = {
      {1, {4, 7}, {5, 7}, {5}},              // nn.Linear: W [out, in]
      {0, {2, 3, 6}, {6, 8}, {1, 8}},        // MatMul + Add of an unfolded export, 3-D input
      {1, {2, 2, 3, 6}, {8, 6}, {}},         // no bias, 4-D input
      {0, {4, 7}, {7, 5}, {4, 1}},           // a bias per row: the general path
      {1, {1, 197, 64}, {192, 64}, {192}}};  // ViT-like
  for (const Case& k : cases) {
    CAPTURE(k.trans_b);
    CAPTURE(k.a.size());
    std::vector<std::pair<std::string, std::vector<int64_t>>> tensors = {{"weight", k.b}};
    if (!k.c.empty()) tensors.push_back({"bias", k.c});
    auto gm = oneModule("Linear", tensors, {{"transB", ir::Argument(k.trans_b)}});
    checkBackendsAgree(*gm, {input(k.a, 5)});
  }
  // One interpreter, two batch sizes: the plan is made again for the new M.
  auto gm = oneModule("Linear", {{"weight", {5, 7}}, {"bias", {5}}}, {{"transB", ir::Argument(1)}});
  Interpreter reference(*gm, Backend::kReference), fast(*gm, Backend::kCpu);
  for (int64_t batch : {3, 9, 0, 3}) {  // an empty batch takes the general path
    CAPTURE(batch);
    std::vector<Value> inputs = {input({batch, 7}, static_cast<uint32_t>(batch))};
    auto want = reference.run(inputs);
    auto got = fast.run(inputs);
    REQUIRE(want.ok());
    REQUIRE(got.ok());
    CHECK(normalizedError(got.value()[0], want.value()[0]) < 1e-5);
  }
}
