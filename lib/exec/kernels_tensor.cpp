// Kernels that move data without arithmetic: shape, reshape, flatten, concat, transpose,
// (un)squeeze, gather, identity, cast.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// Input 0's elements under another shape: the input itself when this node reads it last.
Value withShape(const KernelContext& c, std::vector<int64_t> shape) {
  const Value& x = c.input(0);
  Value y;
  y.shape = shape;
  if (y.numel() != x.numel())
    throw ExecError("cannot reshape " + shapeText(x.shape) + " to " + shapeText(y.shape));
  y = c.takeInput(0);
  y.shape = std::move(shape);
  return y;
}

// The axes of Squeeze/Unsqueeze: input 1 (opset 13+) or the axes attribute.
std::vector<int64_t> axesOf(const KernelContext& c) {
  if (const Value* axes = c.optionalInput(1)) return axes->asInts();
  return c.intsAttribute("axes", {});
}

// Cast: float32, float64 and the integer types the executor keeps (wrapped to the target's
// width, as C casts do), bool as nonzero. float16 and bfloat16 are computed in float32: a cast to
// them rounds to the nearest value of the type and the result stays float32.
Value castTo(const Value& x, ir::DType to) {
  Value y;
  y.shape = x.shape;
  y.dtype = to;
  size_t n = x.held();
  if (to == ir::DType::kFloat32 || to == ir::DType::kFloat16 || to == ir::DType::kBFloat16) {
    y.dtype = ir::DType::kFloat32;
    y.f.resize(n);
    for (size_t k = 0; k < n; ++k) {
      float v = x.isFloat() ? x.f[k] : narrowToFloat(x.at(k));
      y.f[k] = to == ir::DType::kFloat16    ? roundToFloat16(v)
               : to == ir::DType::kBFloat16 ? roundToBFloat16(v)
                                            : v;
    }
    return y;
  }
  if (to == ir::DType::kFloat64) {
    y.d.resize(n);
    for (size_t k = 0; k < n; ++k) y.d[k] = x.at(k);
    return y;
  }
  if (!heldAsInteger(to)) throw ExecError("unsupported: Cast to " + std::string(ir::dtypeName(to)));
  y.i.resize(n);
  bool floating = x.isFloat() || x.isDouble();
  for (size_t k = 0; k < n; ++k) {
    if (to == ir::DType::kBool) {
      y.i[k] = floating ? x.at(k) != 0 : x.i[k] != 0;
      continue;
    }
    if (floating && !(std::fabs(x.at(k)) < 9.2e18))
      throw ExecError("unsupported: Cast of " + std::to_string(x.at(k)) + " to an integer");
    y.i[k] = wrapTo(floating ? static_cast<int64_t>(x.at(k)) : x.i[k], to);
  }
  return y;
}

// to[k] for the row-major index k of out_shape = from[offset + Σ index_d · out_strides_d]: a
// transpose, slice or broadcast view of `from` made contiguous.
template <typename T>
void stridedCopyOf(const std::vector<T>& from, std::vector<T>& to,
                   const std::vector<int64_t>& out_shape, const std::vector<int64_t>& out_strides,
                   int64_t offset, int64_t n) {
  to.resize(static_cast<size_t>(n));
  if (n == 0) return;
  // Dimensions of one element dropped, and neighbours the source also walks in order (stride of
  // the outer = stride · size of the inner) merged: the rows copied get as long as they can be
  // (a channel shuffle's transpose copies whole planes, not rows of its last axis).
  std::vector<int64_t> shape, strides;
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 1) continue;
    if (!shape.empty() && strides.back() == out_strides[d] * out_shape[d]) {
      shape.back() *= out_shape[d];
      strides.back() = out_strides[d];
    } else {
      shape.push_back(out_shape[d]);
      strides.push_back(out_strides[d]);
    }
  }
  const T* in = from.data();
  T* out = to.data();
  if (shape.empty()) {
    out[0] = from.at(static_cast<size_t>(offset));
    return;
  }
  const size_t rank = shape.size();
  const bool parallel = n >= kParallelElements;  // copies cannot throw
  const int64_t inner = shape[rank - 1], step = strides[rank - 1];
  // A transpose (the last axis walks the source with a stride, another axis walks it in order):
  // square tiles of those two axes, so that each source line read is used for a whole tile row
  // instead of one element.
  size_t across = rank;
  if (step != 1) {
    for (size_t d = 0; d + 1 < rank; ++d)
      if (strides[d] == 1 && shape[d] >= 4 && inner >= 4) across = d;
  }
  if (across < rank) {
    constexpr int64_t kTile = 16;
    std::vector<int64_t> out_strides_of(rank);  // the output's own (contiguous) strides
    out_strides_of[rank - 1] = 1;
    for (size_t d = rank - 1; d-- > 0;) out_strides_of[d] = out_strides_of[d + 1] * shape[d + 1];
    // Tasks: every index of the other axes × a band of kTile along `across`.
    const int64_t size_across = shape[across];
    const int64_t bands = (size_across + kTile - 1) / kTile;
    int64_t others = 1;
    for (size_t d = 0; d + 1 < rank; ++d)
      if (d != across) others *= shape[d];
    const int64_t out_across = out_strides_of[across];
    forEachIndex(parallel && others * bands > 1, others * bands, [&](int64_t task) {
      int64_t band = task % bands, rest = task / bands;
      int64_t source = offset, target = 0;
      for (size_t d = rank - 1; d-- > 0;) {  // rest → the index of the other axes
        if (d == across) continue;
        int64_t index = rest % shape[d];
        rest /= shape[d];
        source += index * strides[d];
        target += index * out_strides_of[d];
      }
      const int64_t i0 = band * kTile, i1 = std::min(i0 + kTile, size_across);
      for (int64_t j0 = 0; j0 < inner; j0 += kTile) {
        const int64_t j1 = std::min(j0 + kTile, inner);
        for (int64_t i = i0; i < i1; ++i) {
          const T* row = in + source + i;
          T* dst = out + target + i * out_across;
          for (int64_t j = j0; j < j1; ++j) dst[j] = row[j * step];
        }
      }
    });
    return;
  }
  // Rows of the last axis, in blocks of rows on the thread pool when the copy is large.
  const int64_t rows = n / inner;
  const int64_t rows_per_block = std::max<int64_t>(1, (int64_t{1} << 14) / inner);
  const int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
  // Each block's odometer, allocated here: nothing may throw inside the OpenMP region.
  std::vector<int64_t> indices(static_cast<size_t>(parallel ? blocks : 1) * rank);
  forEachIndex(parallel && blocks > 1, blocks, [&](int64_t block) {
    const int64_t first = block * rows_per_block, last = std::min(rows, first + rows_per_block);
    int64_t* index = indices.data() + (parallel ? static_cast<size_t>(block) * rank : 0);
    int64_t source = offset;
    for (size_t d = rank - 1, rest = static_cast<size_t>(first); d-- > 0;) {
      index[d] = static_cast<int64_t>(rest) % shape[d];
      rest /= static_cast<size_t>(shape[d]);
      source += index[d] * strides[d];
    }
    for (int64_t r = first; r < last; ++r) {
      T* dst = out + r * inner;
      if (step == 1) {
        std::copy(in + source, in + source + inner, dst);
      } else {
        for (int64_t j = 0; j < inner; ++j) dst[j] = in[source + j * step];
      }
      for (size_t d = rank - 1; d-- > 0;) {  // the next row: the odometer over the outer dims
        source += strides[d];
        if (++index[d] < shape[d]) break;
        source -= strides[d] * shape[d];
        index[d] = 0;
      }
    }
  });
}

}  // namespace

