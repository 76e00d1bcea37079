// attention: scaled dot-product attention, as torch.onnx writes nn.MultiheadAttention (the scale
// applied to the queries, or with a mask to the scores by a Mul), becomes one op that never
// holds all of a head's scores:
//
//   %s = matmul(%a, %b);  [%s = %s · %c or %s / %c;]  [%s = %s + %mask;]
//   %p = softmax(%s, axis = -1);  %y = matmul(%p, %v)
//     ⇒  %y = fxc.Attention(%a, %b, %v, %mask or None, %c or None, axis, divide)
//
// Proved from the graph's own shapes: a [..., Lq, d], b [..., d, Lk] and v [..., Lk, dv] float32,
// all known, of one rank with the same leading dimensions (no broadcasting between them); the
// softmax along the last axis (its axis given, -1 or rank − 1: the same axis under every opset's
// definition); a scale of one float32 element (a Mul on either side, or the scores divided by
// it); a mask float32 and known, broadcasting to the scores [..., Lq, Lk] without enlarging them;
// the product, the scaling, the sum and the softmax read by nothing else. The kernel computes
// each head's scores a block of rows at a time with the same products, scaling, sum and softmax
// per element, so the result is the written ops' up to the products' summation order (the
// reference backend: bit for bit). Left as written (reason at -v) otherwise, and where one
// head's scores are below `min-scores` elements: there the products over all heads at once and
// one softmax cost less than a loop of blocks (PyTorch's 16-token encoder: 0.09 → 0.10 ms on one
// thread, 0.09 → 0.19–0.25 on two). Export writes the ops back (MatMul, Mul or Div, Add, Softmax
// with the original axis, MatMul).
#include <spdlog/spdlog.h>

#include <optional>
#include <string>
#include <vector>

#include "passes/registry.h"

