// Reductions: ReduceMean/Sum/Max/Min/Prod and ArgMax/ArgMin.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

enum class Reduce { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kSumSquare, kLogSum, kLogSumExp };

}  // namespace

std::vector<bool> reducedAxes(const KernelContext& c, size_t rank, bool& noop) {
  std::vector<int64_t> axes =
      c.optionalInput(1) ? c.input(1).asInts() : c.intsAttribute("axes", {});
  noop = axes.empty() && c.intAttribute("noop_with_empty_axes", 0) != 0;
  std::vector<bool> reduced(rank, axes.empty());
  for (int64_t a : axes) reduced[normalizeAxis(a, rank)] = true;
  return reduced;
}

namespace {

// Sum, mean, max, min, product, L1 and sum of squares of integers, in int64 and wrapping to the
// type as numpy does: through a double, 2^53 + 1 became 2^53. The mean truncates toward zero.
template <typename OutputOf>
Value reduceIntegers(Reduce kind, const Value& x, const std::vector<int64_t>& out_shape,
                     int64_t out_n, const OutputOf& output_of) {
  bool extreme = kind == Reduce::kMax || kind == Reduce::kMin;
  int64_t n = x.numel(), count = n / std::max<int64_t>(out_n, 1);
  if (count == 0 && out_n > 0 && (extreme || kind == Reduce::kMean))
    throw ExecError("unsupported: an integer max, min or mean over no elements");
  int64_t init = kind == Reduce::kMax   ? INT64_MIN
                 : kind == Reduce::kMin ? INT64_MAX
                 : kind == Reduce::kProd ? 1
                                         : 0;
  std::vector<uint64_t> acc(static_cast<size_t>(out_n), static_cast<uint64_t>(init));
  for (int64_t k = 0; k < n; ++k) {
    uint64_t& a = acc[output_of(k)];
    int64_t v = x.i[static_cast<size_t>(k)];
    uint64_t u = static_cast<uint64_t>(v);
    switch (kind) {
      case Reduce::kMax:
        if (v > static_cast<int64_t>(a)) a = u;
        break;
      case Reduce::kMin:
        if (v < static_cast<int64_t>(a)) a = u;
        break;
      case Reduce::kProd:
        a *= u;
        break;
      case Reduce::kL1:
        a += v < 0 ? 0 - u : u;
        break;
      case Reduce::kSumSquare:
        a += u * u;
        break;
      default:  // kSum, kMean
        a += u;
        break;
    }
  }
  Value y;
  y.dtype = x.dtype;
  y.shape = out_shape;
  for (uint64_t a : acc) {
    int64_t v = static_cast<int64_t>(a);
    if (kind == Reduce::kMean) v /= count;
    y.i.push_back(wrapTo(v, x.dtype));
  }
  return y;
}

Kernel reduce(Reduce kind) {
  return [kind](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    bool noop = false;
    std::vector<bool> reduced = reducedAxes(c, rank, noop);
    // noop_with_empty_axes without axes reduces over none: each element alone, which still
    // squares (ReduceSumSquare), takes |x| (L1, L2) or the log (LogSum), as ONNX's reference does.
    if (noop) reduced.assign(rank, false);
    bool keep = c.intAttribute("keepdims", 1) != 0;
    std::vector<int64_t> kept_shape(rank), out_shape;
    for (size_t d = 0; d < rank; ++d) {
      kept_shape[d] = reduced[d] ? 1 : x.shape[d];
      if (!reduced[d] || keep) out_shape.push_back(kept_shape[d]);
    }
    int64_t out_n = 1;
    for (int64_t d : kept_shape) out_n *= d;
    std::vector<int64_t> in_strides = stridesOf(x.shape), out_strides = stridesOf(kept_shape);
    int64_t n = x.numel();
    auto outputOf = [&](int64_t k) {
      int64_t o = 0;
      for (size_t d = 0; d < rank; ++d) {
        if (!reduced[d]) o += (k / in_strides[d]) % x.shape[d] * out_strides[d];
      }
      return static_cast<size_t>(o);
    };
    if (!x.isFloat() && !x.isDouble() && kind != Reduce::kL2 && kind != Reduce::kLogSum &&
        kind != Reduce::kLogSumExp)
      return outputs(reduceIntegers(kind, x, out_shape, out_n, outputOf));
    double init = kind == Reduce::kMax    ? -INFINITY
                  : kind == Reduce::kMin  ? INFINITY
                  : kind == Reduce::kProd ? 1
                                          : 0;
    std::vector<double> acc(static_cast<size_t>(out_n), init);
    // LogSumExp as m + log Σ exp(x - m), m the largest finite element: exp(x) alone is inf past
    // x = 709 (a row [1000] gave inf).
    std::vector<double> peak;
    if (kind == Reduce::kLogSumExp) {
      peak.assign(acc.size(), 0.0);
      std::vector<bool> seen(acc.size(), false);
      for (int64_t k = 0; k < n; ++k) {
        double v = x.at(static_cast<size_t>(k));
        size_t o = outputOf(k);
        if (std::isfinite(v) && (!seen[o] || v > peak[o])) {
          peak[o] = v;
          seen[o] = true;
        }
      }
    }
    for (int64_t k = 0; k < n; ++k) {
      size_t o = outputOf(k);
      double v = x.at(static_cast<size_t>(k));
      double& a = acc[o];
      switch (kind) {
        case Reduce::kSum:
        case Reduce::kMean:
          a += v;
          break;
        case Reduce::kMax:  // a NaN is the answer, as in numpy and ONNX Runtime
          if (v > a || std::isnan(v)) a = v;
          break;
        case Reduce::kMin:
          if (v < a || std::isnan(v)) a = v;
          break;
        case Reduce::kProd:
          a *= v;
          break;
        case Reduce::kL1:
          a += std::fabs(v);
          break;
        case Reduce::kL2:
        case Reduce::kSumSquare:
          a += v * v;
          break;
        case Reduce::kLogSum:
          a += v;
          break;
        case Reduce::kLogSumExp:
          a += std::exp(v - peak[o]);
          break;
      }
    }
    for (size_t o = 0; o < acc.size(); ++o) {
      double& a = acc[o];
      if (kind == Reduce::kL2) a = std::sqrt(a);
      if (kind == Reduce::kLogSum) a = std::log(a);
      if (kind == Reduce::kLogSumExp) a = std::log(a) + peak[o];
    }
    if (kind == Reduce::kMean) {
      double count = static_cast<double>(n) / static_cast<double>(std::max<int64_t>(out_n, 1));
      for (double& a : acc) a /= count;
    }
    Value y;
    y.dtype = x.dtype;
    y.shape = out_shape;
    if (x.isDouble())
      y.d = std::move(acc);
    else if (x.isFloat())
      y.f.assign(acc.begin(), acc.end());
    else
      for (double a : acc) y.i.push_back(static_cast<int64_t>(a));
    return outputs(std::move(y));
  };
}

Kernel argExtreme(bool max) {
  return [max](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), rank);
    bool keep = c.intAttribute("keepdims", 1) != 0,
         last = c.intAttribute("select_last_index", 0) != 0;
    int64_t outer = 1, inner = 1, extent = x.shape[axis];
    for (size_t d = 0; d < axis; ++d) outer *= x.shape[d];
    for (size_t d = axis + 1; d < rank; ++d) inner *= x.shape[d];
    std::vector<int64_t> shape = x.shape;
    if (keep)
      shape[axis] = 1;
    else
      shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(axis));
    Value y = Value::ints(shape, std::vector<int64_t>(static_cast<size_t>(outer * inner)));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t r = 0; r < inner; ++r) {
        // Integers compared as integers: as doubles, 2^53 and 2^53 + 1 tied.
        auto pick = [&](auto value) {
          int64_t best = 0;
          decltype(value(0)) best_v{};
          for (int64_t k = 0; k < extent; ++k) {
            auto v = value(static_cast<size_t>((o * extent + k) * inner + r));
            // A NaN is the extreme, as numpy, PyTorch and ONNX's reference (np.argmax) take it:
            // the first one (the last with select_last_index); a NaN at 0 used to stay, one
            // after it was passed over.
            bool v_nan = v != v, best_nan = best_v != best_v;
            bool better = k == 0 || (v_nan      ? !best_nan || last
                                     : best_nan ? false
                                     : max      ? (v > best_v || (last && v == best_v))
                                                : (v < best_v || (last && v == best_v)));
            if (better) {
              best = k;
              best_v = v;
            }
          }
          return best;
        };
        y.i[static_cast<size_t>(o * inner + r)] =
            x.isFloat() || x.isDouble() ? pick([&](size_t at) { return x.at(at); })
                                        : pick([&](size_t at) { return x.i[at]; });
      }
    }
    return outputs(std::move(y));
  };
}