void stridedCopy(const Value& x, Value& y, const std::vector<int64_t>& strides, int64_t offset) {
  int64_t n = checkedNumel(y.shape, y.dtype);
  if (x.isFloat())
    stridedCopyOf(x.f, y.f, y.shape, strides, offset, n);
  else
    stridedCopyOf(x.i, y.i, y.shape, strides, offset, n);
}

std::vector<int64_t> padAmounts(const KernelContext& c) {
  if (c.optionalInput(3)) throw ExecError("unsupported: Pad with axes");
  std::vector<int64_t> pads = c.optionalInput(1) ? c.input(1).asInts()
                              : c.tensor("pads") ? c.tensor("pads")->asInts()
                                                 : c.intsAttribute("pads", {});
  if (pads.size() != 2 * c.input(0).shape.size()) throw ExecError("pads do not match the rank");
  for (int64_t pad : pads) {  // the padded sizes are sums: none may overflow
    if (pad > (int64_t{1} << 48) || pad < -(int64_t{1} << 48))
      throw ExecError("a pad of " + std::to_string(pad) + " is past any tensor's size");
  }
  return pads;
}

const Value* padFill(const KernelContext& c) {
  const Value* fill = c.optionalInput(2) ? c.optionalInput(2) : c.tensor("constant_value");
  return fill && fill->numel() > 0 ? fill : nullptr;
}

double padValue(const KernelContext& c) {
  const Value* fill = padFill(c);
  return fill ? (fill->isFloat() ? fill->f[0] : static_cast<double>(fill->i[0]))
              : c.floatAttribute("value", 0.0f);
}

// An integer tensor's fill as it is given: through a double, 2^53 + 1 became 2^53.
int64_t padIntValue(const KernelContext& c) {
  const Value* fill = padFill(c);
  return fill && !fill->isFloat() && !fill->isDouble() ? fill->i[0]
                                                       : static_cast<int64_t>(padValue(c));
}

// Pad of float32 in constant mode without negative pads, for the fast table: the output filled
// with the constant, then each of the input's rows copied to its place (the reference works out
// every element's source by division: 39 ms of Inception-v3's 100).
Kernel constantPadByRows(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat() || x.native || x.shape.empty() || c.optionalInput(3) ||
        c.stringAttribute("mode", "constant") != "constant")
      return reference(c);
    std::vector<int64_t> pads = padAmounts(c);
    if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p < 0; })) return reference(c);
    size_t rank = x.shape.size();
    std::vector<int64_t> shape(rank);
    for (size_t d = 0; d < rank; ++d) shape[d] = x.shape[d] + pads[d] + pads[d + rank];
    Value y = Value::floats(
        shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape, ir::DType::kFloat32)),
                                  static_cast<float>(padValue(c))));
    int64_t row = x.shape[rank - 1];
    if (x.numel() == 0) return outputs(std::move(y));
    std::vector<int64_t> strides = stridesOf(shape);
    int64_t start = 0;
    for (size_t d = 0; d < rank; ++d) start += pads[d] * strides[d];
    std::vector<int64_t> index(rank, 0);  // the row's place in the input, an odometer
    for (int64_t r = 0, rows = x.numel() / row; r < rows; ++r) {
      int64_t at = start;
      for (size_t d = 0; d + 1 < rank; ++d) at += index[d] * strides[d];
      std::memcpy(y.f.data() + at, x.f.data() + r * row, static_cast<size_t>(row) * sizeof(float));
      for (size_t d = rank - 1; d-- > 0;) {
        if (++index[d] < x.shape[d]) break;
        index[d] = 0;
      }
    }
    return outputs(std::move(y));
  };
}

