// Reference convolution, transposed convolution and pooling over any number of spatial axes
// (3-D volumes; 1-D when no kernel_shape gives the rank). The 2-D kernels of kernels_nn.cpp hand
// over what they do not do: other ranks, ConvTranspose's output_shape and auto_pad, MaxPool's
// Indices output and integer inputs. Plain loops, accumulation in double.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The coordinates of every point of a box of `dims`, row-major: the kernel's taps.
std::vector<std::vector<int64_t>> pointsOf(const std::vector<int64_t>& dims) {
  std::vector<std::vector<int64_t>> points;
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  std::vector<int64_t> strides = stridesOf(dims);
  for (int64_t k = 0; k < count; ++k) {
    std::vector<int64_t> point(dims.size());
    for (size_t d = 0; d < dims.size(); ++d) point[d] = k / strides[d] % dims[d];
    points.push_back(std::move(point));
  }
  return points;
}

std::vector<int64_t> spatialOf(const std::vector<int64_t>& shape) {
  return {shape.begin() + 2, shape.end()};
}

// The input offset (within one plane) that output point `out` reads through kernel tap `tap`,
// or -1 when it falls in the padding.
int64_t tapOffset(const std::vector<int64_t>& out, const std::vector<int64_t>& tap,
                  const Window& win, const std::vector<int64_t>& in_dims) {
  int64_t offset = 0;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    int64_t at = out[d] * win.strides[d] - win.pads[d] + tap[d] * win.dilations[d];
    if (at < 0 || at >= in_dims[d]) return -1;
    offset = offset * in_dims[d] + at;
  }
  return offset;
}

}  // namespace

std::vector<Value> convolutionNd(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* w = parameter(c, "weight", 1);
  const Value* b = parameter(c, "bias", 2);
  if (!w) throw ExecError("no weight");
  requireFloat(*w, "the weight");
  size_t rank = x.shape.size();
  if (rank < 3 || w->shape.size() != rank)
    throw ExecError("a convolution of " + shapeText(x.shape) + " by " + shapeText(w->shape));
  int64_t groups = c.intAttribute("group", 1), n = x.shape[0], cin = x.shape[1];
  int64_t cout = w->shape[0], cin_g = w->shape[1];
  if (groups <= 0 || cin != cin_g * groups || cout % groups != 0)
    throw ExecError("channels do not match the weight and groups");
  if (b && (requireFloat(*b, "the bias").numel() != cout))
    throw ExecError("the bias needs one element per output channel");
  std::vector<int64_t> in_dims = spatialOf(x.shape), kernel = spatialOf(w->shape);
  Window win = windowOf(c, c.intsAttribute("kernel_shape", kernel), in_dims);
  if (win.kernel != kernel) throw ExecError("kernel_shape does not match the weight");
  std::vector<int64_t> out_dims(in_dims.size());
  for (size_t d = 0; d < in_dims.size(); ++d) {
    out_dims[d] = outputSize(in_dims[d], kernel[d], win.strides[d], win.pads[d],
                             win.pads[d + in_dims.size()], win.dilations[d], false);
    if (out_dims[d] <= 0) throw ExecError("the kernel is larger than the padded input");
  }
  std::vector<int64_t> shape = {n, cout};
  shape.insert(shape.end(), out_dims.begin(), out_dims.end());
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  auto taps = pointsOf(kernel), outs = pointsOf(out_dims);
  int64_t in_plane = 1, out_plane = static_cast<int64_t>(outs.size());
  for (int64_t d : in_dims) in_plane *= d;
  int64_t tap_count = static_cast<int64_t>(taps.size()), cout_g = cout / groups;
  for (int64_t o = 0; o < out_plane; ++o) {
    std::vector<int64_t> offsets(taps.size());
    for (size_t t = 0; t < taps.size(); ++t)
      offsets[t] = tapOffset(outs[static_cast<size_t>(o)], taps[t], win, in_dims);
    for (int64_t in = 0; in < n; ++in) {
      for (int64_t oc = 0; oc < cout; ++oc) {
        double sum = b ? b->f[static_cast<size_t>(oc)] : 0.0;
        int64_t group = oc / cout_g;
        for (int64_t ic = 0; ic < cin_g; ++ic) {
          const float* plane = x.f.data() + (in * cin + group * cin_g + ic) * in_plane;
          const float* weights = w->f.data() + (oc * cin_g + ic) * tap_count;
          for (int64_t t = 0; t < tap_count; ++t) {
            int64_t at = offsets[static_cast<size_t>(t)];
            if (at >= 0) sum += static_cast<double>(plane[at]) * weights[t];
          }
        }
        y.f[static_cast<size_t>((in * cout + oc) * out_plane + o)] = static_cast<float>(sum);
      }
    }
  }
  return outputs(std::move(y));
}

