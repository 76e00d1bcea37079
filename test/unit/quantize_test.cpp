// Quantization arithmetic against hand-computed cases (ONNX's QuantizeLinear rules).
#include "exec/quantize.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "passes/quant.h"

using fxc::exec::chooseParams;
using fxc::exec::dequantizeValue;
using fxc::exec::fakeQuantizeValue;
using fxc::exec::quantizeValue;
using fxc::exec::QuantParams;
using fxc::exec::QuantRange;
using fxc::exec::sqnrDb;

TEST_CASE("ties round half to even, then the zero point is added") {
  QuantParams p{1.0f, 0};
  QuantRange int8{-128, 127};
  CHECK(quantizeValue(0.5f, p, int8) == 0);
  CHECK(quantizeValue(1.5f, p, int8) == 2);
  CHECK(quantizeValue(2.5f, p, int8) == 2);
  CHECK(quantizeValue(-0.5f, p, int8) == 0);
  CHECK(quantizeValue(-1.5f, p, int8) == -2);
  CHECK(quantizeValue(-2.5f, p, int8) == -2);
  // round(x / scale) first, then + zero point: 2.5 / 1 → 2, + 3 → 5 (not round(5.5) = 6).
  CHECK(quantizeValue(2.5f, {1.0f, 3}, int8) == 5);
  CHECK(quantizeValue(0.3f, {0.1f, 0}, int8) == 3);
}

TEST_CASE("saturation at the integer range") {
  CHECK(quantizeValue(1000.0f, {1.0f, 0}, {-128, 127}) == 127);
  CHECK(quantizeValue(-1000.0f, {1.0f, 0}, {-128, 127}) == -128);
  CHECK(quantizeValue(-1000.0f, {1.0f, 0}, {-127, 127}) == -127);  // narrow range
  CHECK(quantizeValue(-5.0f, {1.0f, 10}, {0, 255}) == 5);
  CHECK(quantizeValue(-50.0f, {1.0f, 10}, {0, 255}) == 0);
  CHECK(quantizeValue(300.0f, {1.0f, 10}, {0, 255}) == 255);
  CHECK(dequantizeValue(5, {0.5f, 10}) == doctest::Approx(-2.5));
  CHECK(fakeQuantizeValue(0.26f, {0.1f, 0}, {-128, 127}) == doctest::Approx(0.3));
}

TEST_CASE("symmetric int8: zero point 0, scale amax / 127") {
  QuantParams p = chooseParams(-2.0f, 1.0f, {-128, 127}, true);
  CHECK(p.zero_point == 0);
  CHECK(p.scale == doctest::Approx(2.0 / 127));
  QuantParams w = chooseParams(-0.5f, 0.635f, {-127, 127}, true);
  CHECK(w.scale == doctest::Approx(0.635 / 127));
  CHECK(quantizeValue(0.635f, w, {-127, 127}) == 127);
  CHECK(quantizeValue(-0.635f, w, {-127, 127}) == -127);
}

TEST_CASE("asymmetric uint8: the range widened to include 0") {
  // [1, 3] → [0, 3]: scale 3/255, zero point 0.
  QuantParams p = chooseParams(1.0f, 3.0f, {0, 255}, false);
  CHECK(p.scale == doctest::Approx(3.0 / 255));
  CHECK(p.zero_point == 0);
  // Negative only: [-4, -1] → [-4, 0]: scale 4/255, zero point 255 (0 is exact).
  QuantParams n = chooseParams(-4.0f, -1.0f, {0, 255}, false);
  CHECK(n.scale == doctest::Approx(4.0 / 255));
  CHECK(n.zero_point == 255);
  CHECK(fakeQuantizeValue(0.0f, n, {0, 255}) == 0.0f);
  // [-1, 3]: scale 4/255, zero point round(255/4) = round(63.75) = 64.
  QuantParams m = chooseParams(-1.0f, 3.0f, {0, 255}, false);
  CHECK(m.zero_point == 64);
  CHECK(fakeQuantizeValue(0.0f, m, {0, 255}) == 0.0f);
}

TEST_CASE("an all-zero range gives scale 1") {
  CHECK(chooseParams(0.0f, 0.0f, {-128, 127}, true).scale == 1.0f);
  CHECK(chooseParams(0.0f, 0.0f, {0, 255}, false).scale == 1.0f);
  CHECK(chooseParams(0.0f, 0.0f, {0, 255}, false).zero_point == 0);
}

TEST_CASE("SQNR: 10 log10 of signal over noise") {
  CHECK(sqnrDb({1, 1}, {1, 1}) == INFINITY);
  CHECK(sqnrDb({10, 0}, {9, 0}) == doctest::Approx(20.0));  // 100 / 1
  CHECK(sqnrDb({3, 4}, {3, 3}) == doctest::Approx(10 * std::log10(25.0)));
}

TEST_CASE("percentile calibration: the bin edge below which the percentile of counts lies") {
  // 10 bins over [0, 10]: cumulative 50, 70, 80, 90, 95, 98, 99, 100, 100, 100 of 100.
  std::vector<double> h = {50, 20, 10, 10, 5, 3, 1, 1, 0, 0};
  CHECK(fxc::passes::percentileThreshold(h, 10.0f, 50) == doctest::Approx(1.0));
  CHECK(fxc::passes::percentileThreshold(h, 10.0f, 90) == doctest::Approx(4.0));
  CHECK(fxc::passes::percentileThreshold(h, 10.0f, 99) == doctest::Approx(7.0));
  CHECK(fxc::passes::percentileThreshold(h, 10.0f, 100) == doctest::Approx(8.0));
  // Twice the range, twice the edge.
  CHECK(fxc::passes::percentileThreshold(h, 20.0f, 90) == doctest::Approx(8.0));
}

TEST_CASE("entropy calibration: clips a lone outlier, keeps a spread-out distribution whole") {
  // 2048 bins over [0, 2048]: a bell over the first 400 bins and one count at the far end.
  std::vector<double> outlier(2048, 0.0);
  for (int k = 0; k < 400; ++k) outlier[k] = 1000.0 * std::exp(-(k / 100.0) * (k / 100.0));
  outlier[2047] = 1;
  float t = fxc::passes::entropyThreshold(outlier, 2048.0f);
  CHECK(t >= 128.0f);   // never below the 128 levels
  CHECK(t <= 600.0f);   // the outlier is clipped, not kept
  // Uniform over the whole range: clipping anything loses mass, the threshold is the range.
  std::vector<double> uniform(2048, 5.0);
  CHECK(fxc::passes::entropyThreshold(uniform, 2048.0f) >= 2040.0f);
  // At most 128 bins: nothing to merge, the range itself.
  CHECK(fxc::passes::entropyThreshold(std::vector<double>(100, 1.0), 7.0f) == 7.0f);
}