// Gather of float32 for the fast table: each index picks a contiguous block of the elements
// after the axis, copied whole (Swin's q, k, v = qkv[0], qkv[1], qkv[2]: 24 of its 111 ms by
// the reference's per-element division). Out-of-range indices are the reference's to refuse.
Kernel gatherByBlocks(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat() || x.native || x.shape.empty() || c.input(1).isFloat() ||
        c.input(1).isDouble())
      return reference(c);
    std::vector<int64_t> indices = c.input(1).asInts();
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), x.shape.size());
    int64_t inner = 1, outer = 1, extent = x.shape[axis];
    for (size_t k = axis + 1; k < x.shape.size(); ++k) inner *= x.shape[k];
    for (size_t k = 0; k < axis; ++k) outer *= x.shape[k];
    for (int64_t& index : indices) {
      if (index < -extent || index >= extent) return reference(c);
      if (index < 0) index += extent;
    }
    std::vector<int64_t> shape(x.shape.begin(),
                               x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    shape.insert(shape.end(), c.input(1).shape.begin(), c.input(1).shape.end());
    shape.insert(shape.end(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                 x.shape.end());
    int64_t count = static_cast<int64_t>(indices.size());
    Value y = Value::floats(
        shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape, ir::DType::kFloat32))));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < count; ++j) {
        const float* from = x.f.data() + (o * extent + indices[static_cast<size_t>(j)]) * inner;
        std::copy(from, from + inner, y.f.data() + (o * count + j) * inner);
      }
    }
    return outputs(std::move(y));
  };
}

SliceWindow sliceWindow(const KernelContext& c, const std::vector<int64_t>& shape) {
  size_t rank = shape.size();
  // Inputs (opset 10+) or attributes (before).
  bool from_inputs = c.inputCount() >= 3;
  std::vector<int64_t> starts = from_inputs ? c.input(1).asInts() : c.intsAttribute("starts", {});
  std::vector<int64_t> ends = from_inputs ? c.input(2).asInts() : c.intsAttribute("ends", {});
  std::vector<int64_t> axes;
  if (from_inputs && c.optionalInput(3))
    axes = c.input(3).asInts();
  else if (!from_inputs)
    axes = c.intsAttribute("axes", {});
  std::vector<int64_t> steps =
      from_inputs && c.optionalInput(4) ? c.input(4).asInts() : std::vector<int64_t>{};
  if (axes.empty())
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (starts.size() != ends.size() || axes.size() != starts.size() || steps.size() != starts.size())
    throw ExecError("starts, ends, axes and steps differ in length");
  SliceWindow window{std::vector<int64_t>(rank, 0), std::vector<int64_t>(rank, 1), shape};
  for (size_t k = 0; k < axes.size(); ++k) {
    size_t a = normalizeAxis(axes[k], rank);
    int64_t dim = shape[a], s = steps[k];
    if (s == 0) throw ExecError("a slice step of 0");
    int64_t lo = starts[k] < 0 ? starts[k] + dim : starts[k],
            hi = ends[k] < 0 ? ends[k] + dim : ends[k];
    if (s > 0) {
      lo = std::clamp(lo, int64_t{0}, dim);
      hi = std::clamp(hi, int64_t{0}, dim);
      window.shape[a] = hi > lo ? (hi - lo + s - 1) / s : 0;
    } else {
      // Backwards, a start before the first element starts at it (ONNX clamps starts to
      // [0, dim - 1] and ends to [-1, dim - 1]); an empty axis has no element to start at.
      lo = dim == 0 ? -1 : std::clamp(lo, int64_t{0}, dim - 1);
      hi = std::clamp(hi, int64_t{-1}, dim - 1);
      window.shape[a] = lo > hi ? (lo - hi - s - 1) / -s : 0;
    }
    window.begin[a] = lo;
    window.step[a] = s;
  }
  return window;
}

