// Normalization kernels over channels or spatial extents: InstanceNormalization, LRN (torch's
// LocalResponseNorm) and MeanVarianceNormalization. Statistics are accumulated in double.
#include <algorithm>
#include <cmath>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// InstanceNormalization: each (n, c) plane normalized by its own mean and (population)
// variance, then scaled and shifted per channel: y = scale·(x − μ)/√(σ² + ε) + bias.
std::vector<Value> instanceNorm(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* scale = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
  const Value* bias = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
  if (!scale || !bias) throw ExecError("InstanceNormalization lacks its scale or bias");
  if (x.shape.size() < 3) throw ExecError("InstanceNormalization needs rank >= 3");
  int64_t channels = x.shape[1], planes = x.shape[0] * channels;
  for (const Value* p : {scale, bias}) {
    if (requireFloat(*p, "a scale or bias").numel() != channels)
      throw ExecError("InstanceNormalization's scale and bias need one element per channel");
  }
  double epsilon = c.floatAttribute("epsilon", 1e-5f);
  int64_t extent = x.numel() / std::max<int64_t>(planes, 1);
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (int64_t p = 0; p < planes; ++p) {
    const float* in = x.f.data() + p * extent;
    double mean = 0, variance = 0;
    for (int64_t k = 0; k < extent; ++k) mean += in[k];
    mean /= static_cast<double>(extent);
    for (int64_t k = 0; k < extent; ++k) variance += (in[k] - mean) * (in[k] - mean);
    variance /= static_cast<double>(extent);
    size_t ch = static_cast<size_t>(p % channels);
    double factor = scale->f[ch] / std::sqrt(variance + epsilon);
    for (int64_t k = 0; k < extent; ++k)
      y.f[static_cast<size_t>(p * extent + k)] =
          static_cast<float>((in[k] - mean) * factor + bias->f[ch]);
  }
  return outputs(std::move(y));
}

// LRN across channels: y = x / (bias + α/size · Σ x²)^β, the sum over the channels
// [c − ⌊(size−1)/2⌋, c + ⌈(size−1)/2⌉] that exist.
std::vector<Value> localResponseNorm(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  if (x.shape.size() < 3) throw ExecError("LRN needs rank >= 3");
  int64_t size = c.intAttribute("size", 0);
  if (size <= 0) throw ExecError("LRN's size must be positive");
  double alpha = c.floatAttribute("alpha", 1e-4f), beta = c.floatAttribute("beta", 0.75f),
         bias = c.floatAttribute("bias", 1.0f);
  int64_t channels = x.shape[1], inner = x.numel() / std::max<int64_t>(x.shape[0] * channels, 1);
  int64_t below = (size - 1) / 2, above = size / 2;  // ⌊(size−1)/2⌋, ⌈(size−1)/2⌉
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (int64_t n = 0; n < x.shape[0]; ++n) {
    for (int64_t ch = 0; ch < channels; ++ch) {
      int64_t from = std::max<int64_t>(0, ch - below), to = std::min(channels - 1, ch + above);
      for (int64_t r = 0; r < inner; ++r) {
        double sum = 0;
        for (int64_t k = from; k <= to; ++k) {
          double v = x.f[static_cast<size_t>((n * channels + k) * inner + r)];
          sum += v * v;
        }
        size_t at = static_cast<size_t>((n * channels + ch) * inner + r);
        y.f[at] = static_cast<float>(x.f[at] / std::pow(bias + alpha / size * sum, beta));
      }
    }
  }
  return outputs(std::move(y));
}

// MeanVarianceNormalization: y = (x − μ) / (σ + 1e-9), μ and σ over `axes` (default N, H, W).
std::vector<Value> meanVarianceNorm(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  if (c.attribute("across_channels") || c.attribute("normalize_variance"))
    throw ExecError("unsupported: MeanVarianceNormalization's opset-1 attributes");
  size_t rank = x.shape.size();
  std::vector<bool> reduced(rank, false);
  for (int64_t axis : c.intsAttribute("axes", {0, 2, 3})) reduced[normalizeAxis(axis, rank)] = true;
  // Each element's group: its index with the reduced axes dropped.
  std::vector<int64_t> strides = stridesOf(x.shape), group_strides(rank, 0);
  int64_t groups = 1;
  for (size_t d = rank; d-- > 0;) {
    if (reduced[d]) continue;
    group_strides[d] = groups;
    groups *= x.shape[d];
  }
  std::vector<int64_t> group_of(x.f.size());
  for (size_t k = 0; k < x.f.size(); ++k) {
    int64_t g = 0;
    for (size_t d = 0; d < rank; ++d)
      g += static_cast<int64_t>(k) / strides[d] % x.shape[d] * group_strides[d];
    group_of[k] = g;
  }
  std::vector<double> mean(static_cast<size_t>(groups)), deviation(static_cast<size_t>(groups));
  std::vector<int64_t> count(static_cast<size_t>(groups));
  for (size_t k = 0; k < x.f.size(); ++k) {
    mean[static_cast<size_t>(group_of[k])] += x.f[k];
    ++count[static_cast<size_t>(group_of[k])];
  }
  for (size_t g = 0; g < mean.size(); ++g)
    mean[g] /= static_cast<double>(std::max<int64_t>(count[g], 1));
  for (size_t k = 0; k < x.f.size(); ++k) {
    size_t g = static_cast<size_t>(group_of[k]);
    deviation[g] += (x.f[k] - mean[g]) * (x.f[k] - mean[g]);
  }
  for (size_t g = 0; g < deviation.size(); ++g)
    deviation[g] = std::sqrt(deviation[g] / static_cast<double>(std::max<int64_t>(count[g], 1)));
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (size_t k = 0; k < x.f.size(); ++k) {
    size_t g = static_cast<size_t>(group_of[k]);
    y.f[k] = static_cast<float>((x.f[k] - mean[g]) / (deviation[g] + 1e-9));
  }
  return outputs(std::move(y));
}

}  // namespace

void addNormalizationKernels(KernelTable& t) {
  add(t,
      {"torch.nn.functional.instance_norm", "module:InstanceNorm1d", "module:InstanceNorm2d",
       "module:InstanceNorm3d"},
      instanceNorm);
  add(t, {"onnx.LRN", "module:LocalResponseNorm"}, localResponseNorm);
  add(t, {"onnx.MeanVarianceNormalization"}, meanVarianceNorm);
}

}  // namespace fxc::exec