// ConvTranspose: each input point scatters its kernel-weighted value to
// out = in·stride − pad_begin + tap·dilation. Without output_shape the output is
// stride·(in − 1) + output_padding + (kernel − 1)·dilation + 1 − pads. With output_shape (or
// auto_pad SAME_*, which asks for in·stride) the pads come from the total
//   t = stride·(in − 1) + output_padding + (kernel − 1)·dilation + 1 − output_shape:
// SAME_UPPER puts ⌊t/2⌋ first, SAME_LOWER ⌈t/2⌉, neither (output_shape alone) ⌈t/2⌉ first when t
// is negative (the output grows at the end, as ONNX's tests and ONNX Runtime agree). Where the
// specification and ONNX Runtime disagree (an odd positive t without auto_pad, an odd negative t
// with it) the kernel refuses.
std::vector<Value> transposedConvolutionNd(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* w = parameter(c, "weight", 1);
  const Value* b = parameter(c, "bias", 2);
  if (!w) throw ExecError("no weight");
  requireFloat(*w, "the weight");
  size_t rank = x.shape.size(), spatial = rank - 2;
  if (rank < 3 || w->shape.size() != rank)
    throw ExecError("a transposed convolution of " + shapeText(x.shape) + " by " +
                    shapeText(w->shape));
  int64_t groups = c.intAttribute("group", 1), n = x.shape[0], cin = x.shape[1];
  if (groups <= 0 || w->shape[0] != cin || cin % groups != 0)
    throw ExecError("channels do not match the weight and groups");
  int64_t cin_g = cin / groups, cout_g = w->shape[1], cout = cout_g * groups;
  if (b && (requireFloat(*b, "the bias").numel() != cout))
    throw ExecError("the bias needs one element per output channel");
  std::vector<int64_t> in_dims = spatialOf(x.shape), kernel = spatialOf(w->shape);
  if (c.intsAttribute("kernel_shape", kernel) != kernel)
    throw ExecError("kernel_shape does not match the weight");
  std::string auto_pad = c.stringAttribute("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER")
    throw ExecError("unknown auto_pad " + auto_pad);
  std::vector<int64_t> strides = c.intsAttribute("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilations = c.intsAttribute("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> extra = c.intsAttribute("output_padding", std::vector<int64_t>(spatial, 0));
  std::vector<int64_t> pads = auto_pad == "NOTSET"
                                  ? c.intsAttribute("pads", std::vector<int64_t>(2 * spatial, 0))
                                  : std::vector<int64_t>(2 * spatial, 0);
  std::vector<int64_t> requested = c.intsAttribute("output_shape", {});
  if (requested.size() == spatial + 2) requested.erase(requested.begin(), requested.begin() + 2);
  if (strides.size() != spatial || dilations.size() != spatial || extra.size() != spatial ||
      pads.size() != 2 * spatial || (!requested.empty() && requested.size() != spatial))
    throw ExecError("window attributes do not match the input rank");
  bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  std::vector<int64_t> out_dims(spatial);
  for (size_t d = 0; d < spatial; ++d) {
    if (strides[d] <= 0 || dilations[d] <= 0 || pads[d] < 0 || pads[d + spatial] < 0)
      throw ExecError("strides and dilations must be positive, pads not negative");
    int64_t full = strides[d] * (in_dims[d] - 1) + extra[d] + (kernel[d] - 1) * dilations[d] + 1;
    if (requested.empty() && !same) {
      out_dims[d] = full - pads[d] - pads[d + spatial];
    } else {
      out_dims[d] = requested.empty() ? in_dims[d] * strides[d] : requested[d];
      int64_t total = full - out_dims[d];
      bool odd = total % 2 != 0;
      if (odd && (same ? total < 0 : total > 0))
        throw ExecError("unsupported: ConvTranspose padding of " + std::to_string(total) +
                        " split two ways (the specification and ONNX Runtime differ)");
      int64_t small = total / 2;  // toward zero: ⌊t/2⌋ for t ≥ 0, ⌈t/2⌉ below
      pads[d] = auto_pad == "SAME_LOWER" ? total - small : small;
      pads[d + spatial] = total - pads[d];
    }
    if (out_dims[d] <= 0) throw ExecError("the output would be empty");
  }
  std::vector<int64_t> shape = {n, cout};
  shape.insert(shape.end(), out_dims.begin(), out_dims.end());
  int64_t out_plane = 1, in_plane = 1;
  for (int64_t d : out_dims) out_plane *= d;
  for (int64_t d : in_dims) in_plane *= d;
  std::vector<double> sums(static_cast<size_t>(checkedNumel(shape)), 0.0);
  auto taps = pointsOf(kernel), ins = pointsOf(in_dims);
  int64_t tap_count = static_cast<int64_t>(taps.size());
  for (int64_t p = 0; p < in_plane; ++p) {
    // Where each tap of input point p lands in an output plane, or -1 outside it.
    std::vector<int64_t> targets(taps.size());
    for (size_t t = 0; t < taps.size(); ++t) {
      int64_t offset = 0;
      for (size_t d = 0; d < spatial && offset >= 0; ++d) {
        int64_t at =
            ins[static_cast<size_t>(p)][d] * strides[d] - pads[d] + taps[t][d] * dilations[d];
        offset = at < 0 || at >= out_dims[d] ? -1 : offset * out_dims[d] + at;
      }
      targets[t] = offset;
    }
    for (int64_t in = 0; in < n; ++in) {
      for (int64_t ic = 0; ic < cin; ++ic) {
        double v = x.f[static_cast<size_t>((in * cin + ic) * in_plane + p)];
        int64_t group = ic / cin_g;
        for (int64_t j = 0; j < cout_g; ++j) {
          int64_t oc = group * cout_g + j;
          const float* weights = w->f.data() + (ic * cout_g + j) * tap_count;
          double* out = sums.data() + (in * cout + oc) * out_plane;
          for (int64_t t = 0; t < tap_count; ++t) {
            int64_t at = targets[static_cast<size_t>(t)];
            if (at >= 0) out[at] += v * weights[t];
          }
        }
      }
    }
  }
  Value y = Value::floats(shape, std::vector<float>(sums.size()));
  for (size_t k = 0; k < sums.size(); ++k) {
    double bias = b ? b->f[static_cast<size_t>(static_cast<int64_t>(k) / out_plane % cout)] : 0.0;
    y.f[k] = static_cast<float>(sums[k] + bias);
  }
  return outputs(std::move(y));
}

// Max or average pooling over every spatial axis. Max pooling also takes integer inputs and
// gives Indices when they are read: the flat index of each maximum in the whole input,
// row-major (storage_order 0) or with the spatial axes column-major (storage_order 1); the
// first of equal maxima.
template <bool kMax>
std::vector<Value> poolingNd(const KernelContext& c) {
  const Value& x = kMax ? c.input(0) : requireFloat(c.input(0), "the input");
  if (x.dtype == ir::DType::kBool) throw ExecError("unsupported: pooling of bool");
  size_t rank = x.shape.size();
  if (rank < 3) throw ExecError("pooling needs rank >= 3");
  std::vector<int64_t> in_dims = spatialOf(x.shape);
  size_t spatial = in_dims.size();
  std::vector<int64_t> kernel = c.intsAttribute("kernel_shape", {});
  if (kernel.size() != spatial) throw ExecError("kernel_shape does not match the input rank");
  int64_t storage_order = kMax ? c.intAttribute("storage_order", 0) : 0;
  if (storage_order != 0 && storage_order != 1) throw ExecError("storage_order must be 0 or 1");
  Window win = windowOf(c, kernel, in_dims);
  bool ceil_mode = c.intAttribute("ceil_mode", 0) != 0;
  bool include_pad = c.intAttribute("count_include_pad", 0) != 0;
  std::vector<int64_t> out_dims(spatial);
  for (size_t d = 0; d < spatial; ++d) {
    out_dims[d] = outputSize(in_dims[d], kernel[d], win.strides[d], win.pads[d],
                             win.pads[d + spatial], win.dilations[d], ceil_mode);
    if (out_dims[d] <= 0) throw ExecError("the window is larger than the padded input");
  }
  std::vector<int64_t> shape = {x.shape[0], x.shape[1]};
  shape.insert(shape.end(), out_dims.begin(), out_dims.end());
  int64_t count = checkedNumel(shape, x.dtype), planes = x.shape[0] * x.shape[1];
  bool indices_wanted = kMax && c.outputUsed(1);
  Value y;
  y.dtype = x.dtype;
  y.shape = shape;
  if (x.isFloat())
    y.f.resize(static_cast<size_t>(count));
  else
    y.i.resize(static_cast<size_t>(count));
  std::vector<int64_t> indices(indices_wanted ? static_cast<size_t>(count) : 0);
  auto taps = pointsOf(kernel), outs = pointsOf(out_dims);
  int64_t in_plane = 1, out_plane = static_cast<int64_t>(outs.size());
  for (int64_t d : in_dims) in_plane *= d;
  // Column-major offsets of the spatial axes, for storage_order 1.
  std::vector<int64_t> column_strides(spatial, 1);
  for (size_t d = 1; d < spatial; ++d) column_strides[d] = column_strides[d - 1] * in_dims[d - 1];
  std::vector<int64_t> row_strides = stridesOf(in_dims);
  for (int64_t o = 0; o < out_plane; ++o) {
    const std::vector<int64_t>& out = outs[static_cast<size_t>(o)];
    std::vector<int64_t> offsets;
    int64_t padded = 0;  // taps inside the declared padding, for count_include_pad
    for (const auto& tap : taps) {
      bool inside_declared = true;
      for (size_t d = 0; d < spatial; ++d) {
        int64_t at = out[d] * win.strides[d] - win.pads[d] + tap[d] * win.dilations[d];
        inside_declared = inside_declared && at < in_dims[d] + win.pads[d + spatial];
      }
      padded += inside_declared;
      int64_t at = tapOffset(out, tap, win, in_dims);
      if (at >= 0) offsets.push_back(at);
    }
    if (offsets.empty()) throw ExecError("a pooling window lies entirely in the padding");
    for (int64_t p = 0; p < planes; ++p) {
      size_t target = static_cast<size_t>(p * out_plane + o);
      int64_t base = p * in_plane, best = offsets[0];
      if (!kMax) {
        double sum = 0;
        for (int64_t at : offsets) sum += x.f[static_cast<size_t>(base + at)];
        y.f[target] = static_cast<float>(
            sum / static_cast<double>(include_pad ? padded : static_cast<int64_t>(offsets.size())));
        continue;
      }
      for (int64_t at : offsets) {
        size_t i = static_cast<size_t>(base + at), j = static_cast<size_t>(base + best);
        if (x.isFloat() ? x.f[i] > x.f[j] || (std::isnan(x.f[i]) && !std::isnan(x.f[j]))
                        : x.i[i] > x.i[j])
          best = at;
      }
      size_t from = static_cast<size_t>(base + best);
      if (x.isFloat())
        y.f[target] = x.f[from];
      else
        y.i[target] = x.i[from];
      if (!indices_wanted) continue;
      int64_t index = best;
      if (storage_order == 1) {
        index = 0;
        for (size_t d = 0; d < spatial; ++d)
          index += best / row_strides[d] % in_dims[d] * column_strides[d];
      }
      indices[target] = base + index;
    }
  }
  std::vector<Value> result;
  result.push_back(std::move(y));
  if (indices_wanted) result.push_back(Value::ints(shape, std::move(indices)));
  return result;
}

template std::vector<Value> poolingNd<true>(const KernelContext&);
template std::vector<Value> poolingNd<false>(const KernelContext&);

void addSpatialKernels(KernelTable& t) {
  add(t, {"torch.nn.functional.conv3d", "module:Conv3d"}, convolutionNd);
  add(t, {"torch.nn.functional.conv_transpose3d", "module:ConvTranspose3d"},
      transposedConvolutionNd);
  add(t, {"torch.nn.functional.max_pool3d", "module:MaxPool3d"}, poolingNd<true>);
  add(t, {"torch.nn.functional.avg_pool3d", "module:AvgPool3d"}, poolingNd<false>);
}

}  // namespace fxc::exec