void addTensorKernels(KernelTable& t) {
  add(t, {"onnx.Identity", "torch.nn.functional.dropout", "module:Identity", "module:Dropout"},
      [](const KernelContext& c) {
        // A Dropout module holds its ratio and training_mode as buffers (the tracer makes one
        // only when both are constants); the function form has them as inputs 1 and 2.
        // The mask that keeps everything: bool from opset 10, the input's type before (1.0).
        auto keep_all = [&c](const Value& x) {
          size_t n = static_cast<size_t>(x.numel());
          if (c.opset() == 0 || c.opset() >= 10)
            return Value::ints(x.shape, std::vector<int64_t>(n, 1), ir::DType::kBool);
          if (!x.isFloat())
            throw ExecError("unsupported: a Dropout-7 mask of " +
                            std::string(ir::dtypeName(x.dtype)));
          return Value::floats(x.shape, std::vector<float>(n, 1.0f));
        };
        const Value* training = parameter(c, "training_mode", 2);
        if (!training || training->asInts().empty() || !training->asInts()[0]) {
          // Inference drops nothing: the mask, when read, keeps everything.
          if (!c.outputUsed(1)) return outputs(c.takeInput(0));
          const Value& x = c.input(0);
          return outputs(x, keep_all(x));
        }
        // Training mode drops nothing at ratio 0 (Swin's attention dropout as exported): the
        // input, and a mask that keeps everything. Any other ratio is random: refused.
        const Value* ratio = parameter(c, "ratio", 1);
        if (!ratio || ratio->numel() != 1 || (ratio->isFloat() ? ratio->f[0] : 1.0f) != 0.0f)
          throw ExecError("unsupported: Dropout in training mode with a nonzero ratio");
        const Value& x = c.input(0);
        return outputs(x, keep_all(x));
      });
  add(t, {"onnx.Shape"}, [](const KernelContext& c) {
    const auto& shape = c.input(0).shape;
    int64_t rank = static_cast<int64_t>(shape.size());
    int64_t start = c.intAttribute("start", 0), end = c.intAttribute("end", rank);
    start = std::clamp(start < 0 ? start + rank : start, int64_t{0}, rank);
    end = std::clamp(end < 0 ? end + rank : end, int64_t{0}, rank);
    std::vector<int64_t> dims(shape.begin() + start, shape.begin() + std::max(start, end));
    return outputs(Value::ints({static_cast<int64_t>(dims.size())}, dims));
  });
  add(t, {"torch.flatten", "module:Flatten"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    int64_t rank = static_cast<int64_t>(x.shape.size()), requested = c.intAttribute("axis", 1);
    if (requested < -rank || requested > rank) throw ExecError("flatten axis is out of range");
    size_t axis = static_cast<size_t>(requested < 0 ? requested + rank : requested);
    int64_t outer = 1;
    for (size_t k = 0; k < axis; ++k) outer *= x.shape[k];
    return outputs(withShape(c, {outer, x.numel() / std::max<int64_t>(outer, 1)}));
  });
  add(t, {"torch.reshape"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    std::vector<int64_t> shape =
        c.optionalInput(1) ? c.input(1).asInts() : c.intsAttribute("shape", {});
    bool allow_zero = c.intAttribute("allowzero", 0) != 0;
    int64_t known = 1;
    int inferred = -1;
    for (size_t k = 0; k < shape.size(); ++k) {
      if (shape[k] == 0 && !allow_zero) {
        if (k >= x.shape.size()) throw ExecError("reshape copies a dimension the input lacks");
        shape[k] = x.shape[k];
      }
      if (shape[k] == -1) {
        if (inferred >= 0) throw ExecError("reshape has two -1 dimensions");
        inferred = static_cast<int>(k);
      } else if (shape[k] < 0) {
        throw ExecError("reshape to a negative dimension " + std::to_string(shape[k]));
      } else if (__builtin_mul_overflow(known, shape[k], &known)) {
        throw ExecError("reshape to " + shapeText(shape) + ": its element count overflows");
      }
    }
    if (inferred >= 0) shape[static_cast<size_t>(inferred)] = known == 0 ? 0 : x.numel() / known;
    return outputs(withShape(c, shape));
  });
  add(t, {"torch.unsqueeze"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    std::vector<int64_t> axes = axesOf(c);
    size_t rank = x.shape.size() + axes.size();
    std::vector<bool> inserted(rank, false);
    for (int64_t a : axes) {
      size_t axis = normalizeAxis(a, rank);
      if (inserted[axis])
        throw ExecError("Unsqueeze axes name axis " + std::to_string(a) + " twice");
      inserted[axis] = true;
    }
    std::vector<int64_t> shape;
    size_t next = 0;
    for (size_t k = 0; k < rank; ++k) shape.push_back(inserted[k] ? 1 : x.shape.at(next++));
    return outputs(withShape(c, shape));
  });
  add(t, {"torch.squeeze"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    std::vector<int64_t> axes = axesOf(c);
    std::vector<bool> drop(x.shape.size(), false);
    for (int64_t a : axes) {
      size_t axis = normalizeAxis(a, x.shape.size());
      if (x.shape[axis] != 1)
        throw ExecError("Squeeze of axis " + std::to_string(a) + ", which has size " +
                        std::to_string(x.shape[axis]) + ", not 1");
      drop[axis] = true;
    }
    std::vector<int64_t> shape;
    for (size_t k = 0; k < x.shape.size(); ++k) {
      if (axes.empty() ? x.shape[k] == 1 : drop[k]) continue;
      shape.push_back(x.shape[k]);
    }
    return outputs(withShape(c, shape));
  });
  add(t, {"torch.cat"}, [](const KernelContext& c) {
    const Value& first = c.input(0);
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), first.shape.size());
    Value y = first;
    y.f.clear();
    y.i.clear();
    y.shape[axis] = 0;
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      if (v.shape.size() != first.shape.size() || v.dtype != first.dtype)
        throw ExecError("concatenated inputs differ in rank or type");
      for (size_t d = 0; d < v.shape.size(); ++d) {
        if (d != axis && v.shape[d] != first.shape[d])
          throw ExecError("concatenated inputs differ in shape off the axis");
      }
      y.shape[axis] += v.shape[axis];
    }
    int64_t outer = 1, inner = 1;
    for (size_t k = 0; k < axis; ++k) outer *= first.shape[k];
    for (size_t k = axis + 1; k < first.shape.size(); ++k) inner *= first.shape[k];
    size_t total = static_cast<size_t>(checkedNumel(y.shape, y.dtype));
    if (first.isFloat())
      y.f.reserve(total);
    else
      y.i.reserve(total);
    for (int64_t o = 0; o < outer; ++o) {
      for (size_t k = 0; k < c.inputCount(); ++k) {
        const Value& v = c.input(k);
        int64_t block = v.shape[axis] * inner;
        if (v.isFloat())
          y.f.insert(y.f.end(), v.f.begin() + o * block, v.f.begin() + (o + 1) * block);
        else
          y.i.insert(y.i.end(), v.i.begin() + o * block, v.i.begin() + (o + 1) * block);
      }
    }
    return outputs(std::move(y));
  });
  add(t, {"torch.permute"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    std::vector<int64_t> perm = c.intsAttribute("perm", {});
    if (perm.empty()) {
      perm.resize(rank);
      std::iota(perm.rbegin(), perm.rend(), 0);
    }
    if (perm.size() != rank) throw ExecError("perm does not match the rank");
    // A repeated axis would give an output of more elements than x, read past its end.
    std::vector<bool> seen(rank);
    for (int64_t& p : perm) {
      p = static_cast<int64_t>(normalizeAxis(p, rank));
      if (seen[static_cast<size_t>(p)]) throw ExecError("perm repeats an axis");
      seen[static_cast<size_t>(p)] = true;
    }
    Value y;
    y.dtype = x.dtype;
    for (int64_t p : perm) y.shape.push_back(x.shape[static_cast<size_t>(p)]);
    std::vector<int64_t> in_strides = stridesOf(x.shape), strides(rank);
    for (size_t d = 0; d < rank; ++d) strides[d] = in_strides[static_cast<size_t>(perm[d])];
    stridedCopy(x, y, strides, 0);
    return outputs(std::move(y));
  });
  add(t, {"onnx.Gather"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    std::vector<int64_t> indices = c.input(1).asInts();
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), x.shape.size());
    Value y;
    y.dtype = x.dtype;
    y.shape.assign(x.shape.begin(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    y.shape.insert(y.shape.end(), c.input(1).shape.begin(), c.input(1).shape.end());
    y.shape.insert(y.shape.end(), x.shape.begin() + static_cast<std::ptrdiff_t>(axis) + 1,
                   x.shape.end());
    int64_t inner = 1, extent = x.shape[axis];
    for (size_t k = axis + 1; k < x.shape.size(); ++k) inner *= x.shape[k];
    int64_t count = static_cast<int64_t>(indices.size());
    for (int64_t& index : indices) {
      if (index < -extent || index >= extent)
        throw ExecError("gather index " + std::to_string(index) + " is out of range");
      if (index < 0) index += extent;
    }
    gatherElements(x, y, [&](int64_t k) {
      int64_t o = k / (count * inner), j = (k / inner) % count, r = k % inner;
      return (o * extent + indices[static_cast<size_t>(j)]) * inner + r;
    });
    return outputs(std::move(y));
  });
  add(t, {"onnx.Slice"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    SliceWindow window = sliceWindow(c, x.shape);
    Value y;
    y.dtype = x.dtype;
    y.shape = window.shape;
    std::vector<int64_t> in_strides = stridesOf(x.shape), strides(rank);
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      strides[d] = window.step[d] * in_strides[d];
      offset += window.begin[d] * in_strides[d];
    }
    stridedCopy(x, y, strides, offset);
    return outputs(std::move(y));
  });
  // torch.nn.functional.channel_shuffle(x, groups = g) (the channel-shuffle pass's form of
  // reshape [N, g, C/g, …] → permute (0, 2, 1, …) → reshape [N, C, …]): output channel
  // j·g + i is input channel i·(C/g) + j; each channel's elements (the axes after it) move
  // together.
  add(t, {"torch.nn.functional.channel_shuffle"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    int64_t groups = c.intAttribute("groups", 0);
    if (x.shape.size() < 2) throw ExecError("channel_shuffle needs a rank of 2 or more");
    int64_t channels = x.shape[1];
    if (groups < 1 || channels % groups != 0)
      throw ExecError("channel_shuffle: " + std::to_string(channels) +
                      " channels do not split into groups of " + std::to_string(groups));
    int64_t inner = 1;
    for (size_t d = 2; d < x.shape.size(); ++d) inner *= x.shape[d];
    int64_t per_group = channels / groups;
    // As a strided read: [N, C/g, g, inner] over x's [N, g, C/g, inner].
    Value y;
    y.dtype = x.dtype;
    y.shape = {x.shape[0], per_group, groups, inner};
    stridedCopy(x, y, {channels * inner, inner, per_group * inner, 1}, 0);
    y.shape = x.shape;
    return outputs(std::move(y));
  });
  add(t, {"torch.broadcast_to"}, [](const KernelContext& c) {  // Expand
    const Value& x = c.input(0);
    std::vector<int64_t> given = c.input(1).asInts();
    size_t rank = std::max(x.shape.size(), given.size());
    std::vector<int64_t> shape(rank);
    for (size_t k = 0; k < rank; ++k) {
      int64_t a = k + x.shape.size() >= rank ? x.shape[k + x.shape.size() - rank] : 1;
      int64_t b = k + given.size() >= rank ? given[k + given.size() - rank] : 1;
      if (a != b && a != 1 && b != 1)
        throw ExecError("cannot expand " + shapeText(x.shape) + " to " + shapeText(given));
      shape[k] = a == 1 ? b : a;
    }
    Value y;
    y.dtype = x.dtype;
    y.shape = shape;
    std::vector<int64_t> own = stridesOf(x.shape), strides(rank, 0);  // 0: broadcast
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (x.shape[d] != 1) strides[d + rank - x.shape.size()] = own[d];
    }
    stridedCopy(x, y, strides, 0);
    return outputs(std::move(y));
  });
  add(t, {"torch.tile"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    std::vector<int64_t> repeats = c.input(1).asInts();
    if (repeats.size() != x.shape.size()) throw ExecError("repeats do not match the rank");
    Value y;
    y.dtype = x.dtype;
    for (size_t d = 0; d < x.shape.size(); ++d) y.shape.push_back(x.shape[d] * repeats[d]);
    std::vector<int64_t> own = stridesOf(x.shape), out = stridesOf(y.shape);
    gatherElements(x, y, [&](int64_t k) {
      int64_t source = 0;
      for (size_t d = 0; d < x.shape.size(); ++d)
        source += (k / out[d]) % y.shape[d] % x.shape[d] * own[d];
      return source;
    });
    return outputs(std::move(y));
  });
  add(t, {"torch.where"}, [](const KernelContext& c) {
    const Value& cond = c.input(0);
    const Value& a = c.input(1);
    const Value& b = c.input(2);
    if (a.isFloat() != b.isFloat()) throw ExecError("unsupported: branches of different types");
    // Broadcast all three by expanding to the common shape.
    size_t rank = std::max({cond.shape.size(), a.shape.size(), b.shape.size()});
    std::vector<int64_t> shape(rank, 1);
    for (const Value* v : {&cond, &a, &b}) {
      for (size_t k = 0; k < v->shape.size(); ++k) {
        int64_t& d = shape[k + rank - v->shape.size()];
        int64_t e = v->shape[k];
        if (d != e && d != 1 && e != 1) throw ExecError("shapes do not broadcast");
        if (e != 1) d = e;
      }
    }
    auto index = [&](const Value& v, int64_t k, const std::vector<int64_t>& strides) {
      int64_t at = 0;
      std::vector<int64_t> own = stridesOf(v.shape);
      for (size_t d = 0; d < v.shape.size(); ++d) {
        size_t o = d + rank - v.shape.size();
        if (v.shape[d] != 1) at += (k / strides[o]) % shape[o] * own[d];
      }
      return static_cast<size_t>(at);
    };
    std::vector<int64_t> strides = stridesOf(shape);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    Value y;
    y.dtype = a.dtype;
    y.shape = shape;
    std::vector<int64_t> flags = cond.asInts();
    for (int64_t k = 0; k < n; ++k) {
      bool pick = flags[index(cond, k, strides)] != 0;
      if (a.isFloat())
        y.f.push_back(pick ? a.f[index(a, k, strides)] : b.f[index(b, k, strides)]);
      else
        y.i.push_back(pick ? a.i[index(a, k, strides)] : b.i[index(b, k, strides)]);
    }
    return outputs(std::move(y));
  });
  add(t, {"torch.split"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), x.shape.size());
    std::vector<int64_t> sizes =
        c.optionalInput(1) ? c.input(1).asInts() : c.intsAttribute("split", {});
    // The node's output count (the trace's num_outputs): sizes of another count are refused, as
    // ONNX Runtime does (the getitems would have read the first parts only).
    int64_t outputs_count = c.intAttribute("num_outputs", 0);
    if (!sizes.empty() && outputs_count > 0 && static_cast<int64_t>(sizes.size()) != outputs_count)
      throw ExecError("Split into " + std::to_string(sizes.size()) + " parts has " +
                      std::to_string(outputs_count) + " outputs");
    if (sizes.empty()) {
      // num_outputs parts (the trace gives the output count before opset 18): equal ones
      // before opset 18, from opset 18 the last one smaller when the axis does not divide.
      int64_t parts = c.intAttribute("num_outputs", 0), extent = x.shape[axis];
      if (parts <= 0) throw ExecError("unsupported: Split into an unknown number of outputs");
      if (c.opset() < 18 && extent % parts != 0)
        throw ExecError("Split of " + std::to_string(extent) + " into " + std::to_string(parts) +
                        " equal parts");
      int64_t each = (extent + parts - 1) / parts;
      for (int64_t left = extent; left > 0; left -= each) sizes.push_back(std::min(each, left));
      if (static_cast<int64_t>(sizes.size()) != parts)
        throw ExecError("unsupported: Split of " + std::to_string(extent) + " into " +
                        std::to_string(parts) + " parts (some would be empty)");
    }
    // Checked before copying: each part reads its sizes' worth of x along the axis.
    int64_t extent = x.shape[axis], total = 0;
    for (int64_t size : sizes) {
      if (size < 0) throw ExecError("a split size is negative");
      if (size > extent - total) throw ExecError("split sizes do not add up to the axis");
      total += size;
    }
    if (total != extent) throw ExecError("split sizes do not add up to the axis");
    // Each part is a slice of x along the axis: x's strides from its first element there (rows
    // copied whole; a division per element took 2 ms for a YOLOv8 head's [1, 144, 2100]).
    std::vector<int64_t> strides = stridesOf(x.shape);
    int64_t offset = 0;
    std::vector<Value> parts;
    for (int64_t size : sizes) {
      Value part;
      part.dtype = x.dtype;
      part.shape = x.shape;
      part.shape[axis] = size;
      stridedCopy(x, part, strides, offset * strides[axis]);
      offset += size;
      parts.push_back(std::move(part));
    }
    return parts;
  });
  add(t, {"torch.nn.functional.pad", "module:ConstantPad2d"}, [](const KernelContext& c) {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    std::vector<int64_t> pads = padAmounts(c);
    std::string mode = c.stringAttribute("mode", "constant");
    if (mode != "constant" && mode != "reflect" && mode != "edge")
      throw ExecError("unsupported: Pad mode " + mode);
    double value = padValue(c);
    int64_t int_value = x.isFloat() ? 0 : padIntValue(c);
    Value y;
    y.dtype = x.dtype;
    for (size_t d = 0; d < rank; ++d) {
      y.shape.push_back(x.shape[d] + pads[d] + pads[d + rank]);
      if (y.shape.back() < 0) throw ExecError("negative output size");
      if (mode != "constant" && x.shape[d] == 0 && y.shape.back() > 0)
        throw ExecError("cannot reflect an empty axis");
      // A reflection reads the axis as cropped by the negative pads, at most its length − 1
      // elements past an end (ONNX's reference, ONNX Runtime and PyTorch refuse more). Mirroring
      // over the uncropped axis read an element the crop removed: [0, 1, 2, 3] with pads (−1, 3)
      // gave [1, 2, 3, 2, 1, 0].
      int64_t kept =
          x.shape[d] + std::min<int64_t>(pads[d], 0) + std::min<int64_t>(pads[d + rank], 0);
      int64_t longest = std::max(pads[d], pads[d + rank]);
      if (mode == "reflect" && longest > 0 && longest > kept - 1)
        throw ExecError("reflect pad of " + std::to_string(longest) + " along axis " +
                        std::to_string(d) + " exceeds " + std::to_string(kept - 1) +
                        ": it mirrors " + std::to_string(kept) + " element(s) (after cropping)");
    }
    // Checked: pads each below 2^48 still give shapes whose product wraps.
    int64_t n = checkedNumel(y.shape, y.dtype);
    std::vector<int64_t> in = stridesOf(x.shape), out = stridesOf(y.shape);
    for (int64_t k = 0; k < n; ++k) {
      int64_t source = 0;
      bool outside = false;
      for (size_t d = 0; d < rank; ++d) {
        int64_t i = (k / out[d]) % y.shape[d] - pads[d], size = x.shape[d];
        if (i < 0 || i >= size) {
          if (mode == "constant") {
            outside = true;
            break;
          }
          if (mode == "edge") {
            i = std::clamp(i, int64_t{0}, size - 1);
          } else {  // one mirror: the pads are below the axis's length (checked above)
            i = i < 0 ? -i : 2 * (size - 1) - i;
          }
        }
        source += i * in[d];
      }
      if (x.isFloat())
        y.f.push_back(outside ? static_cast<float>(value) : x.f[static_cast<size_t>(source)]);
      else
        y.i.push_back(outside ? int_value : x.i[static_cast<size_t>(source)]);
    }
    return outputs(std::move(y));
  });
  add(t, {"torch.nonzero"}, [](const KernelContext& c) {  // NonZero: [rank, count], C order
    const Value& x = c.input(0);
    std::vector<int64_t> hits;
    int64_t n = x.numel();
    for (int64_t k = 0; k < n; ++k) {
      bool nonzero =
          x.isFloat() ? x.f[static_cast<size_t>(k)] != 0.0f : x.i[static_cast<size_t>(k)] != 0;
      if (nonzero) hits.push_back(k);
    }
    int64_t rank = static_cast<int64_t>(x.shape.size());
    int64_t count = static_cast<int64_t>(hits.size());
    std::vector<int64_t> out(static_cast<size_t>(checkedNumel({rank, count}, ir::DType::kInt64)));
    std::vector<int64_t> strides = stridesOf(x.shape);
    for (int64_t h = 0; h < count; ++h) {
      for (int64_t d = 0; d < rank; ++d)
        out[static_cast<size_t>(d * count + h)] = hits[static_cast<size_t>(h)] /
                                                  strides[static_cast<size_t>(d)] %
                                                  x.shape[static_cast<size_t>(d)];
    }
    return outputs(Value::ints({rank, count}, std::move(out)));
  });
  add(t, {"onnx.Size"},
      [](const KernelContext& c) { return outputs(Value::ints({}, {c.input(0).numel()})); });
  add(t, {"torch.arange"}, [](const KernelContext& c) {  // Range
    const Value& start = c.input(0);
    const Value& limit = c.input(1);
    const Value& delta = c.input(2);
    if (start.dtype != limit.dtype || start.dtype != delta.dtype)
      throw ExecError("Range's start, limit and delta differ in type");
    if (start.numel() != 1 || limit.numel() != 1 || delta.numel() != 1)
      throw ExecError("Range's start, limit and delta must each have one element");
    Value y;
    y.dtype = start.dtype;
    if (start.isFloat()) {
      double s0 = start.f.at(0), l = limit.f.at(0), d = delta.f.at(0);
      if (d == 0) throw ExecError("Range with delta 0");
      double count = std::max(0.0, std::ceil((l - s0) / d));
      if (!(count < 9e18)) throw ExecError("Range has too many elements");
      int64_t n = checkedNumel({static_cast<int64_t>(count)});
      for (int64_t k = 0; k < n; ++k)
        y.f.push_back(static_cast<float>(s0 + static_cast<double>(k) * d));
      y.shape = {n};
    } else {
      int64_t s0 = start.i.at(0), l = limit.i.at(0), d = delta.i.at(0);
      if (d == 0) throw ExecError("Range with delta 0");
      // ceil((l - s0) / d) in 128 bits: l - s0 alone overflows int64 at extreme bounds.
      __int128 span = static_cast<__int128>(l) - s0;
      __int128 count = (span + d + (d > 0 ? -1 : 1)) / d;
      if (count > (static_cast<__int128>(1) << 56)) throw ExecError("Range has too many elements");
      int64_t n = count > 0 ? static_cast<int64_t>(count) : 0;
      checkedNumel({n}, y.dtype);
      for (int64_t k = 0; k < n; ++k)  // in [s0, l): k · d alone may not fit
        y.i.push_back(static_cast<int64_t>(s0 + static_cast<__int128>(k) * d));
      y.shape = {n};
    }
    return outputs(std::move(y));
  });
  add(t, {"torch.gather"}, [](const KernelContext& c) {  // GatherElements
    const Value& x = c.input(0);
    const Value& idx = c.input(1);
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), x.shape.size());
    if (idx.shape.size() != x.shape.size()) throw ExecError("indices and data differ in rank");
    for (size_t d = 0; d < x.shape.size(); ++d) {  // off the axis, an index's position reads data
      if (d != axis && idx.shape[d] > x.shape[d]) throw ExecError("indices exceed data's shape");
    }
    std::vector<int64_t> indices = idx.asInts(), in = stridesOf(x.shape),
                         out = stridesOf(idx.shape);
    Value y;
    y.dtype = x.dtype;
    y.shape = idx.shape;
    gatherElements(x, y, [&](int64_t k) {
      int64_t source = 0;
      for (size_t d = 0; d < x.shape.size(); ++d) {
        int64_t i = (k / out[d]) % idx.shape[d];
        if (d == axis) {
          i = indices[static_cast<size_t>(k)];
          if (i < -x.shape[d] || i >= x.shape[d]) throw ExecError("gather index out of range");
          if (i < 0) i += x.shape[d];
        }
        source += i * in[d];
      }
      return source;
    });
    return outputs(std::move(y));
  });
  add(t, {"onnx.Trilu"}, [](const KernelContext& c) {
    Value y = c.input(0);
    if (y.shape.size() < 2) throw ExecError("Trilu needs rank >= 2");
    std::vector<int64_t> ks = c.optionalInput(1) ? c.input(1).asInts() : std::vector<int64_t>{0};
    if (ks.size() != 1) throw ExecError("Trilu's k must have one element");
    int64_t k = ks[0];
    bool upper = c.intAttribute("upper", 1) != 0;
    int64_t rows = y.shape[y.shape.size() - 2], cols = y.shape.back();
    for (int64_t e = 0; e < y.numel(); ++e) {
      int64_t i = (e / cols) % rows, j = e % cols;
      bool keep = upper ? j - i >= k : j - i <= k;
      if (keep) continue;
      if (y.isFloat())
        y.f[static_cast<size_t>(e)] = 0;
      else
        y.i[static_cast<size_t>(e)] = 0;
    }
    return outputs(std::move(y));
  });
  add(t, {"onnx.Cast"}, [](const KernelContext& c) {
    return outputs(castTo(c.input(0), static_cast<ir::DType>(c.intAttribute("to", 1))));
  });
  add(t, {"onnx.CastLike"},
      [](const KernelContext& c) { return outputs(castTo(c.input(0), c.input(1).dtype)); });
  // ConstantOfShape: a tensor of the given shape filled with `value` (float32 0 by default).
  add(t, {"onnx.ConstantOfShape"}, [](const KernelContext& c) {
    std::vector<int64_t> shape = c.input(0).asInts();
    Value fill = c.tensorAttribute("value").value_or(Value::floats({1}, {0.0f}));
    if (fill.numel() != 1) throw ExecError("ConstantOfShape's value must have one element");
    Value y;
    y.dtype = fill.dtype;
    y.shape = shape;
    size_t n = static_cast<size_t>(checkedNumel(shape, fill.dtype));
    if (fill.isFloat())
      y.f.assign(n, fill.f[0]);
    else if (fill.isDouble())
      y.d.assign(n, fill.d[0]);
    else
      y.i.assign(n, fill.i[0]);
    return outputs(std::move(y));
  });
}

}  // namespace fxc::exec
