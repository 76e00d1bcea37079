// channel-shuffle: ShuffleNet's channel shuffle, as torch.onnx writes it, becomes the one op
// PyTorch has for it:
//
//   %r = reshape(%x, [N, g, C/g, …]);  %p = permute(%r, [0, 2, 1, 3, …]);  %y = reshape(%p, [N, C,
//   …])
//     ⇒  %y = torch.nn.functional.channel_shuffle(%x, groups = g)
//
// Proved from the graph's own values: x's shape [N, C, …] known in every dimension, both target
// shapes constants of positive sizes (no 0 or -1 to resolve), the first exactly [N, g, C/g, …]
// with g dividing C, the permutation exactly the swap of axes 1 and 2, the second exactly x's
// shape; the first reshape and the permute read by nothing else. Output channel j·g + i is then
// input channel i·(C/g) + j, what channel_shuffle computes: nothing changes numerically. The one
// op runs as one copy (in the convolutions' channels-last layout where the value is in it)
// instead of a transposition and the layout changes around it.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ir/matcher.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

using ir::isCall;

// The values of a constant (get_attr) node, when it holds whole numbers.
std::optional<std::vector<int64_t>> constantInts(const ir::GraphModule& gm, const ir::Node* node) {
  if (!node || node->op() != ir::Opcode::kGetAttr) return std::nullopt;
  auto tensor = gm.findTensor(node->target());
  auto values = tensor ? ir::tensorValues(*tensor) : std::nullopt;
  if (!values || tensor->dims.size() != 1) return std::nullopt;
  std::vector<int64_t> out;
  for (double v : *values) {
    if (v != static_cast<double>(static_cast<int64_t>(v))) return std::nullopt;
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

// ONNX Reshape's result shape for `target` over an input of `shape` (allowzero 0: a 0 copies the
// input's dimension there, one -1 takes what is left), or nothing where it is malformed or a
// product of its dimensions would not fit int64 (declared shapes can be any numbers: the
// fuzzer's 254319552060456996 · 18295873486192644).
std::optional<std::vector<int64_t>> reshaped(const std::vector<int64_t>& shape,
                                             std::vector<int64_t> target) {
  int64_t total = 1, known = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(total, d, &total)) return std::nullopt;
  }
  size_t inferred = target.size();
  for (size_t k = 0; k < target.size(); ++k) {
    if (target[k] == 0 && k < shape.size()) target[k] = shape[k];
    if (target[k] == -1 && inferred == target.size()) {
      inferred = k;
      continue;
    }
    if (target[k] < 1 || __builtin_mul_overflow(known, target[k], &known)) return std::nullopt;
  }
  if (inferred < target.size()) {
    if (total % known != 0) return std::nullopt;
    target[inferred] = total / known;
  }
  return target;
}

