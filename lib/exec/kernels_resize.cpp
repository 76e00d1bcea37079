// Resize (opset 11+) and Upsample / Resize-10: nearest, linear and cubic interpolation over any
// axes, every coordinate transformation mode of the spec, separable per axis as ONNX's reference
// computes it (each output coordinate maps to a source coordinate; a few neighbours, clamped to
// the edge, weighted by the mode's coefficients).
#include <algorithm>
#include <cmath>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The taps of one output coordinate along one axis: source indices (clamped) and weights; an
// output outside a tf_crop_and_resize box takes the extrapolation value instead.
struct Taps {
  std::vector<int64_t> index;
  std::vector<double> weight;
  bool outside = false;
};

struct AxisPlan {
  std::vector<Taps> taps;  // one per output coordinate
};

std::vector<double> coefficients(const std::string& mode, const std::string& nearest_mode,
                                 double cubic_a, double ratio, bool integer) {
  if (mode == "nearest") {
    if (integer) return {0, 1};
    if (nearest_mode == "round_prefer_floor")
      return {ratio <= 0.5 ? 1.0 : 0.0, ratio > 0.5 ? 1.0 : 0.0};
    if (nearest_mode == "round_prefer_ceil")
      return {ratio < 0.5 ? 1.0 : 0.0, ratio >= 0.5 ? 1.0 : 0.0};
    if (nearest_mode == "floor") return {1, 0};
    if (nearest_mode == "ceil") return {0, 1};
    throw ExecError("unknown nearest_mode '" + nearest_mode + "'");
  }
  if (mode == "linear") return {1 - ratio, ratio};
  if (mode == "cubic") {
    double a = cubic_a, r = ratio, s = 1 - ratio;
    return {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
            ((a + 2) * r - (a + 3)) * r * r + 1, ((a + 2) * s - (a + 3)) * s * s + 1,
            ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
  }
  throw ExecError("unknown mode '" + mode + "'");
}

AxisPlan planAxis(int64_t in, int64_t out, double scale, double roi_start, double roi_end,
                  const std::string& transform, const std::string& mode,
                  const std::string& nearest_mode, double cubic_a, bool exclude_outside) {
  AxisPlan plan;
  double out_width = scale * static_cast<double>(in);
  for (int64_t x = 0; x < out; ++x) {
    double xr = static_cast<double>(x), source = 0;
    Taps taps;
    if (transform == "align_corners") {
      source = out_width == 1 ? 0.0 : xr * static_cast<double>(in - 1) / (out_width - 1);
    } else if (transform == "asymmetric") {
      source = xr / scale;
    } else if (transform == "tf_crop_and_resize") {
      source = out_width == 1
                   ? (roi_end - roi_start) * static_cast<double>(in - 1) / 2
                   : xr * (roi_end - roi_start) * static_cast<double>(in - 1) / (out_width - 1);
      source += roi_start * static_cast<double>(in - 1);
      taps.outside = source < 0 || source > static_cast<double>(in - 1);
    } else if (transform == "pytorch_half_pixel") {
      source = out_width == 1 ? -0.5 : (xr + 0.5) / scale - 0.5;
    } else if (transform == "tf_half_pixel_for_nn") {
      source = (xr + 0.5) / scale;
    } else if (transform == "half_pixel") {
      source = (xr + 0.5) / scale - 0.5;
    } else {
      throw ExecError("unsupported: coordinate_transformation_mode " + transform);
    }
    double floor = std::floor(source);
    bool integer = source == floor;
    double ratio = integer ? 1.0 : source - floor;
    int64_t base = static_cast<int64_t>(floor) - (integer ? 1 : 0);
    std::vector<double> w = coefficients(mode, nearest_mode, cubic_a, ratio, integer);
    int64_t n = static_cast<int64_t>(w.size()), first = base - (n / 2 - 1);
    double sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = first + j;
      if (exclude_outside && (idx < 0 || idx >= in)) w[static_cast<size_t>(j)] = 0;
      sum += w[static_cast<size_t>(j)];
    }
    for (int64_t j = 0; j < n; ++j) {
      double weight = w[static_cast<size_t>(j)] / (exclude_outside && sum != 0 ? sum : 1.0);
      if (weight == 0) continue;
      taps.index.push_back(std::clamp<int64_t>(first + j, 0, in - 1));
      taps.weight.push_back(weight);
    }
    if (taps.index.empty()) {  // every weight zero: contributes nothing
      taps.index.push_back(std::clamp<int64_t>(base, 0, in - 1));
      taps.weight.push_back(0.0);
    }
    plan.taps.push_back(std::move(taps));
  }
  return plan;
}