namespace fxc::passes {
namespace {

using ir::isCall;

// A float32 value's known dimensions, or nothing.
std::optional<std::vector<int64_t>> floatDims(const ir::Node* node) {
  if (node->meta.dtype != "float32") return std::nullopt;
  return ir::knownDims(node->meta.shape);
}

// The two operands of a binary call with no keywords, when both are values.
bool binaryOperands(const ir::Node* node, ir::Node*& x, ir::Node*& y) {
  if (node->args().size() != 2 || !node->kwargs().empty() || !node->args()[0].isNode() ||
      !node->args()[1].isNode())
    return false;
  x = node->args()[0].toNode();
  y = node->args()[1].toNode();
  return true;
}

struct Match {
  ir::Node *scores = nullptr, *scaling = nullptr, *sum = nullptr, *softmax = nullptr;
  ir::Node *a = nullptr, *b = nullptr, *v = nullptr, *mask = nullptr, *scale = nullptr;
  bool divide = false;
  int64_t axis = -1;
};

// The attention that `last` (a matmul) ends, with `why` for a near miss.
std::optional<Match> attentionAt(ir::Node* last, int64_t min_scores, std::string& why) {
  Match m;
  ir::Node* probabilities = nullptr;
  if (!binaryOperands(last, probabilities, m.v) || !isCall(probabilities, "torch.softmax"))
    return std::nullopt;
  m.softmax = probabilities;
  const ir::Argument* axis = m.softmax->kwarg("axis");
  if (m.softmax->args().size() != 1 || !m.softmax->args()[0].isNode() || !axis ||
      axis->kind() != ir::Argument::Kind::kInt || m.softmax->kwargs().size() != 1)
    return (why = "the softmax has no explicit axis"), std::nullopt;
  m.axis = axis->toInt();
  ir::Node* x = m.softmax->args()[0].toNode();
  auto scaled = [](const ir::Node* node) {
    return isCall(node, "operator.mul") || isCall(node, "operator.truediv");
  };
  if (isCall(x, "operator.add")) {
    m.sum = x;
    ir::Node *left = nullptr, *right = nullptr;
    if (!binaryOperands(x, left, right)) return std::nullopt;
    bool left_scores = isCall(left, "operator.matmul") || scaled(left);
    x = left_scores ? left : right;
    m.mask = left_scores ? right : left;
  }
  if (scaled(x)) {
    // The scores times a one-element value (either side), or divided by one.
    m.scaling = x;
    ir::Node *left = nullptr, *right = nullptr;
    if (!binaryOperands(x, left, right)) return std::nullopt;
    m.divide = isCall(x, "operator.truediv");
    bool left_product = isCall(left, "operator.matmul");
    if (m.divide && !left_product) return (why = "the scores divide a value"), std::nullopt;
    x = left_product ? left : right;
    m.scale = left_product ? right : left;
  }
  if (!isCall(x, "operator.matmul") || !binaryOperands(x, m.a, m.b)) return std::nullopt;
  m.scores = x;
  auto a = floatDims(m.a), b = floatDims(m.b), v = floatDims(m.v);
  if (!a || !b || !v || floatDims(last) == std::nullopt)
    return (why = "an operand's float32 shape is not known"), std::nullopt;
  size_t rank = a->size();
  bool same = rank >= 2 && b->size() == rank && v->size() == rank &&
              std::equal(a->begin(), a->end() - 2, b->begin()) &&
              std::equal(a->begin(), a->end() - 2, v->begin());
  if (!same)
    return (why = "a, b and v are not of one rank with the same leading dimensions"), std::nullopt;
  int64_t lq = (*a)[rank - 2], lk = (*b)[rank - 1];
  if ((*a)[rank - 1] != (*b)[rank - 2] || lk != (*v)[rank - 2])
    return (why = "the products' inner dimensions differ"), std::nullopt;
  if (m.axis != -1 && m.axis != static_cast<int64_t>(rank) - 1)
    return (why = "the softmax is not along the last axis"), std::nullopt;
  if (m.mask) {
    auto mask = floatDims(m.mask);
    if (!mask || mask->size() > rank)
      return (why = "the mask's float32 shape is not known, or of a higher rank"), std::nullopt;
    std::vector<int64_t> scores = *a;
    scores.back() = lk;
    for (size_t k = 0; k < mask->size(); ++k) {
      int64_t dim = (*mask)[mask->size() - 1 - k];
      if (dim != 1 && dim != scores[rank - 1 - k])
        return (why = "the mask does not broadcast to the scores without enlarging them"),
               std::nullopt;
    }
  }
  if (m.scale) {
    auto scale = floatDims(m.scale);
    int64_t elements = 1;
    for (int64_t dim : scale ? *scale : std::vector<int64_t>{}) elements *= dim;
    if (!scale || elements != 1 || scale->size() > rank)
      return (why = "the scale is not one float32 element of a rank the scores have"), std::nullopt;
  }
  // An intermediate read twice by one op (s + s, p @ p) counts as one user: it must not also be
  // an operand of the fused op, which replaces it.
  for (const ir::Node* operand : {m.a, m.b, m.v, m.mask, m.scale}) {
    if (operand &&
        (operand == m.scores || operand == m.scaling || operand == m.sum || operand == m.softmax))
      return (why = "an intermediate is also an operand"), std::nullopt;
  }
  if (m.scores->users().size() != 1 || (m.scaling && m.scaling->users().size() != 1) ||
      (m.sum && m.sum->users().size() != 1) || m.softmax->users().size() != 1)
    return (why = "the scores or probabilities have other users"), std::nullopt;
  int64_t head_scores = 0;  // declared shapes can be any numbers: past int64 is "many"
  if (!__builtin_mul_overflow(lq, lk, &head_scores) && head_scores < min_scores)
    return (why = "one head's scores (" + std::to_string(head_scores) + ") are below min-scores"),
           std::nullopt;
  return m;
}

Expected<PassResult> run(ir::GraphModule& gm, const Options& options) {
  const int64_t min_scores = options.getInt("min-scores");  // below 1: every attention
  PassResult result;
  std::vector<ir::Node*> products;
  for (ir::Node* node : gm.graph()) {
    if (isCall(node, "operator.matmul")) products.push_back(node);
  }
  // A match erases its first product, a matmul before `last` in the graph: already visited.
  for (ir::Node* last : products) {
    std::string why;
    auto m = attentionAt(last, min_scores, why);
    if (!m) {
      if (!why.empty()) spdlog::debug("attention: {} stays as written: {}", last->name(), why);
      continue;
    }
    std::vector<ir::Argument> args = {ir::Argument(m->a), ir::Argument(m->b), ir::Argument(m->v),
                                      m->mask ? ir::Argument(m->mask) : ir::Argument(),
                                      m->scale ? ir::Argument(m->scale) : ir::Argument()};
    ir::Node* fused;
    {
      auto guard = gm.graph().insertingBefore(last);
      fused = gm.graph().callFunction(
          "fxc.Attention", args,
          {{"axis", ir::Argument(m->axis)}, {"divide", ir::Argument(int64_t{m->divide})}});
    }
    fused->meta.dtype = last->meta.dtype;
    fused->meta.shape = last->meta.shape;
    ir::takeOverValue(*fused, *last);
    last->replaceAllUsesWith(fused);
    gm.graph().eraseNode(last);
    gm.graph().eraseNode(m->softmax);
    if (m->sum) gm.graph().eraseNode(m->sum);
    if (m->scaling) gm.graph().eraseNode(m->scaling);
    gm.graph().eraseNode(m->scores);
    result.add("fused");
  }
  return result;
}

RegisterPass registration{
    {"attention",
     "matmul(a, b) [* or / scale] [+ mask] -> softmax(axis -1) -> matmul(., v) becomes one "
     "fxc.Attention that "
     "computes each head's scores a block of rows at a time (proved from the shapes)",
     {{"min-scores", OptionKind::kInt, "65536",
       "fuse only where one head's scores have at least this many elements"}},
     run,
     nullptr,
     /*needs_shapes=*/true}};

}  // namespace
}  // namespace fxc::passes
