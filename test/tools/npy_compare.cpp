// fxc-npy-compare GOT.npy WANT.npy ATOL RTOL [SCALE]: every element of GOT within
// ATOL + RTOL·|want| of SCALE·WANT (default 1; same shape); prints the largest errors and exits 1
// beyond them. For CLI tests that must compare values element-wise, not a mean or a summary line.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "exec/io.h"

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) {
    std::fprintf(stderr, "usage: fxc-npy-compare GOT.npy WANT.npy ATOL RTOL [SCALE]\n");
    return 2;
  }
  auto got = fxc::exec::readNpy(argv[1]);
  auto want = fxc::exec::readNpy(argv[2]);
  if (!got || !want) {
    std::fprintf(stderr, "fxc-npy-compare: %s\n", (!got ? got.error() : want.error()).c_str());
    return 2;
  }
  if (argc == 6) {
    float scale = static_cast<float>(std::atof(argv[5]));
    for (float& v : want.value().f) v *= scale;
    for (double& v : want.value().d) v *= scale;
    for (int64_t& v : want.value().i) v = static_cast<int64_t>(static_cast<double>(v) * scale);
  }
  if (got.value().shape != want.value().shape) {
    std::printf("shapes differ\n");
    return 1;
  }
  auto d =
      fxc::exec::compareValues(got.value(), want.value(), std::atof(argv[3]), std::atof(argv[4]));
  std::printf("max abs error %.3g, max rel error %.3g: %s\n", d.max_abs, d.max_rel,
              d.within ? "within" : "BEYOND");
  return d.within ? 0 : 1;
}
