#include "exec/quantize.h"

#include <algorithm>
#include <array>
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

namespace {

// Row r's integer affine map, if it has one (see affineRows). The entries t[k] are the results
// for v = first + k. With results clamped to [lo, hi] (the row's extremes), an entry strictly
// inside needs t·2^16 ≤ a·v + b < (t + 1)·2^16; an entry at lo only the upper bound, at hi only
// the lower. For a slope a the feasible b form [L(a), U(a)]; L − U is convex in a (a maximum of
// lines minus a minimum of lines), so a ternary search over the integers finds its least value,
// and the row has a map exactly when that is ≤ 0.
std::optional<std::array<int32_t, 4>> affineRow(const int64_t* t, int64_t first) {
  constexpr int64_t kOne = 1 << 16;
  int64_t lo = *std::min_element(t, t + 256), hi = *std::max_element(t, t + 256);
  if (lo == hi)
    return std::array<int32_t, 4>{0, static_cast<int32_t>(lo * kOne), static_cast<int32_t>(lo),
                                  static_cast<int32_t>(hi)};
  bool rising = true, falling = true;
  for (int k = 1; k < 256; ++k) {
    rising = rising && t[k] >= t[k - 1];
    falling = falling && t[k] <= t[k - 1];
  }
  if (!rising && !falling) return std::nullopt;
  // Within a run of equal entries only its two ends can bind (the bounds are linear in v).
  std::vector<int> ends;
  for (int k = 0; k < 256; ++k) {
    if (k == 0 || k == 255 || t[k] != t[k - 1] || t[k] != t[k + 1]) ends.push_back(k);
  }
  auto bounds = [&](int64_t a) {
    int64_t low = std::numeric_limits<int64_t>::min(), high = std::numeric_limits<int64_t>::max();
    for (int k : ends) {
      int64_t av = a * (first + k);
      if (t[k] > lo) low = std::max(low, t[k] * kOne - av);
      if (t[k] < hi) high = std::min(high, t[k] * kOne + kOne - 1 - av);
    }
    return std::pair{low, high};
  };
  auto excess = [&](int64_t a) {
    auto [low, high] = bounds(a);
    return low - high;
  };
  // The slopes to search. Two entries strictly inside (lo, hi) at v1 < v2 bound a·(v2 − v1) to
  // within 2^16 − 1 of (t2 − t1)·2^16; else any slope up to 64 result steps per step of v
  // (steeper ones are left to the table: int32 must hold a·v + b for every v).
  int64_t left = rising ? 0 : -64 * kOne, right = rising ? 64 * kOne : 0;
  int k1 = -1, k2 = -1;
  for (int k = 0; k < 256; ++k) {
    if (t[k] > lo && t[k] < hi) {
      if (k1 < 0) k1 = k;
      k2 = k;
    }
  }
  if (k1 >= 0 && k2 > k1) {
    int64_t span = k2 - k1, rise = (t[k2] - t[k1]) * kOne;
    left = std::max(left, (rise - kOne) / span - 1);
    right = std::min(right, (rise + kOne) / span + 1);
  }
  if (left > right) return std::nullopt;
  while (right - left > 2) {
    int64_t m1 = left + (right - left) / 3, m2 = right - (right - left) / 3;
    if (excess(m1) <= excess(m2))
      right = m2;
    else
      left = m1;
  }
  int64_t best = left;
  for (int64_t a = left + 1; a <= right; ++a) {
    if (excess(a) < excess(best)) best = a;
  }
  auto [low, high] = bounds(best);
  if (low > high) return std::nullopt;
  int64_t b = low + (high - low) / 2;
  for (int k = 0; k < 256; ++k) {  // int32 throughout, and every entry as the table has it
    int64_t sum = best * (first + k) + b;
    if (sum < std::numeric_limits<int32_t>::min() || sum > std::numeric_limits<int32_t>::max())
      return std::nullopt;
    int64_t r = std::clamp<int64_t>(sum >> 16, lo, hi);
    if (r != t[k]) return std::nullopt;
  }
  return std::array<int32_t, 4>{static_cast<int32_t>(best), static_cast<int32_t>(b),
                                static_cast<int32_t>(lo), static_cast<int32_t>(hi)};
}

}  // namespace

std::optional<AffineRows> affineRows(const std::vector<int64_t>& table, size_t rows,
                                     int64_t first) {
  if (table.size() != rows * 256) return std::nullopt;
  AffineRows out{std::vector<int32_t>(rows), std::vector<int32_t>(rows), std::vector<int32_t>(rows),
                 std::vector<int32_t>(rows)};
  bool all = true;
#pragma omp parallel for schedule(static) reduction(&& : all) if (rows >= 64)
  for (size_t r = 0; r < rows; ++r) {
    auto row = affineRow(table.data() + r * 256, first);
    all = all && row.has_value();
    if (!row) continue;
    out.a[r] = (*row)[0];
    out.b[r] = (*row)[1];
    out.lo[r] = (*row)[2];
    out.hi[r] = (*row)[3];
  }
  if (!all) return std::nullopt;
  return out;
}

}  // namespace fxc::exec
