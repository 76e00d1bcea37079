// Signal-processing kernels: the window functions HannWindow, HammingWindow, BlackmanWindow.
#include <cmath>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// A generalized cosine window of `size` points: Σ_k (−1)^k a_k cos(2πkn/N), with N = size
// (periodic, the default) or size − 1 (symmetric). Computed in double, returned as float32.
Kernel cosineWindow(std::vector<double> coefficients, const char* op) {
  return [coefficients, op](const KernelContext& c) {
    const Value& size_value = c.input(0);
    if (size_value.isFloat() || size_value.numel() != 1)
      throw ExecError(std::string(op) + "'s size must be one integer");
    if (c.intAttribute("output_datatype", 1) != static_cast<int64_t>(ir::DType::kFloat32))
      throw ExecError(
          "unsupported: " + std::string(op) + " of type " +
          std::string(ir::dtypeName(static_cast<ir::DType>(c.intAttribute("output_datatype", 1)))));
    int64_t size = size_value.i[0];
    bool periodic = c.intAttribute("periodic", 1) != 0;
    int64_t period = periodic ? size : size - 1;
    if (size > 0 && period == 0)
      throw ExecError("unsupported: a symmetric " + std::string(op) + " of one point");
    Value y = Value::floats({size}, std::vector<float>(static_cast<size_t>(checkedNumel({size}))));
    const double pi = std::acos(-1.0);
    for (int64_t n = 0; n < size; ++n) {
      double value = 0, sign = 1;
      for (size_t k = 0; k < coefficients.size(); ++k, sign = -sign)
        value += sign * coefficients[k] *
                 std::cos(2 * pi * static_cast<double>(k) * static_cast<double>(n) /
                          static_cast<double>(period));
      y.f[static_cast<size_t>(n)] = static_cast<float>(value);
    }
    return std::vector<Value>{std::move(y)};
  };
}

}  // namespace

void addSignalKernels(KernelTable& t) {
  add(t, {"onnx.HannWindow"}, cosineWindow({0.5, 0.5}, "HannWindow"));
  add(t, {"onnx.HammingWindow"}, cosineWindow({25.0 / 46, 21.0 / 46}, "HammingWindow"));
  add(t, {"onnx.BlackmanWindow"}, cosineWindow({0.42, 0.5, 0.08}, "BlackmanWindow"));
}

}  // namespace fxc::exec
