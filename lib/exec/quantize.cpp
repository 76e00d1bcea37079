#include "exec/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fxc::exec {

int64_t quantizeValue(float x, const QuantParams& p, QuantRange range) {
  // nearbyint rounds half to even in the default rounding mode, as ONNX asks.
  float scaled = std::nearbyint(x / p.scale);
  // NaN: the type's minimum, as ONNX Runtime (a float-to-int conversion's INT_MIN, saturated)
  // and torch's fake quantization give. Below every other value, it keeps Q monotone: a max
  // pool of quantized values is the quantized max pool, which skips a NaN.
  if (std::isnan(scaled)) return range.min;
  double q = static_cast<double>(scaled) + static_cast<double>(p.zero_point);
  q = std::clamp(q, static_cast<double>(range.min), static_cast<double>(range.max));
  return static_cast<int64_t>(q);
}

float dequantizeValue(int64_t q, const QuantParams& p) {
  return static_cast<float>(q - p.zero_point) * p.scale;
}

QuantParams chooseParams(float lo, float hi, QuantRange range, bool symmetric) {
  lo = std::min(lo, 0.0f);
  hi = std::max(hi, 0.0f);
  QuantParams p;
  double levels = static_cast<double>(range.max - range.min);
  if (symmetric) {
    double amax = std::max(std::fabs(lo), std::fabs(hi));
    // int8 [-128, 127] and narrow [-127, 127] both centre on 0; uint8 on 128.
    p.zero_point = range.min < 0 ? 0 : (range.min + range.max + 1) / 2;
    double half = range.min < 0 ? static_cast<double>(std::min(-range.min, range.max)) : levels / 2;
    p.scale = amax == 0 ? 1.0f : static_cast<float>(amax / half);
    return p;
  }
  double span = static_cast<double>(hi) - static_cast<double>(lo);
  if (span == 0) return p;  // scale 1, zero point 0
  p.scale = static_cast<float>(span / levels);
  double zp = std::nearbyint(static_cast<double>(range.min) - lo / static_cast<double>(p.scale));
  p.zero_point = static_cast<int64_t>(
      std::clamp(zp, static_cast<double>(range.min), static_cast<double>(range.max)));
  return p;
}

Slices::Slices(const std::vector<int64_t>& dims, int64_t axis) {
  if (axis < 0) return;
  count_ = dims.at(static_cast<size_t>(axis));
  for (size_t d = static_cast<size_t>(axis) + 1; d < dims.size(); ++d) inner_ *= dims[d];
}

void ErrorSums::add(const float* reference, const float* approximation, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    double x = reference[k], y = approximation[k], e = x - y;
    signal += x * x;
    noise += e * e;
    dot += x * y;
    approx_norm += y * y;
    max_abs = std::max(max_abs, std::fabs(e));
  }
}

double ErrorSums::sqnrDb() const {
  if (noise == 0) return std::numeric_limits<double>::infinity();
  if (signal == 0) return -std::numeric_limits<double>::infinity();
  return 10 * std::log10(signal / noise);
}

double ErrorSums::cosine() const { return dot / std::sqrt(std::max(signal * approx_norm, 1e-300)); }

double sqnrDb(const std::vector<float>& reference, const std::vector<float>& approximation) {
  ErrorSums sums;
  sums.add(reference.data(), approximation.data(),
           std::min(reference.size(), approximation.size()));
  return sums.sqnrDb();
}

}  // namespace fxc::exec
