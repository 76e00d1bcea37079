#include "ir/torch_call.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace fxc::ir {
namespace {

using Rewrite = std::optional<TorchCall> (*)(const Node&);

// The kwargs other than `allowed` make the ONNX op something PyTorch's call does not compute.
bool onlyKwargs(const Node& node, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : node.kwargs()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || key == name;
    if (!known) return false;
  }
  return true;
}

bool allNodes(const std::vector<Argument>& args) {
  for (const Argument& arg : args) {
    if (!arg.isNode()) return false;
  }
  return true;
}

std::optional<int64_t> intKwarg(const Node& node, std::string_view key, int64_t fallback) {
  const Argument* value = node.kwarg(key);
  if (!value) return fallback;
  if (value->kind() != Argument::Kind::kInt) return std::nullopt;
  return value->toInt();
}

// The ints of a list kwarg, or nullopt.
std::optional<std::vector<int64_t>> intsKwarg(const Node& node, std::string_view key) {
  const Argument* value = node.kwarg(key);
  if (!value || !value->isSequence()) return std::nullopt;
  std::vector<int64_t> out;
  for (const Argument& item : value->items()) {
    if (item.kind() != Argument::Kind::kInt) return std::nullopt;
    out.push_back(item.toInt());
  }
  return out;
}

Argument intTuple(const std::vector<int64_t>& values) {
  std::vector<Argument> items(values.begin(), values.end());
  return Argument::tuple(std::move(items));
}
Argument intList(const std::vector<int64_t>& values) {
  std::vector<Argument> items(values.begin(), values.end());
  return Argument::list(std::move(items));
}

std::optional<size_t> knownRank(const Node& input) {
  if (!input.meta.shape) return std::nullopt;
  return input.meta.shape->size();
}

// torch.flatten(x, 1): ONNX's Flatten with axis 1 (its default) on input of rank 2 or more.
std::optional<TorchCall> flatten(const Node& node) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() || !onlyKwargs(node, {"axis"})) return std::nullopt;
  auto axis = intKwarg(node, "axis", 1);
  auto rank = knownRank(*args[0].toNode());
  if (axis != 1 || (rank && *rank < 2)) return std::nullopt;
  return TorchCall{{args[0], Argument(int64_t{1})}, {}};
}

// torch.cat([a, b], axis)
std::optional<TorchCall> cat(const Node& node) {
  const auto& args = node.args();
  auto axis = intKwarg(node, "axis", 0);
  if (args.empty() || !allNodes(args) || !node.kwarg("axis") || !axis ||
      !onlyKwargs(node, {"axis"}))
    return std::nullopt;
  return TorchCall{{Argument::list(args), Argument(*axis)}, {}};
}

// GlobalAveragePool on NCHW: adaptive_avg_pool2d(x, (1, 1)).
std::optional<TorchCall> adaptiveAvgPool2d(const Node& node) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() || !node.kwargs().empty()) return std::nullopt;
  auto rank = knownRank(*args[0].toNode());
  if (rank && *rank != 4) return std::nullopt;
  return TorchCall{{args[0], intTuple({1, 1})}, {}};
}

// max_pool2d / avg_pool2d (x, kernel_size, stride, padding, ...): pads must be symmetric.
template <bool kMax>
std::optional<TorchCall> pool2d(const Node& node) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() ||
      !onlyKwargs(node, {"kernel_shape", "strides", "pads", "ceil_mode", "dilations",
                         "count_include_pad", "auto_pad"}))
    return std::nullopt;
  if (const Argument* pad = node.kwarg("auto_pad");
      pad && (pad->kind() != Argument::Kind::kString || pad->toString() != "NOTSET"))
    return std::nullopt;
  auto kernel = intsKwarg(node, "kernel_shape");
  if (!kernel || kernel->size() != 2) return std::nullopt;
  std::vector<int64_t> strides = intsKwarg(node, "strides").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> pads = intsKwarg(node, "pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  std::vector<int64_t> dilations =
      intsKwarg(node, "dilations").value_or(std::vector<int64_t>{1, 1});
  if (strides.size() != 2 || pads.size() != 4 || dilations.size() != 2 || pads[0] != pads[2] ||
      pads[1] != pads[3])
    return std::nullopt;
  // PyTorch pads at most half a window; ONNX any amount.
  if (2 * pads[0] > (*kernel)[0] || 2 * pads[1] > (*kernel)[1]) return std::nullopt;
  auto ceil_mode = intKwarg(node, "ceil_mode", 0);
  auto count_include_pad = intKwarg(node, "count_include_pad", 0);
  if (!ceil_mode || !count_include_pad) return std::nullopt;
  TorchCall call{{args[0], intTuple(*kernel), intTuple(strides), intTuple({pads[0], pads[1]})}, {}};
  if (kMax) {
    if (dilations != std::vector<int64_t>{1, 1}) call.args.push_back(intTuple(dilations));
  } else if (dilations != std::vector<int64_t>{1, 1}) {
    return std::nullopt;
  }
  if (*ceil_mode) call.kwargs.emplace_back("ceil_mode", Argument(true));
  // ONNX counts only the real elements by default, PyTorch the padding too.
  if (!kMax && (pads[0] || pads[1]) && !*count_include_pad)
    call.kwargs.emplace_back("count_include_pad", Argument(false));
  return call;
}

