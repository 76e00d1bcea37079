// Kernels that pick, place or rearrange elements by index: DepthToSpace / SpaceToDepth (torch's
// pixel_shuffle / pixel_unshuffle), EyeLike, OneHot, Compress, ReverseSequence and Unique. Any
// element type: they copy values, never compute with them.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The blocksize of DepthToSpace/SpaceToDepth, checked against an NCHW input.
int64_t blockSize(const KernelContext& c, const Value& x) {
  if (x.shape.size() != 4)
    throw ExecError("unsupported: a rank-" + std::to_string(x.shape.size()) +
                    " input (DepthToSpace/SpaceToDepth take NCHW)");
  int64_t block = c.intAttribute("blocksize", 0);
  if (block <= 0) throw ExecError("blocksize must be positive");
  return block;
}

// DepthToSpace: channel groups become b×b blocks of pixels. DCR (the default) reads the block
// offset from the channel's high part, CRD from its low part:
//   DCR  y[n, c, h·b + i, w·b + j] = x[n, (i·b + j)·C' + c, h, w]
//   CRD  y[n, c, h·b + i, w·b + j] = x[n, c·b² + i·b + j, h, w]      (C' = C / b²)
std::vector<Value> depthToSpace(const KernelContext& c) {
  const Value& x = c.input(0);
  int64_t b = blockSize(c, x);
  std::string mode = c.stringAttribute("mode", "DCR");
  if (mode != "DCR" && mode != "CRD") throw ExecError("unsupported: DepthToSpace mode " + mode);
  int64_t n = x.shape[0], ch = x.shape[1], h = x.shape[2], w = x.shape[3];
  if (ch % (b * b) != 0)
    throw ExecError(std::to_string(ch) + " channels do not divide into blocks of " +
                    std::to_string(b) + "×" + std::to_string(b));
  int64_t out_ch = ch / (b * b), oh = h * b, ow = w * b;
  Value y;
  y.dtype = x.dtype;
  y.shape = {n, out_ch, oh, ow};
  bool dcr = mode == "DCR";
  gatherElements(x, y, [&](int64_t k) {
    int64_t ox = k % ow, oy = k / ow % oh, oc = k / (ow * oh) % out_ch, on = k / (ow * oh * out_ch);
    int64_t i = oy % b, j = ox % b;
    int64_t source_ch = dcr ? (i * b + j) * out_ch + oc : oc * b * b + i * b + j;
    return ((on * ch + source_ch) * h + oy / b) * w + ox / b;
  });
  return outputs(std::move(y));
}

// SpaceToDepth, DepthToSpace's DCR inverse: y[n, (i·b + j)·C + c, h, w] = x[n, c, h·b + i, w·b +
// j].
std::vector<Value> spaceToDepth(const KernelContext& c) {
  const Value& x = c.input(0);
  int64_t b = blockSize(c, x);
  int64_t n = x.shape[0], ch = x.shape[1], h = x.shape[2], w = x.shape[3];
  if (h % b != 0 || w % b != 0)
    throw ExecError("the spatial size " + shapeText({h, w}) + " is not a multiple of blocksize " +
                    std::to_string(b));
  int64_t out_ch = ch * b * b, oh = h / b, ow = w / b;
  Value y;
  y.dtype = x.dtype;
  y.shape = {n, out_ch, oh, ow};
  gatherElements(x, y, [&](int64_t k) {
    int64_t ox = k % ow, oy = k / ow % oh, oc = k / (ow * oh) % out_ch, on = k / (ow * oh * out_ch);
    int64_t block = oc / ch, source_ch = oc % ch, i = block / b, j = block % b;
    return ((on * ch + source_ch) * h + oy * b + i) * w + ox * b + j;
  });
  return outputs(std::move(y));
}

// A scalar input that must hold an integer (OneHot's depth, an index given as float).
int64_t integral(double value, const char* what) {
  if (!(std::fabs(value) < 9.0e15) || std::trunc(value) != value)
    throw ExecError("unsupported: " + std::string(what) + " " + std::to_string(value) +
                    " that is not an integer");
  return static_cast<int64_t>(value);
}