// TopK: the k largest (or smallest) along an axis, values and int64 indices; ties keep the
// lower index first, as ONNX specifies.
std::vector<Value> topK(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  std::vector<int64_t> k_values =
      c.optionalInput(1) ? c.input(1).asInts() : std::vector<int64_t>{c.intAttribute("k", -1)};
  size_t axis = normalizeAxis(c.intAttribute("axis", -1), x.shape.size());
  bool largest = c.intAttribute("largest", 1) != 0;
  int64_t extent = x.shape[axis], k = k_values.empty() ? -1 : k_values[0];
  if (k < 0 || k > extent) throw ExecError("k is out of range");
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= x.shape[d];
  for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  std::vector<int64_t> shape = x.shape;
  shape[axis] = k;
  Value values = Value::floats(shape, std::vector<float>(static_cast<size_t>(outer * k * inner)));
  Value indices = Value::ints(shape, std::vector<int64_t>(values.f.size()));
  std::vector<int64_t> order(static_cast<size_t>(extent));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      auto at = [&](int64_t j) { return x.f[static_cast<size_t>((o * extent + j) * inner + r)]; };
      for (int64_t j = 0; j < extent; ++j) order[static_cast<size_t>(j)] = j;
      // NaN counts as larger than every number (PyTorch's topk, numpy's sort): a strict weak
      // order, where `>` with a NaN was none (the sort then dropped numbers: [0, NaN, 5] gave 0).
      auto less = [](float u, float v) { return !std::isnan(u) && (std::isnan(v) || u < v); };
      std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return largest ? less(at(b), at(a)) : less(at(a), at(b));
      });
      for (int64_t j = 0; j < k; ++j) {
        size_t out = static_cast<size_t>((o * k + j) * inner + r);
        values.f[out] = at(order[static_cast<size_t>(j)]);
        indices.i[out] = order[static_cast<size_t>(j)];
      }
    }
  }
  return outputs(std::move(values), std::move(indices));
}

