#include "passes/conv_bn.h"

#include <doctest/doctest.h>

#include <cmath>

using fxc::passes::BatchNormParams;
using fxc::passes::foldConvBatchNorm;
using fxc::passes::foldGemmBatchNorm;

namespace {
// gamma [1, 2], beta [0.5, -1], mean [1, 0], var [3, 0.25], eps 1: s = [0.5, 2/sqrt(1.25)].
BatchNormParams twoChannels() { return {{1, 2}, {0.5, -1}, {1, 0}, {3, 0.25}, 1.0}; }
const double s1 = 2 / std::sqrt(1.25);
}  // namespace

TEST_CASE("conv without bias, 1x1, two output channels") {
  std::vector<double> w = {2, 3}, b;
  REQUIRE(foldConvBatchNorm(w.data(), w.size(), {2, 1, 1, 1}, false, 1, b, twoChannels()));
  CHECK(w[0] == doctest::Approx(1.0));
  CHECK(w[1] == doctest::Approx(3 * s1));
  CHECK(b[0] == doctest::Approx((0 - 1) * 0.5 + 0.5));
  CHECK(b[1] == doctest::Approx(-1.0));
}

TEST_CASE("conv with bias, 2x2 kernel: every weight of a channel takes its scale") {
  std::vector<double> w = {1, 2, 3, 4, 5, 6, 7, 8}, b = {10, 20};
  REQUIRE(foldConvBatchNorm(w.data(), w.size(), {2, 1, 2, 2}, false, 1, b, twoChannels()));
  for (int i = 0; i < 4; ++i) CHECK(w[i] == doctest::Approx((i + 1) * 0.5));
  for (int i = 4; i < 8; ++i) CHECK(w[i] == doctest::Approx((i + 1) * s1));
  CHECK(b[0] == doctest::Approx((10 - 1) * 0.5 + 0.5));
  CHECK(b[1] == doctest::Approx(20 * s1 - 1));
}

TEST_CASE("depthwise conv (groups = channels) scales along axis 0 as any conv") {
  std::vector<double> w = {1, 1}, b;
  REQUIRE(foldConvBatchNorm(w.data(), w.size(), {2, 1, 1, 1}, false, 2, b, twoChannels()));
  CHECK(w[0] == doctest::Approx(0.5));
  CHECK(w[1] == doctest::Approx(s1));
}

TEST_CASE("ConvTranspose scales along axis 1") {
  // [Cin = 2, Cout = 2, 1, 1]: w[ci][co] scales by s[co].
  std::vector<double> w = {1, 2, 3, 4}, b;
  REQUIRE(foldConvBatchNorm(w.data(), w.size(), {2, 2, 1, 1}, true, 1, b, twoChannels()));
  CHECK(w[0] == doctest::Approx(0.5));
  CHECK(w[1] == doctest::Approx(2 * s1));
  CHECK(w[2] == doctest::Approx(1.5));
  CHECK(w[3] == doctest::Approx(4 * s1));
}

TEST_CASE("grouped ConvTranspose: output channel = group * (Cout/groups) + j") {
  // [Cin = 4, Cout/groups = 1, 1, 1], groups 2: inputs 0,1 feed output 0; inputs 2,3 output 1.
  std::vector<double> w = {1, 1, 1, 1}, b;
  REQUIRE(foldConvBatchNorm(w.data(), w.size(), {4, 1, 1, 1}, true, 2, b, twoChannels()));
  CHECK(w[0] == doctest::Approx(0.5));
  CHECK(w[1] == doctest::Approx(0.5));
  CHECK(w[2] == doctest::Approx(s1));
  CHECK(w[3] == doctest::Approx(s1));
}

TEST_CASE("shapes that do not fit are refused") {
  std::vector<double> w = {1, 2, 3}, b;
  CHECK_FALSE(foldConvBatchNorm(w.data(), w.size(), {3, 1, 1, 1}, false, 1, b, twoChannels()));
}

TEST_CASE("Gemm with transB: B [N, K] scales by row; C = (beta*C - mean)*s + bn.beta") {
  std::vector<double> B = {1, 2, 3, 4, 5, 6}, C = {1, 1};
  REQUIRE(foldGemmBatchNorm(B.data(), B.size(), {2, 3}, true, 0.5, C, twoChannels()));
  CHECK(B[0] == doctest::Approx(0.5));
  CHECK(B[2] == doctest::Approx(1.5));
  CHECK(B[3] == doctest::Approx(4 * s1));
  CHECK(C[0] == doctest::Approx((0.5 - 1) * 0.5 + 0.5));
  CHECK(C[1] == doctest::Approx(0.5 * s1 - 1));
}

TEST_CASE("Gemm without transB: B [K, N] scales by column; no C") {
  std::vector<double> B = {1, 2, 3, 4}, C;
  REQUIRE(foldGemmBatchNorm(B.data(), B.size(), {2, 2}, false, 1.0, C, twoChannels()));
  CHECK(B[0] == doctest::Approx(0.5));
  CHECK(B[1] == doctest::Approx(2 * s1));
  CHECK(B[2] == doctest::Approx(1.5));
  CHECK(B[3] == doctest::Approx(4 * s1));
  CHECK(C[0] == doctest::Approx(-0.5 + 0.5));
}