double elementAt(const Value& v, size_t k) {
  return v.isFloat() ? static_cast<double>(v.f.at(k)) : static_cast<double>(v.i.at(k));
}

// OneHot(indices, depth, values=[off, on]): a new axis of size depth; an index in
// [-depth, depth) (negative ones count from the end) is `on` at its position, anything else is
// `off` everywhere.
std::vector<Value> oneHot(const KernelContext& c) {
  const Value& indices = c.input(0);
  const Value& depth_value = c.input(1);
  const Value& values = c.input(2);
  if (depth_value.numel() != 1) throw ExecError("OneHot's depth must have one element");
  if (values.numel() != 2) throw ExecError("OneHot's values must be [off, on]");
  int64_t depth = integral(elementAt(depth_value, 0), "OneHot depth");
  if (depth <= 0) throw ExecError("OneHot's depth must be positive");
  size_t rank = indices.shape.size() + 1;
  size_t axis = normalizeAxis(c.intAttribute("axis", -1), rank);
  Value y;
  y.dtype = values.dtype;
  y.shape = indices.shape;
  y.shape.insert(y.shape.begin() + static_cast<std::ptrdiff_t>(axis), depth);
  int64_t n = checkedNumel(y.shape, y.dtype);
  int64_t inner = 1;
  for (size_t d = axis; d < indices.shape.size(); ++d) inner *= indices.shape[d];
  std::vector<int64_t> hot(static_cast<size_t>(indices.numel()));
  for (size_t k = 0; k < hot.size(); ++k) {
    int64_t index = integral(elementAt(indices, k), "OneHot index");
    hot[k] = index < -depth || index >= depth ? -1 : index < 0 ? index + depth : index;
  }
  auto isOn = [&](int64_t k) {
    int64_t outer = k / (depth * inner), position = k / inner % depth, r = k % inner;
    return hot[static_cast<size_t>(outer * inner + r)] == position;
  };
  if (y.isFloat()) {
    y.f.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) y.f[static_cast<size_t>(k)] = values.f[isOn(k) ? 1 : 0];
  } else {
    y.i.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) y.i[static_cast<size_t>(k)] = values.i[isOn(k) ? 1 : 0];
  }
  return outputs(std::move(y));
}

// Compress(input, condition): the slices along `axis` whose condition is true (a condition
// shorter than the axis is false beyond its end); without axis, the elements of the flattened
// input.
std::vector<Value> compress(const KernelContext& c) {
  const Value& x = c.input(0);
  const Value& condition = c.input(1);
  if (condition.shape.size() != 1) throw ExecError("Compress's condition must be 1-D");
  std::vector<int64_t> flags = condition.asInts();
  std::optional<int64_t> axis_attribute = c.optionalIntAttribute("axis");
  std::vector<int64_t> shape = axis_attribute ? x.shape : std::vector<int64_t>{x.numel()};
  size_t axis = axis_attribute ? normalizeAxis(*axis_attribute, x.shape.size()) : 0;
  int64_t extent = shape[axis], inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  if (static_cast<int64_t>(flags.size()) > extent)
    throw ExecError("Compress's condition is longer than the axis (" +
                    std::to_string(flags.size()) + " > " + std::to_string(extent) + ")");
  std::vector<int64_t> kept;
  for (size_t k = 0; k < flags.size(); ++k) {
    if (flags[k]) kept.push_back(static_cast<int64_t>(k));
  }
  Value y;
  y.dtype = x.dtype;
  y.shape = shape;
  y.shape[axis] = static_cast<int64_t>(kept.size());
  int64_t count = y.shape[axis];
  gatherElements(x, y, [&](int64_t k) {
    int64_t outer = k / (count * inner), j = k / inner % count, r = k % inner;
    return (outer * extent + kept[static_cast<size_t>(j)]) * inner + r;
  });
  return outputs(std::move(y));
}

