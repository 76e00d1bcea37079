// Linear-algebra kernels: Det.
#include <cmath>
#include <utility>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The determinant of each [M, M] matrix of a [..., M, M] input, by LU decomposition with
// partial pivoting in double.
std::vector<Value> determinant(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  size_t rank = x.shape.size();
  if (rank < 2 || x.shape[rank - 1] != x.shape[rank - 2])
    throw ExecError("Det needs square matrices in the last two axes, not " + shapeText(x.shape));
  int64_t m = x.shape[rank - 1];
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 2);
  int64_t count = checkedNumel(shape);
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(count)));
  std::vector<double> a(static_cast<size_t>(m * m));
  for (int64_t b = 0; b < count; ++b) {
    for (size_t k = 0; k < a.size(); ++k) a[k] = x.f[static_cast<size_t>(b * m * m) + k];
    auto at = [&](int64_t r, int64_t col) -> double& {
      return a[static_cast<size_t>(r * m + col)];
    };
    double det = 1;
    for (int64_t col = 0; col < m && det != 0; ++col) {
      int64_t pivot = col;
      for (int64_t r = col + 1; r < m; ++r) {
        if (std::fabs(at(r, col)) > std::fabs(at(pivot, col))) pivot = r;
      }
      if (at(pivot, col) == 0) {
        det = 0;
        break;
      }
      if (pivot != col) {
        for (int64_t k = 0; k < m; ++k) std::swap(at(pivot, k), at(col, k));
        det = -det;
      }
      det *= at(col, col);
      for (int64_t r = col + 1; r < m; ++r) {
        double factor = at(r, col) / at(col, col);
        for (int64_t k = col; k < m; ++k) at(r, k) -= factor * at(col, k);
      }
    }
    y.f[static_cast<size_t>(b)] = static_cast<float>(det);
  }
  return {std::move(y)};
}

}  // namespace

void addLinearAlgebraKernels(KernelTable& t) { add(t, {"onnx.Det"}, determinant); }

}  // namespace fxc::exec