// The group count when `last` (a reshape) ends a channel shuffle, with `why` for a near miss.
std::optional<int64_t> shuffleGroups(const ir::GraphModule& gm, const ir::Node* last,
                                     std::string& why) {
  if (last->args().size() != 2 || !last->kwargs().empty() || !last->args()[0].isNode() ||
      !last->args()[1].isNode())
    return std::nullopt;
  const ir::Node* permute = last->args()[0].toNode();
  if (!isCall(permute, "torch.permute") || permute->args().size() != 1 ||
      !permute->args()[0].isNode())
    return std::nullopt;
  const ir::Node* first = permute->args()[0].toNode();
  if (!isCall(first, "torch.reshape") || first->args().size() != 2 || !first->kwargs().empty() ||
      !first->args()[0].isNode() || !first->args()[1].isNode())
    return std::nullopt;
  const ir::Node* x = first->args()[0].toNode();
  auto shape = ir::knownDims(x->meta.shape);
  if (!shape || shape->size() < 2) return (why = "the input's shape is not known"), std::nullopt;
  auto split = constantInts(gm, first->args()[1].toNode());
  auto merged = constantInts(gm, last->args()[1].toNode());
  if (!split || !merged) return (why = "a target shape is not a constant"), std::nullopt;
  split = reshaped(*shape, *split);
  if (!split) return (why = "the first reshape's target is malformed"), std::nullopt;
  size_t rank = shape->size();
  if (split->size() == rank + 1) {
    // The permuted shape: axes 1 and 2 swapped (checked below), which the second reshape reads.
    std::vector<int64_t> permuted = *split;
    std::swap(permuted[1], permuted[2]);
    merged = reshaped(permuted, *merged);
  }
  if (!merged || *merged != *shape)
    return (why = "the second reshape does not restore the input's shape"), std::nullopt;
  int64_t channels = 0;
  if (split->size() != rank + 1 || (*split)[0] != (*shape)[0] || (*split)[1] < 1 ||
      (*split)[2] < 1 || __builtin_mul_overflow((*split)[1], (*split)[2], &channels) ||
      channels != (*shape)[1] || !std::equal(split->begin() + 3, split->end(), shape->begin() + 2))
    return (why = "the first reshape is not [N, g, C/g, ...] of the input"), std::nullopt;
  const ir::Argument* perm = permute->kwarg("perm");
  std::vector<int64_t> swap = {0, 2, 1};
  for (size_t d = 3; d <= rank; ++d) swap.push_back(static_cast<int64_t>(d));
  bool swapped = perm && perm->isSequence() && perm->items().size() == swap.size() &&
                 permute->kwargs().size() == 1;
  for (size_t d = 0; swapped && d < swap.size(); ++d) {
    const ir::Argument& item = perm->items()[d];
    swapped = item.kind() == ir::Argument::Kind::kInt && item.toInt() == swap[d];
  }
  if (!swapped) return (why = "the permutation is not the swap of axes 1 and 2"), std::nullopt;
  if (first->users().size() != 1 || permute->users().size() != 1)
    return (why = "the reshape or the permute has other users"), std::nullopt;
  return (*split)[1];
}

Expected<PassResult> run(ir::GraphModule& gm, const Options&) {
  PassResult result;
  std::vector<ir::Node*> reshapes;
  for (ir::Node* node : gm.graph()) {
    if (isCall(node, "torch.reshape")) reshapes.push_back(node);
  }
  for (ir::Node* last : reshapes) {
    std::string why;
    auto groups = shuffleGroups(gm, last, why);
    if (!groups) {
      if (!why.empty())
        spdlog::debug("channel-shuffle: {} stays as written: {}", last->name(), why);
      continue;
    }
    ir::Node* permute = last->args()[0].toNode();
    ir::Node* first = permute->args()[0].toNode();
    ir::Node* x = first->args()[0].toNode();
    ir::Node* shuffle;
    {
      auto guard = gm.graph().insertingBefore(last);
      shuffle = gm.graph().callFunction("torch.nn.functional.channel_shuffle", {x},
                                        {{"groups", ir::Argument(*groups)}});
    }
    shuffle->meta.dtype = last->meta.dtype;
    shuffle->meta.shape = last->meta.shape;
    ir::takeOverValue(*shuffle, *last);
    last->replaceAllUsesWith(shuffle);
    std::vector<ir::Node*> shapes = {last->args()[1].toNode(), first->args()[1].toNode()};
    gm.graph().eraseNode(last);
    gm.graph().eraseNode(permute);
    gm.graph().eraseNode(first);
    for (ir::Node* shape : shapes) {
      if (shape->users().empty()) gm.graph().eraseNode(shape);
    }
    result.add("shuffled");
  }
  return result;
}

RegisterPass registration{
    {"channel-shuffle",
     "ShuffleNet's reshape [N, g, C/g, ...] -> permute (0, 2, 1, ...) -> reshape [N, C, ...] "
     "becomes one torch.nn.functional.channel_shuffle (proved from the shapes)",
     {},
     run,
     nullptr,
     /*needs_shapes=*/true}};

}  // namespace
}  // namespace fxc::passes