// ReverseSequence: for each batch entry b, the first sequence_lens[b] steps along time_axis in
// reverse order, the rest as they are.
std::vector<Value> reverseSequence(const KernelContext& c) {
  const Value& x = c.input(0);
  std::vector<int64_t> lengths = c.input(1).asInts();
  if (x.shape.size() < 2) throw ExecError("ReverseSequence needs rank >= 2");
  int64_t batch_axis = c.intAttribute("batch_axis", 1), time_axis = c.intAttribute("time_axis", 0);
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) ||
      batch_axis == time_axis)
    throw ExecError("ReverseSequence's batch_axis and time_axis must be 0 and 1");
  size_t b_axis = static_cast<size_t>(batch_axis), t_axis = static_cast<size_t>(time_axis);
  if (static_cast<int64_t>(lengths.size()) != x.shape[b_axis])
    throw ExecError("sequence_lens has " + std::to_string(lengths.size()) +
                    " entries for a batch of " + std::to_string(x.shape[b_axis]));
  for (int64_t length : lengths) {
    if (length < 0 || length > x.shape[t_axis])
      throw ExecError("a sequence length of " + std::to_string(length) + " for " +
                      std::to_string(x.shape[t_axis]) + " steps");
  }
  std::vector<int64_t> strides = stridesOf(x.shape);
  Value y;
  y.dtype = x.dtype;
  y.shape = x.shape;
  gatherElements(x, y, [&](int64_t k) {
    int64_t b = k / strides[b_axis] % x.shape[b_axis], t = k / strides[t_axis] % x.shape[t_axis];
    int64_t length = lengths[static_cast<size_t>(b)];
    if (t >= length) return k;
    return k + (length - 1 - 2 * t) * strides[t_axis];
  });
  return outputs(std::move(y));
}

// EyeLike: ones on the k-th diagonal of a matrix shaped like the input, of `dtype` (default the
// input's).
std::vector<Value> eyeLike(const KernelContext& c) {
  const Value& x = c.input(0);
  if (x.shape.size() != 2) throw ExecError("EyeLike needs a 2-D input");
  std::optional<int64_t> dtype_attribute = c.optionalIntAttribute("dtype");
  auto dtype = dtype_attribute ? static_cast<ir::DType>(*dtype_attribute) : x.dtype;
  if (dtype != ir::DType::kFloat32 && dtype != ir::DType::kFloat64 && !heldAsInteger(dtype))
    throw ExecError("unsupported: EyeLike of type " + std::string(ir::dtypeName(dtype)));
  int64_t k = c.intAttribute("k", 0), rows = x.shape[0], cols = x.shape[1];
  size_t n = static_cast<size_t>(checkedNumel(x.shape, dtype));
  Value y;
  y.dtype = dtype;
  y.shape = x.shape;
  if (dtype == ir::DType::kFloat32)
    y.f.assign(n, 0.0f);
  else if (dtype == ir::DType::kFloat64)
    y.d.assign(n, 0.0);
  else
    y.i.assign(n, 0);
  for (int64_t r = std::max<int64_t>(0, -k); r < rows && r + k < cols; ++r) {
    size_t at = static_cast<size_t>(r * cols + r + k);
    if (dtype == ir::DType::kFloat32)
      y.f[at] = 1.0f;
    else if (dtype == ir::DType::kFloat64)
      y.d[at] = 1.0;
    else
      y.i[at] = 1;
  }
  return outputs(std::move(y));
}