std::vector<Value> cumSum(const KernelContext& c) {
  const Value& x = c.input(0);
  size_t axis = normalizeAxis(c.input(1).asInts().at(0), x.shape.size());
  bool exclusive = c.intAttribute("exclusive", 0) != 0, reverse = c.intAttribute("reverse", 0) != 0;
  int64_t outer = 1, inner = 1, extent = x.shape[axis];
  for (size_t d = 0; d < axis; ++d) outer *= x.shape[d];
  for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  Value y = x;
  auto store = [&](size_t at, double sum) {
    if (x.isDouble())
      y.d[at] = sum;
    else
      y.f[at] = static_cast<float>(sum);
  };
  bool integer = !x.isFloat() && !x.isDouble();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      if (integer) {  // in int64, wrapping to the type (through a double, 2^53 + 1 became 2^53)
        uint64_t sum = 0;
        for (int64_t step = 0; step < extent; ++step) {
          int64_t j = reverse ? extent - 1 - step : step;
          size_t at = static_cast<size_t>((o * extent + j) * inner + r);
          uint64_t v = static_cast<uint64_t>(x.i[at]);
          if (exclusive) y.i[at] = wrapTo(static_cast<int64_t>(sum), x.dtype);
          sum += v;
          if (!exclusive) y.i[at] = wrapTo(static_cast<int64_t>(sum), x.dtype);
        }
        continue;
      }
      double sum = 0;
      for (int64_t step = 0; step < extent; ++step) {
        int64_t j = reverse ? extent - 1 - step : step;
        size_t at = static_cast<size_t>((o * extent + j) * inner + r);
        double v = x.at(at);
        if (exclusive) store(at, sum);
        sum += v;
        if (!exclusive) store(at, sum);
      }
    }
  }
  return outputs(std::move(y));
}

}  // namespace

