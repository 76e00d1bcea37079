// The arithmetic of conv-bn, exposed for unit tests against hand computation.
#pragma once

#include <cstdint>
#include <vector>

namespace fxc::passes {

struct BatchNormParams {
  std::vector<double> gamma, beta, mean, var;
  double epsilon = 1e-5;
};

// Folds y = BN(conv(x)) into conv' : w' = w·s, b' = (b − mean)·s + beta with
// s = gamma / sqrt(var + eps) per output channel. `dims` is the weight's shape: Conv
// [Cout, Cin/groups, k...] or, `transposed`, ConvTranspose [Cin, Cout/groups, k...].
// `bias` may be empty (zero). Returns false when the shapes do not fit.
bool foldConvBatchNorm(std::vector<double>& weight, const std::vector<int64_t>& dims,
                       bool transposed, int64_t groups, std::vector<double>& bias,
                       const BatchNormParams& bn);

// Folds y = BN(alpha·A·B + beta·C) into Gemm with B' = B·s (per output column, `trans_b` says
// B is [N, K]) and C' = (beta·C − mean)·s + bn.beta (beta becomes 1). C broadcasts from 1 or N.
bool foldGemmBatchNorm(std::vector<double>& b, const std::vector<int64_t>& dims, bool trans_b,
                       double beta, std::vector<double>& c, const BatchNormParams& bn);

}  // namespace fxc::passes