// Unique: the distinct elements (or slices along `axis`), sorted (the default) or in order of
// first occurrence, with the index of each one's first occurrence, each input element's index
// in the output, and the counts. Slices compare lexicographically, as numpy.unique does.
std::vector<Value> unique(const KernelContext& c) {
  const Value& x = c.input(0);
  std::optional<int64_t> axis_attribute = c.optionalIntAttribute("axis");
  bool sorted = c.intAttribute("sorted", 1) != 0;
  std::vector<int64_t> shape = axis_attribute ? x.shape : std::vector<int64_t>{x.numel()};
  size_t axis = axis_attribute ? normalizeAxis(*axis_attribute, x.shape.size()) : 0;
  if (x.isFloat()) {
    for (float v : x.f) {
      if (std::isnan(v)) throw ExecError("unsupported: Unique of NaN");
    }
  }
  int64_t extent = shape[axis], inner = 1, outer = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  for (size_t d = 0; d < axis; ++d) outer *= shape[d];
  auto at = [&](int64_t slice, int64_t e) {  // the e-th element of a slice, in C order
    return static_cast<size_t>((e / inner * extent + slice) * inner + e % inner);
  };
  int64_t slice_size = outer * inner;
  // -1, 0, 1 as slice a sorts before, with, after slice b.
  auto order = [&](int64_t a, int64_t b) {
    for (int64_t e = 0; e < slice_size; ++e) {
      size_t i = at(a, e), j = at(b, e);
      if (x.isFloat() ? x.f[i] != x.f[j] : x.i[i] != x.i[j])
        return (x.isFloat() ? x.f[i] < x.f[j] : x.i[i] < x.i[j]) ? -1 : 1;
    }
    return 0;
  };
  std::vector<int64_t> by_value(static_cast<size_t>(extent));
  std::iota(by_value.begin(), by_value.end(), 0);
  std::stable_sort(by_value.begin(), by_value.end(),
                   [&](int64_t a, int64_t b) { return order(a, b) < 0; });
  // Groups of equal slices, in sorted order: the first member is the first occurrence.
  std::vector<int64_t> first, counts, group_of(static_cast<size_t>(extent));
  for (size_t k = 0; k < by_value.size(); ++k) {
    if (k == 0 || order(by_value[k - 1], by_value[k]) != 0) {
      first.push_back(by_value[k]);
      counts.push_back(0);
    }
    ++counts.back();
    group_of[static_cast<size_t>(by_value[k])] = static_cast<int64_t>(first.size()) - 1;
  }
  std::vector<int64_t> output_order(first.size());  // output position → group
  std::iota(output_order.begin(), output_order.end(), 0);
  if (!sorted) {
    std::sort(output_order.begin(), output_order.end(), [&](int64_t a, int64_t b) {
      return first[static_cast<size_t>(a)] < first[static_cast<size_t>(b)];
    });
  }
  std::vector<int64_t> position_of(first.size());  // group → output position
  for (size_t p = 0; p < output_order.size(); ++p)
    position_of[static_cast<size_t>(output_order[p])] = static_cast<int64_t>(p);
  int64_t count = static_cast<int64_t>(first.size());
  std::vector<int64_t> indices, unique_counts, inverse;
  for (int64_t g : output_order) {
    indices.push_back(first[static_cast<size_t>(g)]);
    unique_counts.push_back(counts[static_cast<size_t>(g)]);
  }
  for (int64_t g : group_of) inverse.push_back(position_of[static_cast<size_t>(g)]);
  Value y;
  y.dtype = x.dtype;
  y.shape = shape;
  y.shape[axis] = count;
  gatherElements(x, y, [&](int64_t k) {
    int64_t o = k / (count * inner), j = k / inner % count, r = k % inner;
    return (o * extent + indices[static_cast<size_t>(j)]) * inner + r;
  });
  std::vector<Value> out;
  out.push_back(std::move(y));
  out.push_back(Value::ints({count}, std::move(indices)));
  out.push_back(Value::ints({extent}, std::move(inverse)));
  out.push_back(Value::ints({count}, std::move(unique_counts)));
  return out;
}

}  // namespace

void addSelectionKernels(KernelTable& t) {
  add(t, {"torch.nn.functional.pixel_shuffle", "module:PixelShuffle"}, depthToSpace);
  add(t, {"torch.nn.functional.pixel_unshuffle", "module:PixelUnshuffle"}, spaceToDepth);
  add(t, {"onnx.OneHot"}, oneHot);
  add(t, {"onnx.Compress"}, compress);
  add(t, {"onnx.ReverseSequence"}, reverseSequence);
  add(t, {"onnx.EyeLike"}, eyeLike);
  add(t, {"onnx.Unique"}, unique);
}

}  // namespace fxc::exec