void addReductionKernels(KernelTable& t) {
  add(t, {"torch.topk"}, topK);
  add(t, {"torch.cumsum"}, cumSum);
  add(t, {"torch.sum"}, reduce(Reduce::kSum));
  add(t, {"torch.mean"}, reduce(Reduce::kMean));
  add(t, {"torch.amax"}, reduce(Reduce::kMax));
  add(t, {"torch.amin"}, reduce(Reduce::kMin));
  add(t, {"torch.prod"}, reduce(Reduce::kProd));
  add(t, {"onnx.ReduceL1"}, reduce(Reduce::kL1));
  add(t, {"onnx.ReduceL2"}, reduce(Reduce::kL2));
  add(t, {"onnx.ReduceSumSquare"}, reduce(Reduce::kSumSquare));
  add(t, {"onnx.ReduceLogSum"}, reduce(Reduce::kLogSum));
  add(t, {"onnx.ReduceLogSumExp"}, reduce(Reduce::kLogSumExp));
  add(t, {"torch.nn.functional.layer_norm", "module:LayerNorm"}, [](const KernelContext& c) {
    const Value& x = requireFloat(c.input(0), "the input");
    const Value* scale = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    const Value* bias = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    if (c.intAttribute("stash_type", 1) != 1) throw ExecError("unsupported: stash_type");
    size_t axis = normalizeAxis(c.intAttribute("axis", -1), x.shape.size());
    int64_t inner = 1;
    for (size_t d = axis; d < x.shape.size(); ++d) inner *= x.shape[d];
    float eps = c.floatAttribute("epsilon", 1e-5f);
    for (const Value* affine : {scale, bias}) {
      if (affine && affine->f.size() != 1 && static_cast<int64_t>(affine->f.size()) != inner)
        throw ExecError("the scale and bias must have one element or one per normalized element (" +
                        std::to_string(inner) + "), not " + std::to_string(affine->f.size()));
    }
    Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
    // Mean and inverse standard deviation (ONNX's optional outputs): one per row, shaped as the
    // input with the normalized axes kept as 1.
    std::vector<int64_t> row_shape = x.shape;
    for (size_t d = axis; d < row_shape.size(); ++d) row_shape[d] = 1;
    int64_t rows = 1;  // the dimensions before the axis (an empty row still counts)
    for (size_t d = 0; d < axis; ++d) rows *= x.shape[d];
    Value means = Value::floats(row_shape, std::vector<float>(static_cast<size_t>(rows)));
    Value inv_std = means;
    for (int64_t row = 0; row < rows; ++row) {
      const float* in = x.f.data() + (row * inner);
      double mean = 0, var = 0;
      for (int64_t k = 0; k < inner; ++k) mean += in[k];
      mean /= static_cast<double>(inner);
      for (int64_t k = 0; k < inner; ++k) var += (in[k] - mean) * (in[k] - mean);
      var /= static_cast<double>(inner);
      double inv = 1.0 / std::sqrt(var + eps);
      means.f[static_cast<size_t>(row)] = static_cast<float>(mean);
      inv_std.f[static_cast<size_t>(row)] = static_cast<float>(inv);
      for (int64_t k = 0; k < inner; ++k) {
        size_t at = static_cast<size_t>(k);
        double v = (in[k] - mean) * inv;
        if (scale) v *= scale->f[scale->f.size() == 1 ? 0 : at % scale->f.size()];
        if (bias) v += bias->f[bias->f.size() == 1 ? 0 : at % bias->f.size()];
        y.f[static_cast<size_t>(row * inner + k)] = static_cast<float>(v);
      }
    }
    return outputs(std::move(y), std::move(means), std::move(inv_std));
  });
  add(t, {"torch.argmax"}, argExtreme(true));
  add(t, {"torch.argmin"}, argExtreme(false));
}

}  // namespace fxc::exec
