// Quantization arithmetic as ONNX defines it (QuantizeLinear/DequantizeLinear), shared by the
// executor's kernels and the quantization passes.
//   q = saturate(round_half_to_even(x / scale) + zero_point),   x' = (q - zero_point) * scale
#pragma once

#include <cstdint>
#include <vector>

namespace fxc::exec {

// The integer range and the parameters of one quantized tensor (or one channel of it).
struct QuantRange {
  int64_t min = -128, max = 127;
};

struct QuantParams {
  float scale = 1.0f;
  int64_t zero_point = 0;
};

int64_t quantizeValue(float x, const QuantParams& p, QuantRange range);
float dequantizeValue(int64_t q, const QuantParams& p);
inline float fakeQuantizeValue(float x, const QuantParams& p, QuantRange range) {
  return dequantizeValue(quantizeValue(x, p, range), p);
}

// Parameters for values in [lo, hi]. The range is first widened to include 0 (so that 0 is
// exact); symmetric: zero point at the middle of the integer range (0 for int8) and scale
// max(|lo|, |hi|) / ((max - min) / 2); asymmetric: scale (hi - lo) / (max - min), zero point
// round(min - lo / scale) clamped to the range. A zero range gives scale 1.
QuantParams chooseParams(float lo, float hi, QuantRange range, bool symmetric);

// Signal-to-quantization-noise ratio in dB: 10·log10(Σ x² / Σ (x − x')²); +inf when equal.
double sqnrDb(const std::vector<float>& reference, const std::vector<float>& approximation);

}  // namespace fxc::exec