// conv{1,2,3}d(x, w, b, stride, padding, dilation, groups): symmetric pads only.
template <size_t kRank>
std::optional<TorchCall> convolution(const Node& node) {
  const auto& args = node.args();
  if (args.size() < 2 || args.size() > 3 || !args[0].isNode() || !args[1].isNode() ||
      (args.size() == 3 && !args[2].isNode() && !args[2].isNone()) ||
      !onlyKwargs(node, {"kernel_shape", "strides", "pads", "dilations", "group", "auto_pad"}))
    return std::nullopt;
  if (const Argument* pad = node.kwarg("auto_pad");
      pad && (pad->kind() != Argument::Kind::kString || pad->toString() != "NOTSET"))
    return std::nullopt;
  std::vector<int64_t> ones(kRank, 1), zeros(2 * kRank, 0);
  std::vector<int64_t> strides = intsKwarg(node, "strides").value_or(ones);
  std::vector<int64_t> dilations = intsKwarg(node, "dilations").value_or(ones);
  std::vector<int64_t> pads = intsKwarg(node, "pads").value_or(zeros);
  auto group = intKwarg(node, "group", 1);
  if (strides.size() != kRank || dilations.size() != kRank || pads.size() != 2 * kRank || !group)
    return std::nullopt;
  if (auto kernel = intsKwarg(node, "kernel_shape");
      node.kwarg("kernel_shape") && (!kernel || kernel->size() != kRank))
    return std::nullopt;
  std::vector<int64_t> padding(pads.begin(), pads.begin() + kRank);
  if (!std::equal(padding.begin(), padding.end(), pads.begin() + kRank)) return std::nullopt;
  return TorchCall{{args[0], args[1], args.size() == 3 ? args[2] : Argument(), intTuple(strides),
                    intTuple(padding), intTuple(dilations), Argument(*group)},
                   {}};
}

// torch.mean(x, [axes], keepdim): ReduceMean with its axes as an attribute (before opset 18).
// Of floats only: torch.sum of an int32 tensor is int64, and torch.mean refuses integers.
std::optional<TorchCall> reduction(const Node& node) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() || !onlyKwargs(node, {"axes", "keepdims"}))
    return std::nullopt;
  const std::string& dtype = args[0].toNode()->meta.dtype;
  if (!dtype.empty() && dtype != "float32" && dtype != "float64" && dtype != "float16")
    return std::nullopt;
  auto axes = intsKwarg(node, "axes");
  auto keepdims = intKwarg(node, "keepdims", 1);
  if (!axes || axes->empty() || !keepdims) return std::nullopt;
  TorchCall call{{args[0], intList(*axes)}, {}};
  if (*keepdims) call.args.emplace_back(true);
  return call;
}

// torch.permute(x, [perm])
std::optional<TorchCall> permute(const Node& node) {
  const auto& args = node.args();
  auto perm = intsKwarg(node, "perm");
  if (args.size() != 1 || !args[0].isNode() || !perm || !onlyKwargs(node, {"perm"}))
    return std::nullopt;
  return TorchCall{{args[0], intList(*perm)}, {}};
}

// A function of one tensor whose ONNX attribute is PyTorch's second parameter, or absent.
std::optional<TorchCall> withScalar(const Node& node, std::string_view attribute) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() || !onlyKwargs(node, {attribute})) return std::nullopt;
  TorchCall call{{args[0]}, {}};
  if (const Argument* value = node.kwarg(attribute)) call.args.push_back(*value);
  return call;
}
std::optional<TorchCall> leakyRelu(const Node& node) { return withScalar(node, "alpha"); }
std::optional<TorchCall> elu(const Node& node) { return withScalar(node, "alpha"); }

// gelu(x, approximate = 'tanh')
std::optional<TorchCall> gelu(const Node& node) {
  const auto& args = node.args();
  if (args.size() != 1 || !args[0].isNode() || !onlyKwargs(node, {"approximate"}))
    return std::nullopt;
  TorchCall call{{args[0]}, {}};
  if (const Argument* value = node.kwarg("approximate")) {
    if (value->kind() != Argument::Kind::kString) return std::nullopt;
    if (value->toString() != "none") call.kwargs.emplace_back("approximate", *value);
  }
  return call;
}

const std::unordered_map<std::string_view, Rewrite>& rewrites() {
  static const std::unordered_map<std::string_view, Rewrite> table = {
      {"torch.flatten", flatten},
      {"torch.cat", cat},
      {"torch.nn.functional.conv1d", convolution<1>},
      {"torch.nn.functional.conv2d", convolution<2>},
      {"torch.nn.functional.conv3d", convolution<3>},
      {"torch.nn.functional.adaptive_avg_pool2d", adaptiveAvgPool2d},
      {"torch.nn.functional.max_pool2d", pool2d<true>},
      {"torch.nn.functional.avg_pool2d", pool2d<false>},
      {"torch.mean", reduction},
      {"torch.sum", reduction},
      {"torch.amax", reduction},
      {"torch.amin", reduction},
      {"torch.permute", permute},
      {"torch.nn.functional.leaky_relu", leakyRelu},
      {"torch.nn.functional.elu", elu},
      {"torch.nn.functional.gelu", gelu},
  };
  return table;
}

}  // namespace

std::optional<TorchCall> torchCall(const Node& node) {
  if (node.op() != Opcode::kCallFunction) return std::nullopt;
  auto it = rewrites().find(node.target());
  if (it == rewrites().end()) return std::nullopt;
  return it->second(node);
}

}  // namespace fxc::ir