std::vector<Value> resize(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  size_t rank = x.shape.size();
  bool legacy = c.inputCount() <= 2 && (c.opset() == 0 || c.opset() < 11);  // Upsample, Resize-10
  const Value* roi = legacy ? nullptr : c.optionalInput(1);
  const Value* scales_in = legacy ? c.optionalInput(1) : c.optionalInput(2);
  const Value* sizes_in = legacy ? nullptr : c.optionalInput(3);
  if (c.attribute("axes")) throw ExecError("unsupported: Resize with axes");
  if (c.intAttribute("antialias", 0) != 0) throw ExecError("unsupported: Resize with antialias");
  if (c.stringAttribute("keep_aspect_ratio_policy", "stretch") != "stretch")
    throw ExecError("unsupported: keep_aspect_ratio_policy");
  std::string mode = c.stringAttribute("mode", "nearest");
  std::string transform =
      legacy ? "asymmetric" : c.stringAttribute("coordinate_transformation_mode", "half_pixel");
  std::string nearest_mode =
      legacy ? "floor" : c.stringAttribute("nearest_mode", "round_prefer_floor");
  double cubic_a = c.floatAttribute("cubic_coeff_a", -0.75f);
  bool exclude_outside = c.intAttribute("exclude_outside", 0) != 0;
  float extrapolation = c.floatAttribute("extrapolation_value", 0.0f);

  std::vector<double> scales(rank, 1.0);
  std::vector<int64_t> out_shape(rank);
  if (sizes_in && sizes_in->numel() > 0) {
    std::vector<int64_t> sizes = sizes_in->asInts();
    if (sizes.size() != rank) throw ExecError("sizes do not match the input rank");
    for (size_t d = 0; d < rank; ++d) {
      out_shape[d] = sizes[d];
      scales[d] = static_cast<double>(sizes[d]) / static_cast<double>(x.shape[d]);
    }
  } else if (scales_in && scales_in->numel() > 0) {
    requireFloat(*scales_in, "scales");
    if (static_cast<size_t>(scales_in->numel()) != rank)
      throw ExecError("scales do not match the input rank");
    for (size_t d = 0; d < rank; ++d) {
      scales[d] = scales_in->f[d];
      if (!(scales[d] > 0)) throw ExecError("scales must be positive");
      out_shape[d] = static_cast<int64_t>(scales[d] * static_cast<double>(x.shape[d]));
    }
  } else {
    throw ExecError("Resize needs scales or sizes");
  }
  std::vector<double> roi_values(2 * rank, 0.0);
  for (size_t d = 0; d < rank; ++d) roi_values[rank + d] = 1.0;
  if (roi && roi->numel() == static_cast<int64_t>(2 * rank)) {
    requireFloat(*roi, "roi");
    for (size_t k = 0; k < 2 * rank; ++k) roi_values[k] = roi->f[k];
  }
  std::vector<AxisPlan> plans;
  for (size_t d = 0; d < rank; ++d)
    plans.push_back(planAxis(x.shape[d], out_shape[d], scales[d], roi_values[d],
                             roi_values[rank + d], transform, mode, nearest_mode, cubic_a,
                             exclude_outside));

  Value y =
      Value::floats(out_shape, std::vector<float>(static_cast<size_t>(checkedNumel(out_shape))));
  std::vector<int64_t> in_strides = stridesOf(x.shape);
  std::vector<int64_t> coord(rank, 0);
  for (size_t o = 0; o < y.f.size(); ++o) {
    // The output element: the sum over every combination of the axes' taps.
    bool outside = false;
    for (size_t d = 0; d < rank; ++d) outside = outside || plans[d].taps[coord[d]].outside;
    double value = 0;
    if (outside) {
      value = extrapolation;
    } else {
      std::vector<size_t> pick(rank, 0);
      while (true) {
        double w = 1;
        int64_t at = 0;
        for (size_t d = 0; d < rank; ++d) {
          const Taps& t = plans[d].taps[coord[d]];
          w *= t.weight[pick[d]];
          at += t.index[pick[d]] * in_strides[d];
        }
        value += w * x.f[static_cast<size_t>(at)];
        size_t d = rank;
        while (d-- > 0 && ++pick[d] == plans[d].taps[coord[d]].index.size()) pick[d] = 0;
        if (d == static_cast<size_t>(-1)) break;
      }
    }
    y.f[o] = static_cast<float>(value);
    for (size_t d = rank; d-- > 0;) {
      if (++coord[d] < out_shape[d]) break;
      coord[d] = 0;
    }
  }
  return {std::move(y)};
}

}  // namespace

void addResizeKernels(KernelTable& t) { add(t, {"torch.nn.functional.interpolate"}, resize); }

}  // namespace fxc::exec
