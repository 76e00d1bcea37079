#include "ir/patterns.h"

#include <algorithm>
#include <cmath>

namespace fxc::ir {

Pattern paddedAveragePool() {
  Pattern p;
  int x = p.input("x");
  auto constant_mode = [](const Argument& a) {
    return a.kind() == Argument::Kind::kString && a.toString() == "constant";
  };
  int padded = p.op("torch.nn.functional.pad", {x, p.constant("pads")},
                    {false, kwargsAre({{"mode", constant_mode}})});
  auto any_int = [](const Argument& a) { return a.kind() == Argument::Kind::kInt; };
  p.setOutput(p.label(p.op("torch.nn.functional.avg_pool2d", {padded},
                           {false, kwargsAre({{"kernel_shape", anyIntList()},
                                              {"strides", anyIntList()},
                                              {"pads", anyIntList()},
                                              {"dilations", anyIntList()},
                                              {"ceil_mode", any_int},
                                              {"count_include_pad", any_int}})}),
                      "pool"));
  return p;
}

std::optional<Kwargs> paddedAveragePoolKwargs(const Match& match, std::string* why) {
  auto pads = tensorValues(*match.constant("pads"));
  const Node& pool = *match.node("pool");
  auto zeros = [](const std::vector<int64_t>& v) {
    return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
  };
  std::vector<int64_t> dilations = intList(pool.kwarg("dilations"));
  if (!pads || pads->size() != 8 || (*pads)[0] != 0 || (*pads)[1] != 0 || (*pads)[4] != 0 ||
      (*pads)[5] != 0 || !zeros(intList(pool.kwarg("pads"))) ||
      std::any_of(dilations.begin(), dilations.end(), [](int64_t d) { return d != 1; })) {
    *why = "the Pad is not over H and W alone, or the pool has pads or dilations of its own";
    return std::nullopt;
  }
  std::vector<int64_t> spatial;
  for (size_t k : {2, 3, 6, 7}) {
    double v = (*pads)[k];
    if (v < 0 || v != std::floor(v)) {
      *why = "negative or fractional pads";
      return std::nullopt;
    }
    spatial.push_back(static_cast<int64_t>(v));
  }
  // spatial is [H begin, W begin, H end, W end]. ONNX Runtime refuses an AveragePool whose pad
  // reaches the kernel's size (pool_attributes.h: "Pad should be smaller than kernel"), so such
  // a pair stays two ops: the model fxc writes must load where the one it read did.
  std::vector<int64_t> kernel = intList(pool.kwarg("kernel_shape"));
  if (kernel.size() != 2 || spatial[0] >= kernel[0] || spatial[2] >= kernel[0] ||
      spatial[1] >= kernel[1] || spatial[3] >= kernel[1]) {
    *why = "a pad as large as the kernel (ONNX's AveragePool wants it smaller)";
    return std::nullopt;
  }
  Kwargs attributes = pool.kwargs();
  if (zeros(spatial)) return attributes;
  const Argument* ceil = pool.kwarg("ceil_mode");
  if (ceil && ceil->toInt() != 0) {
    *why = "ceil_mode with padding";
    return std::nullopt;
  }
  std::vector<Argument> items(spatial.begin(), spatial.end());
  Kwargs merged;
  for (auto& [key, value] : attributes) {
    if (key != "pads" && key != "count_include_pad") merged.emplace_back(key, value);
  }
  merged.emplace_back("pads", Argument::list(std::move(items)));
  merged.emplace_back("count_include_pad", Argument(int64_t{1}));
  return merged;
}

}  // namespace fxc::ir
