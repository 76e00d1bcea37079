// The arithmetic of conv-bn, exposed for unit tests against hand computation.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fxc::passes {

struct BatchNormParams {
  std::vector<double> gamma, beta, mean, var;
  double epsilon = 1e-5;
};

// Per-channel scale s = gamma / sqrt(var + eps); empty when the sizes disagree with `channels`.
std::vector<double> batchNormScale(const BatchNormParams& bn, size_t channels);

// Folds y = BN(conv(x)) into conv' : w' = w·s, b' = (b − mean)·s + beta with
// s = gamma / sqrt(var + eps) per output channel, each product formed in double. `dims` is the
// weight's shape: Conv [Cout, Cin/groups, k...] or, `transposed`, ConvTranspose
// [Cin, Cout/groups, k...]. `bias` may be empty (zero). Returns false when the shapes do not fit.
template <typename T>
bool foldConvBatchNorm(T* weight, size_t count, const std::vector<int64_t>& dims, bool transposed,
                       int64_t groups, std::vector<double>& bias, const BatchNormParams& bn) {
  if (dims.size() < 2 || groups < 1 || dims[0] <= 0 || dims[1] <= 0) return false;
  size_t inner = 1;
  for (size_t i = 2; i < dims.size(); ++i) inner *= static_cast<size_t>(dims[i]);
  size_t d0 = static_cast<size_t>(dims[0]), d1 = static_cast<size_t>(dims[1]);
  size_t channels = transposed ? d1 * static_cast<size_t>(groups) : d0;
  if (count != d0 * d1 * inner || (transposed && d0 % static_cast<size_t>(groups) != 0))
    return false;
  std::vector<double> s = batchNormScale(bn, channels);
  if (s.empty()) return false;
  if (bias.empty()) bias.assign(channels, 0.0);
  if (bias.size() != channels) return false;
  size_t in_per_group = transposed ? d0 / static_cast<size_t>(groups) : 1;
  for (size_t a = 0; a < d0; ++a) {    // Conv: output channel; ConvTranspose: input channel
    for (size_t b = 0; b < d1; ++b) {  // Conv: input channel;  ConvTranspose: output in group
      double scale = transposed ? s[(a / in_per_group) * d1 + b] : s[a];
      T* row = weight + (a * d1 + b) * inner;
      for (size_t k = 0; k < inner; ++k)
        row[k] = static_cast<T>(static_cast<double>(row[k]) * scale);
    }
  }
  for (size_t o = 0; o < channels; ++o) bias[o] = (bias[o] - bn.mean[o]) * s[o] + bn.beta[o];
  return true;
}

// Folds y = BN(alpha·A·B + beta·C) into Gemm with B' = B·s (per output column, `trans_b` says
// B is [N, K]) and C' = (beta·C − mean)·s + bn.beta (beta becomes 1). C broadcasts from 1 or N.
template <typename T>
bool foldGemmBatchNorm(T* b, size_t count, const std::vector<int64_t>& dims, bool trans_b,
                       double beta, std::vector<double>& c, const BatchNormParams& bn) {
  if (dims.size() != 2) return false;
  size_t rows = static_cast<size_t>(dims[0]), cols = static_cast<size_t>(dims[1]);
  size_t n = trans_b ? rows : cols;
  std::vector<double> s = batchNormScale(bn, n);
  if (s.empty() || count != rows * cols) return false;
  if (c.empty()) c.assign(n, 0.0);
  if (c.size() == 1) c.assign(n, c[0]);
  if (c.size() != n) return false;
  for (size_t r = 0; r < rows; ++r) {
    for (size_t col = 0; col < cols; ++col) {
      T& value = b[r * cols + col];
      value = static_cast<T>(static_cast<double>(value) * s[trans_b ? r : col]);
    }
  }
  for (size_t o = 0; o < n; ++o) c[o] = (beta * c[o] - bn.mean[o]) * s[o] + bn.beta[o];
  return true;
}

}  // namespace fxc::passes
