// Quantization arithmetic as ONNX defines it (QuantizeLinear/DequantizeLinear), shared by the
// executor's kernels and the quantization passes.
//   q = saturate(round_half_to_even(x / scale) + zero_point),   x' = (q - zero_point) * scale
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
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
// The mean of `count` (> 0) dequantized values given the exact sum of their q − zero_point, in
// double: (sum · scale) / count. Within float rounding of the mean of the dequantized values.
inline float meanOfQuantized(int64_t centered_sum, int64_t count, float scale) {
  return static_cast<float>(static_cast<double>(centered_sum) * scale / static_cast<double>(count));
}

// Parameters for values in [lo, hi]. The range is first widened to include 0 (so that 0 is
// exact); symmetric: zero point at the middle of the integer range (0 for int8) and scale
// max(|lo|, |hi|) / ((max - min) / 2); asymmetric: scale (hi - lo) / (max - min), zero point
// round(min - lo / scale) clamped to the range. A zero range gives scale 1.
QuantParams chooseParams(float lo, float hi, QuantRange range, bool symmetric);

// A lookup table's rows (fxc.QLinearLookup: rows × 256 results, row r's result for the 8-bit
// value v at r·256 + v − first, v from `first`, −128 or 0) as integer affine maps where each is
// one: result = clamp((a·v + b) >> 16, lo, hi) in int32 arithmetic (no overflow for any v),
// equal to the table on all 256 values of every row (checked here, value by value). A BatchNorm
// and ReLU between DequantizeLinear and QuantizeLinear makes such rows; a GELU or a sigmoid does
// not. nullopt when some row is not one: the table then stays a table.
struct AffineRows {
  std::vector<int32_t> a, b, lo, hi;  // one per row
};
std::optional<AffineRows> affineRows(const std::vector<int64_t>& table, size_t rows, int64_t first);

// Which parameters each element of a tensor uses: one set for the whole tensor (axis < 0), or
// one per index along `axis` (per channel).
class Slices {
 public:
  Slices(const std::vector<int64_t>& dims, int64_t axis);
  int64_t count() const { return count_; }
  size_t of(size_t element) const {
    return count_ == 1 ? 0 : static_cast<size_t>((static_cast<int64_t>(element) / inner_) % count_);
  }

 private:
  int64_t inner_ = 1, count_ = 1;
};

// How far an approximation is from a reference, accumulated over any number of element runs.
struct ErrorSums {
  double signal = 0, noise = 0, dot = 0, approx_norm = 0, max_abs = 0;
  void add(const float* reference, const float* approximation, size_t n);
  // 10·log10(Σ x² / Σ (x − x')²): +inf when equal.
  double sqnrDb() const;
  double cosine() const;
};

// Signal-to-quantization-noise ratio in dB of two whole tensors.
double sqnrDb(const std::vector<float>& reference, const std::vector<float>& approximation);

}  // namespace fxc::exec
