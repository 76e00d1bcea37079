// Losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss, as the ONNX spec defines them
// (class axis 1, optional per-class weights, ignore_index, reduction none/sum/mean).
#include <cmath>
#include <limits>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// NLL over log-probabilities `x` [N, C, d...] and integer targets [N, d...].
Value negativeLogLikelihood(const KernelContext& c, const Value& x, const Value& target,
                            const Value* weight) {
  requireFloat(x, "the input");
  if (target.isFloat()) throw ExecError("the target must be integer");
  if (x.shape.size() < 2) throw ExecError("the input must be [N, C, ...]");
  int64_t n = x.shape[0], classes = x.shape[1], inner = 1;
  std::vector<int64_t> target_shape = {n};
  for (size_t d = 2; d < x.shape.size(); ++d) {
    inner *= x.shape[d];
    target_shape.push_back(x.shape[d]);
  }
  if (target.shape != target_shape)
    throw ExecError("target " + shapeText(target.shape) + " does not match input " +
                    shapeText(x.shape));
  if (weight && (requireFloat(*weight, "the weight").shape != std::vector<int64_t>{classes}))
    throw ExecError("weight must have one element per class");
  std::optional<int64_t> ignore_attr = c.optionalIntAttribute("ignore_index");
  bool has_ignore = ignore_attr.has_value();
  int64_t ignore = ignore_attr.value_or(0);
  std::string reduction = c.stringAttribute("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    throw ExecError("unknown reduction '" + reduction + "'");

  Value loss = Value::floats(target_shape, std::vector<float>(target.i.size()));
  double total = 0, weights = 0;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t k = 0; k < inner; ++k) {
      size_t at = static_cast<size_t>(b * inner + k);
      int64_t t = target.i[at];
      if (has_ignore && t == ignore) continue;  // contributes 0 with weight 0
      if (t < 0 || t >= classes)
        throw ExecError("target " + std::to_string(t) + " is not a class in [0, " +
                        std::to_string(classes) + ")");
      double w = weight ? weight->f[static_cast<size_t>(t)] : 1.0;
      double value =
          -static_cast<double>(x.f[static_cast<size_t>((b * classes + t) * inner + k)]) * w;
      loss.f[at] = static_cast<float>(value);
      total += value;
      weights += w;
    }
  }
  if (reduction == "none") return loss;
  double reduced = reduction == "sum" ? total : total / weights;
  return Value::floats({}, {static_cast<float>(reduced)});
}

std::vector<Value> nllLoss(const KernelContext& c) {
  return outputs(negativeLogLikelihood(c, c.input(0), c.input(1), c.optionalInput(2)));
}

// log_softmax over axis 1, then NLL; the second output is the log-probabilities.
std::vector<Value> softmaxCrossEntropy(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the scores");
  if (x.shape.size() < 2) throw ExecError("the scores must be [N, C, ...]");
  int64_t n = x.shape[0], classes = x.shape[1],
          inner = x.numel() / std::max<int64_t>(n * classes, 1);
  Value log_prob = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t k = 0; k < inner; ++k) {
      auto at = [&](int64_t j) { return static_cast<size_t>((b * classes + j) * inner + k); };
      double peak = -std::numeric_limits<double>::infinity();
      for (int64_t j = 0; j < classes; ++j) peak = std::max(peak, static_cast<double>(x.f[at(j)]));
      double sum = 0;
      for (int64_t j = 0; j < classes; ++j) sum += std::exp(x.f[at(j)] - peak);
      double log_sum = std::log(sum);
      for (int64_t j = 0; j < classes; ++j)
        log_prob.f[at(j)] = static_cast<float>(x.f[at(j)] - peak - log_sum);
    }
  }
  Value loss = negativeLogLikelihood(c, log_prob, c.input(1), c.optionalInput(2));
  return outputs(std::move(loss), std::move(log_prob));
}

}  // namespace

void addLossKernels(KernelTable& t) {
  add(t, {"onnx.NegativeLogLikelihoodLoss"}, nllLoss);
  add(t, {"onnx.SoftmaxCrossEntropyLoss"}, softmaxCrossEntropy);
}

}  // namespace fxc::exec
