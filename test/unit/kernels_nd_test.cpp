// The N-D reference kernels (kernels_nd.cpp) against the 2-D reference kernels on 2-D data: the
// same module tensors and attributes under the 3-D module type and the 2-D one, over strides,
// pads, dilations, groups, ceil_mode and count_include_pad.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "exec/interpreter.h"
#include "ir/graph_module.h"

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

ir::Argument ints(std::vector<int64_t> values) {
  std::vector<ir::Argument> items(values.begin(), values.end());
  return ir::Argument::list(std::move(items));
}

// x → module `type` with seeded tensors of the given shapes → output.
std::unique_ptr<ir::GraphModule> oneModule(
    const std::string& type,
    const std::vector<std::pair<std::string, std::vector<int64_t>>>& tensors,
    ir::Kwargs attributes) {
  auto gm = std::make_unique<ir::GraphModule>();
  ir::Module* module = gm->addModule("m", type);
  uint32_t seed = 100;
  for (const auto& [name, dims] : tensors) {
    auto t = std::make_shared<ir::Tensor>();
    t->dtype = ir::DType::kFloat32;
    t->dims = dims;
    std::vector<float> data = randomFloats(static_cast<size_t>(t->numel()), seed++);
    t->setBytes(std::string(reinterpret_cast<const char*>(data.data()), data.size() * 4));
    module->setTensor(name, t);
  }
  module->attributes() = std::move(attributes);
  gm->graph().output(gm->graph().callModule("m", {ir::Argument(gm->graph().placeholder("x"))}));
  gm->opset = 17;
  return gm;
}

// Runs `two_d` and `n_d` (the same tensors and attributes) on one seeded input; they must agree.
void checkAgree(const std::string& two_d, const std::string& n_d,
                const std::vector<std::pair<std::string, std::vector<int64_t>>>& tensors,
                const ir::Kwargs& attributes, std::vector<int64_t> shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  std::vector<Value> inputs = {Value::floats(shape, randomFloats(n, 7))};
  auto reference = oneModule(two_d, tensors, attributes),
       general = oneModule(n_d, tensors, attributes);
  auto want = Interpreter(*reference, Backend::kReference).run(inputs);
  auto got = Interpreter(*general, Backend::kReference).run(inputs);
  REQUIRE_MESSAGE(want, (want ? "" : want.error()));
  REQUIRE_MESSAGE(got, (got ? "" : got.error()));
  const Value& a = want.value()[0];
  const Value& b = got.value()[0];
  REQUIRE(a.shape == b.shape);
  double worst = 0;
  for (size_t k = 0; k < a.f.size(); ++k)
    worst = std::max(worst, static_cast<double>(std::fabs(a.f[k] - b.f[k])) /
                                std::max(1.0, static_cast<double>(std::fabs(a.f[k]))));
  CHECK(worst < 1e-5);
}

}  // namespace

TEST_CASE("N-D convolution equals the 2-D reference on 2-D data") {
  struct Case {
    int64_t cin, cout, k, stride, dilation, group;
    std::vector<int64_t> pads;
  };
  for (const Case& c : std::vector<Case>{{3, 4, 3, 1, 1, 1, {1, 1, 1, 1}},
                                         {4, 6, 3, 2, 2, 2, {0, 1, 2, 0}},
                                         {6, 6, 2, 3, 1, 6, {1, 0, 0, 1}}}) {
    CAPTURE(c.group);
    checkAgree("Conv2d", "Conv3d",
               {{"weight", {c.cout, c.cin / c.group, c.k, c.k}}, {"bias", {c.cout}}},
               {{"strides", ints({c.stride, c.stride})},
                {"dilations", ints({c.dilation, c.dilation})},
                {"pads", ints(c.pads)},
                {"group", ir::Argument(c.group)}},
               {2, c.cin, 9, 11});
  }
}

TEST_CASE("N-D transposed convolution equals the 2-D reference on 2-D data") {
  struct Case {
    int64_t cin, cout_g, k, stride, dilation, group, extra;
    std::vector<int64_t> pads;
  };
  for (const Case& c : std::vector<Case>{{3, 2, 3, 1, 1, 1, 0, {0, 0, 0, 0}},
                                         {4, 3, 3, 3, 1, 2, 1, {1, 2, 1, 2}},
                                         {2, 2, 2, 2, 2, 1, 1, {0, 1, 1, 0}}}) {
    CAPTURE(c.group);
    checkAgree("ConvTranspose2d", "ConvTranspose3d",
               {{"weight", {c.cin, c.cout_g, c.k, c.k}}, {"bias", {c.cout_g * c.group}}},
               {{"strides", ints({c.stride, c.stride})},
                {"dilations", ints({c.dilation, c.dilation})},
                {"pads", ints(c.pads)},
                {"output_padding", ints({c.extra, c.extra})},
                {"group", ir::Argument(c.group)}},
               {1, c.cin, 5, 4});
  }
}

TEST_CASE("N-D pooling equals the 2-D reference on 2-D data") {
  struct Case {
    bool max;
    int64_t k, stride, dilation, ceil_mode, include_pad;
    std::vector<int64_t> pads;
  };
  for (const Case& c : std::vector<Case>{{true, 3, 2, 1, 0, 0, {1, 1, 1, 1}},
                                         {true, 3, 2, 2, 1, 0, {0, 1, 1, 0}},
                                         {false, 3, 1, 1, 0, 1, {1, 1, 1, 1}},
                                         {false, 3, 2, 1, 1, 1, {1, 1, 1, 1}},
                                         {false, 2, 2, 1, 1, 0, {0, 0, 0, 0}}}) {
    CAPTURE(c.max);
    CAPTURE(c.ceil_mode);
    ir::Kwargs attributes = {{"kernel_shape", ints({c.k, c.k})},
                             {"strides", ints({c.stride, c.stride})},
                             {"pads", ints(c.pads)},
                             {"ceil_mode", ir::Argument(c.ceil_mode)},
                             {"count_include_pad", ir::Argument(c.include_pad)}};
    if (c.max) attributes.emplace_back("dilations", ints({c.dilation, c.dilation}));
    checkAgree(c.max ? "MaxPool2d" : "AvgPool2d", c.max ? "MaxPool3d" : "AvgPool3d", {}, attributes,
               {2, 3, 10, 9});
  }
}
