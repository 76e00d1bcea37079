// Resize (opset 11+) and Upsample / Resize-10: nearest, linear and cubic interpolation over any
// axes, every coordinate transformation mode of the spec, separable per axis as ONNX's reference
// computes it (each output coordinate maps to a source coordinate; a few neighbours, clamped to
// the edge, weighted by the mode's coefficients). And GridSample, which samples at coordinates a
// grid gives.
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
  // length_resized is the output's length, an integer, as ONNX Runtime, PyTorch (whose exports
  // give `scales` with align_corners), OpenVINO and TensorRT take it. ONNX's reference takes
  // in·scale unrounded, which differs where that is not an integer (align_corners, 5 → 3 at
  // scale 0.6: x·4/2 against x·4/2.0); ONNX Runtime excludes the two backend tests recorded that
  // way, and fxc's conformance runner sets them apart.
  // The source coordinate in float32, as ONNX Runtime and PyTorch compute it: in double, 3 / 0.6f
  // is 4.9999998 and a floor picks element 4 where both pick 5 (3 / 0.6f rounds to 5.0f).
  float xs = static_cast<float>(scale), in_f = static_cast<float>(in);
  float out_f = static_cast<float>(out);
  for (int64_t x = 0; x < out; ++x) {
    float xr = static_cast<float>(x);
    double source = 0;
    Taps taps;
    if (transform == "align_corners") {
      source = out == 1 ? 0.0f : xr * (in_f - 1) / (out_f - 1);
    } else if (transform == "asymmetric") {
      source = xr / xs;
    } else if (transform == "tf_crop_and_resize") {
      float start = static_cast<float>(roi_start), end = static_cast<float>(roi_end);
      source = out == 1 ? 0.5 * (start + end) * (in_f - 1)
                        : start * (in_f - 1) + (xr * (end - start) * (in_f - 1)) / (out_f - 1);
      taps.outside = source < 0 || source > static_cast<double>(in - 1);
    } else if (transform == "pytorch_half_pixel") {
      source = out == 1 ? 0.0f : (xr + 0.5f) / xs - 0.5f;  // the spec's 0 (ONNX Runtime)
    } else if (transform == "tf_half_pixel_for_nn") {
      source = (xr + 0.5f) / xs;
    } else if (transform == "half_pixel") {
      source = (xr + 0.5f) / xs - 0.5f;
    } else {
      throw ExecError("unsupported: coordinate_transformation_mode " + transform);
    }
    // Linear takes a coordinate before the first element as the first, as PyTorch and ONNX
    // Runtime do: its taps are that element (weight 1) and the next (weight 0), not the first
    // twice (the same value, but a NaN or infinity in the next one reaches the edge). Past the
    // last element PyTorch keeps the coordinate (the last element twice), and so does fxc.
    if (mode == "linear" && transform != "tf_crop_and_resize" && source < 0) source = 0;
    double floor = std::floor(source);
    bool integer = source == floor;
    // At a whole coordinate ONNX's reference takes the window to the left (ratio 1), ONNX
    // Runtime and PyTorch the one to the right (ratio 0): the same weights, but a NaN under a
    // zero weight differs. Linear and cubic take theirs; nearest keeps the reference's rounding.
    bool left = integer && mode == "nearest";
    double ratio = left ? 1.0 : source - floor;
    int64_t base = static_cast<int64_t>(floor) - (left ? 1 : 0);
    std::vector<double> w = coefficients(mode, nearest_mode, cubic_a, ratio, integer);
    int64_t n = static_cast<int64_t>(w.size()), first = base - (n / 2 - 1);
    double sum = 0;
    for (int64_t j = 0; j < n; ++j) {
      int64_t idx = first + j;
      if (exclude_outside && (idx < 0 || idx >= in)) w[static_cast<size_t>(j)] = 0;
      sum += w[static_cast<size_t>(j)];
    }
    // exclude_outside with every tap outside (a nearest neighbour past the edge) renormalizes
    // zero weights by their zero sum: no value is defined (ONNX Runtime refuses exclude_outside
    // for any mode but cubic).
    if (exclude_outside && sum == 0)
      throw ExecError("exclude_outside: output " + std::to_string(x) +
                      " along an axis has every tap outside the input (no value is defined)");
    for (int64_t j = 0; j < n; ++j) {
      double weight = w[static_cast<size_t>(j)] / (exclude_outside ? sum : 1.0);
      // Nearest copies one element; linear and cubic weigh every tap, a NaN times 0 included
      // (ONNX Runtime, PyTorch).
      if (weight == 0 && mode == "nearest") continue;
      taps.index.push_back(std::clamp<int64_t>(first + j, 0, in - 1));
      taps.weight.push_back(weight);
    }
    if (taps.index.empty()) throw ExecError("Resize: output " + std::to_string(x) + " has no tap");
    plan.taps.push_back(std::move(taps));
  }
  return plan;
}

// Whether an axis's taps take each coordinate's own element with weight 1 in all and its
// neighbours with weight 0 (an axis of scale 1; a tap clamped at the edge repeats the own one).
bool keepsAxis(const AxisPlan& plan) {
  for (size_t k = 0; k < plan.taps.size(); ++k) {
    const Taps& t = plan.taps[k];
    if (t.outside) return false;
    double own = 0;
    for (size_t j = 0; j < t.index.size(); ++j) {
      if (t.index[j] == static_cast<int64_t>(k))
        own += t.weight[j];
      else if (t.weight[j] != 0)
        return false;
    }
    if (own != 1.0) return false;
  }
  return true;
}

std::vector<Value> resize(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  size_t rank = x.shape.size();
  bool legacy = c.inputCount() <= 2 && (c.opset() == 0 || c.opset() < 11);  // Upsample, Resize-10
  // As an Upsample module (nn.Upsample's scope, its constant operands buffers), an operand is
  // the module's tensor of the name ONNX's schema gives it.
  auto operand = [&](size_t k, const char* name) {
    const Value* given = c.optionalInput(k);
    return given ? given : c.tensor(name);
  };
  const Value* roi = legacy ? nullptr : operand(1, "roi");
  const Value* scales_in = operand(legacy ? 1 : 2, "scales");
  const Value* sizes_in = legacy ? nullptr : operand(3, "sizes");
  // Upsample before opset 9 has its scales as an attribute.
  std::optional<Value> scales_attribute;
  if (legacy && (!scales_in || scales_in->numel() == 0)) {
    if (const ir::Argument* given = c.attribute("scales"); given && given->isSequence()) {
      std::vector<float> values;
      for (const ir::Argument& item : given->items()) {
        if (item.kind() != ir::Argument::Kind::kFloat && item.kind() != ir::Argument::Kind::kInt)
          throw ExecError("attribute scales is not a list of numbers");
        values.push_back(static_cast<float>(item.kind() == ir::Argument::Kind::kFloat
                                                ? item.toFloat()
                                                : static_cast<double>(item.toInt())));
      }
      auto count = static_cast<int64_t>(values.size());
      scales_attribute = Value::floats({count}, std::move(values));
      scales_in = &*scales_attribute;
    }
  }
  bool has_sizes = sizes_in && sizes_in->numel() > 0;
  if (has_sizes && scales_in && scales_in->numel() > 0)
    throw ExecError("Resize takes scales or sizes, not both");
  if (c.attribute("axes")) throw ExecError("unsupported: Resize with axes");
  if (c.intAttribute("antialias", 0) != 0) throw ExecError("unsupported: Resize with antialias");
  if (c.stringAttribute("keep_aspect_ratio_policy", "stretch") != "stretch")
    throw ExecError("unsupported: keep_aspect_ratio_policy");
  std::string mode = c.stringAttribute("mode", "nearest");
  std::string transform =
      legacy ? "asymmetric" : c.stringAttribute("coordinate_transformation_mode", "half_pixel");
  // Upsample and Resize-10 name no rounding: ONNX's Resize-10 tests and ONNX Runtime floor when
  // upsampling and take the ceiling when downsampling (0.6: [1, 2, 3, 4] gives [1, 3]).
  std::string nearest_mode =
      legacy ? "simple" : c.stringAttribute("nearest_mode", "round_prefer_floor");
  double cubic_a = c.floatAttribute("cubic_coeff_a", -0.75f);
  bool exclude_outside = c.intAttribute("exclude_outside", 0) != 0;
  float extrapolation = c.floatAttribute("extrapolation_value", 0.0f);

  std::vector<double> scales(rank, 1.0);
  std::vector<int64_t> out_shape(rank);
  if (has_sizes) {
    std::vector<int64_t> sizes = sizes_in->asInts();
    if (sizes.size() != rank) throw ExecError("sizes do not match the input rank");
    for (size_t d = 0; d < rank; ++d) {
      if (sizes[d] < 0) throw ExecError("sizes must not be negative");
      out_shape[d] = sizes[d];
      scales[d] = static_cast<float>(sizes[d]) / static_cast<float>(x.shape[d]);  // ORT's float
    }
  } else if (scales_in && scales_in->numel() > 0) {
    requireFloat(*scales_in, "scales");
    if (static_cast<size_t>(scales_in->numel()) != rank)
      throw ExecError("scales do not match the input rank");
    for (size_t d = 0; d < rank; ++d) {
      scales[d] = scales_in->f[d];
      // in·scale in float32, as ONNX Runtime computes it (10 × 0.7f is 7, not 6.9999998).
      float size = static_cast<float>(x.shape[d]) * scales_in->f[d];
      if (!(scales[d] > 0) || !(size < 0x1p62f))
        throw ExecError("scales must be positive and finite");
      // Upsample's scales are at least 1 (its spec; ONNX Runtime refuses a smaller one).
      if (c.node().meta.source_op == "Upsample" && scales[d] < 1)
        throw ExecError("Upsample's scales must be at least 1, not " +
                        ir::pyFloatRepr(scales_in->f[d]));
      out_shape[d] = static_cast<int64_t>(size);
    }
  } else {
    throw ExecError("Resize needs scales or sizes");
  }
  std::vector<double> roi_values(2 * rank, 0.0);
  for (size_t d = 0; d < rank; ++d) roi_values[rank + d] = 1.0;
  // tf_crop_and_resize reads the crop box from roi, [starts..., ends...] over every axis.
  if (transform == "tf_crop_and_resize" && (!roi || roi->numel() != static_cast<int64_t>(2 * rank)))
    throw ExecError("tf_crop_and_resize needs an roi of " + std::to_string(2 * rank) +
                    " values (twice the input's rank), not " +
                    std::to_string(roi ? roi->numel() : 0));
  if (roi && roi->numel() == static_cast<int64_t>(2 * rank)) {
    requireFloat(*roi, "roi");
    for (size_t k = 0; k < 2 * rank; ++k) {
      roi_values[k] = roi->f[k];
      if (!std::isfinite(roi_values[k])) throw ExecError("roi is not finite");
    }
  }
  // An empty input has nothing to sample for a non-empty output.
  if (checkedNumel(out_shape) > 0 && x.numel() == 0)
    throw ExecError("Resize of an empty input " + shapeText(x.shape) + " to " +
                    shapeText(out_shape));
  std::vector<AxisPlan> plans;
  for (size_t d = 0; d < rank; ++d)
    plans.push_back(planAxis(x.shape[d], out_shape[d], scales[d], roi_values[d],
                             roi_values[rank + d], transform, mode,
                             nearest_mode != "simple" ? nearest_mode
                             : scales[d] < 1          ? "ceil"
                                                      : "floor",
                             cubic_a, exclude_outside));
  // An axis kept as it is, each element its own, no neighbour under a zero weight (whose NaN or
  // infinity would spread into it):
  // - the batch and channel axes of a rank-3 or higher input at scale 1, as PyTorch (which
  //   resizes the spatial axes only) and ONNX Runtime compute an image's resize;
  // - with nearest, any axis at scale 1, as ONNX Runtime takes it: tf_half_pixel_for_nn's x + ½
  //   with a ceiling rounding read the next element (the next channel) by the formula;
  // - every axis, when none changes: ONNX Runtime returns such an input as it is.
  // A spatial axis of scale 1 beside one that changes keeps its zero-weight neighbours with
  // linear and cubic, as ONNX Runtime and PyTorch do. codegen's Resize keeps the same axes.
  auto unit = [&](size_t d) { return x.shape[d] == out_shape[d] && scales[d] == 1.0; };
  bool identity = true;
  for (size_t d = 0; d < rank; ++d)
    identity = identity && x.shape[d] == out_shape[d] && keepsAxis(plans[d]);
  for (size_t d = 0; d < rank; ++d) {
    bool kept = (identity && x.shape[d] == out_shape[d]) ||
                (unit(d) && ((rank >= 3 && d < 2) || mode == "nearest"));
    // A crop box moves the coordinates: only an axis whose taps are its own elements.
    if (kept && (transform != "tf_crop_and_resize" || keepsAxis(plans[d]))) {
      for (size_t k = 0; k < plans[d].taps.size(); ++k)
        plans[d].taps[k] = Taps{{static_cast<int64_t>(k)}, {1.0}, false};
    }
  }
  Value y =
      Value::floats(out_shape, std::vector<float>(static_cast<size_t>(checkedNumel(out_shape))));
  std::vector<int64_t> in_strides = stridesOf(x.shape);
  // Nearest (one tap of weight 1 per coordinate, none outside a crop box): each output element
  // is one input element, copied (a −0 stays −0, a NaN the same NaN). An upsampling in a YOLO
  // neck went through the sum below at 27 ns an element.
  bool copies = true;
  for (size_t d = 0; d < rank; ++d) {
    for (const Taps& t : plans[d].taps)
      copies = copies && !t.outside && t.index.size() == 1 && t.weight[0] == 1.0;
  }
  if (copies) {
    if (y.f.empty()) return outputs(std::move(y));
    // Per axis, each output coordinate's offset in the input; the last axis is the inner loop.
    std::vector<std::vector<int64_t>> offsets(rank);
    for (size_t d = 0; d < rank; ++d) {
      for (const Taps& t : plans[d].taps) offsets[d].push_back(t.index[0] * in_strides[d]);
    }
    const std::vector<int64_t>& inner = offsets[rank - 1];
    size_t width = inner.size(), rows = y.f.size() / width;
    std::vector<int64_t> coord(rank, 0);
    for (size_t r = 0; r < rows; ++r) {
      int64_t base = 0;
      for (size_t d = 0; d + 1 < rank; ++d) base += offsets[d][static_cast<size_t>(coord[d])];
      const float* from = x.f.data() + base;
      float* to = y.f.data() + r * width;
      for (size_t k = 0; k < width; ++k) to[k] = from[inner[k]];
      for (size_t d = rank - 1; d-- > 0;) {
        if (++coord[d] < out_shape[d]) break;
        coord[d] = 0;
      }
    }
    return outputs(std::move(y));
  }
  bool any_outside = false;
  for (size_t d = 0; d < rank; ++d) {
    for (const Taps& t : plans[d].taps) any_outside = any_outside || t.outside;
  }
  if (!any_outside) {
    // Separable: one pass per axis that moves, in double, each output row of that axis the
    // weighted sum of whole rows of the axes after it (the sum over every combination of taps
    // below, grouped by axis). DeepLabV3's and LR-ASPP's bilinear resize of 21 classes to the
    // image took 146 ms of a 158 ms run through that sum, element by element. The last axis
    // first: its pass gathers single elements, so it runs while the tensor is smallest, and the
    // passes that enlarge it most weigh whole rows.
    std::vector<double> current(x.f.begin(), x.f.end()), next;
    std::vector<int64_t> shape = x.shape;
    for (size_t d = rank; d-- > 0;) {
      const std::vector<Taps>& taps = plans[d].taps;
      bool moves = shape[d] != out_shape[d];
      for (size_t k = 0; !moves && k < taps.size(); ++k)
        moves = taps[k].index.size() != 1 || taps[k].index[0] != static_cast<int64_t>(k) ||
                taps[k].weight[0] != 1.0;
      if (!moves) continue;
      int64_t outer = 1, inner = 1, in = shape[d], out = out_shape[d];
      for (size_t e = 0; e < d; ++e) outer *= shape[e];
      for (size_t e = d + 1; e < rank; ++e) inner *= shape[e];
      // The taps flat: output coordinate k's are [start[k], start[k + 1]).
      std::vector<int64_t> start{0}, index;
      std::vector<double> weight;
      for (const Taps& t : taps) {
        index.insert(index.end(), t.index.begin(), t.index.end());
        weight.insert(weight.end(), t.weight.begin(), t.weight.end());
        start.push_back(static_cast<int64_t>(index.size()));
      }
      std::vector<int64_t> next_shape = shape;
      next_shape[d] = out;  // between the input and the output: checked as both are
      next.assign(static_cast<size_t>(checkedNumel(next_shape)), 0.0);
      forEachIndex(outer * out * inner >= kParallelElements, outer, [&](int64_t o) {
        const double* from = current.data() + o * in * inner;
        double* to = next.data() + o * out * inner;
        if (inner == 1) {
          for (int64_t k = 0; k < out; ++k) {
            double sum = 0;
            for (int64_t j = start[k]; j < start[k + 1]; ++j) sum += weight[j] * from[index[j]];
            to[k] = sum;
          }
          return;
        }
        for (int64_t k = 0; k < out; ++k, to += inner) {
          for (int64_t j = start[k]; j < start[k + 1]; ++j) {
            const double* row = from + index[j] * inner;
            double w = weight[j];
            for (int64_t r = 0; r < inner; ++r) to[r] += w * row[r];
          }
        }
      });
      current.swap(next);
      shape = std::move(next_shape);
    }
    for (size_t k = 0; k < y.f.size(); ++k) y.f[k] = static_cast<float>(current[k]);
    return outputs(std::move(y));
  }
  std::vector<int64_t> coord(rank, 0);
  std::vector<size_t> pick(rank, 0);
  for (size_t o = 0; o < y.f.size(); ++o) {
    // The output element: the sum over every combination of the axes' taps.
    bool outside = false;
    for (size_t d = 0; d < rank; ++d) outside = outside || plans[d].taps[coord[d]].outside;
    double value = 0;
    if (outside) {
      value = extrapolation;
    } else {
      std::fill(pick.begin(), pick.end(), size_t{0});
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
  return outputs(std::move(y));
}

// x folded back into [low, high] by reflection at the ends (ONNX Runtime's GsReflect).
double reflect(double x, double low, double high) {
  double range = high - low;
  if (!(range > 0)) return low;  // a one-pixel axis with align_corners
  if (x < low) {
    double distance = low - x;
    int64_t turns = static_cast<int64_t>(distance / range);
    double rest = distance - static_cast<double>(turns) * range;
    return turns % 2 == 0 ? low + rest : high - rest;
  }
  if (x > high) {
    double distance = x - high;
    int64_t turns = static_cast<int64_t>(distance / range);
    double rest = distance - static_cast<double>(turns) * range;
    return turns % 2 == 0 ? high - rest : low + rest;
  }
  return x;
}

// GridSample (opset 16, 2-D) as ONNX Runtime computes it: each output point samples the input at
// the grid's (x, y) in [-1, 1], mapped to pixel coordinates (align_corners: the corner pixels'
// centres, else their outer edges); nearest (ties to even), bilinear or bicubic (A = -0.75)
// interpolation; samples outside the image read 0 (zeros), the nearest edge (border) or the image
// mirrored (reflection).
std::vector<Value> gridSample(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value& grid = requireFloat(c.input(1), "the grid");
  if (x.shape.size() != 4 || grid.shape.size() != 4 || grid.shape[3] != 2 ||
      grid.shape[0] != x.shape[0])
    throw ExecError("unsupported: GridSample of " + shapeText(x.shape) + " by a grid of " +
                    shapeText(grid.shape) + " (2-D only)");
  std::string mode = c.stringAttribute("mode", "bilinear");
  std::string padding = c.stringAttribute("padding_mode", "zeros");
  bool align = c.intAttribute("align_corners", 0) != 0;
  if (mode != "bilinear" && mode != "nearest" && mode != "bicubic")
    throw ExecError("unsupported: GridSample mode " + mode);
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    throw ExecError("unsupported: GridSample padding_mode " + padding);
  int64_t n = x.shape[0], channels = x.shape[1], height = x.shape[2], width = x.shape[3];
  int64_t out_h = grid.shape[1], out_w = grid.shape[2];
  std::vector<int64_t> shape = {n, channels, out_h, out_w};
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  if (!y.f.empty() && (height == 0 || width == 0))
    throw ExecError("GridSample of an empty image " + shapeText(x.shape));
  // The grid is normalized to [-1, 1]: a point far outside is refused rather than turned into a
  // pixel index past int64 (a NaN has no pixel at all).
  for (float v : grid.f) {
    if (!(std::fabs(v) <= 1e6f)) throw ExecError("a grid point is not finite or beyond +-1e6");
  }
  double x_min = align ? 0 : -0.5, y_min = x_min;
  double x_max = align ? static_cast<double>(width - 1) : static_cast<double>(width) - 0.5;
  double y_max = align ? static_cast<double>(height - 1) : static_cast<double>(height) - 0.5;
  auto denormalize = [align](double v, int64_t length) {
    double size = static_cast<double>(length);
    return align ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
  };
  auto cubic = [](double t, double* coefficients) {
    const double a = -0.75;
    coefficients[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
    coefficients[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
    coefficients[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
    coefficients[3] = ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a;
  };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t ch = 0; ch < channels; ++ch) {
      const float* image = x.f.data() + ((b * channels + ch) * height * width);
      auto pixel = [&](int64_t row, int64_t col) -> double {
        if (padding == "zeros") {
          return row >= 0 && row < height && col >= 0 && col < width ? image[row * width + col]
                                                                     : 0.0;
        }
        if (padding == "border") {
          row = std::clamp<int64_t>(row, 0, height - 1);
          col = std::clamp<int64_t>(col, 0, width - 1);
        } else {
          row = static_cast<int64_t>(reflect(static_cast<double>(row), y_min, y_max));
          col = static_cast<int64_t>(reflect(static_cast<double>(col), x_min, x_max));
        }
        return image[row * width + col];
      };
      for (int64_t oy = 0; oy < out_h; ++oy) {
        for (int64_t ox = 0; ox < out_w; ++ox) {
          const float* point = grid.f.data() + (((b * out_h + oy) * out_w + ox) * 2);
          double sx = denormalize(point[0], width), sy = denormalize(point[1], height);
          if (mode == "nearest") {
            sx = std::nearbyint(sx);
            sy = std::nearbyint(sy);
          }
          if (sx < x_min || sx > x_max || sy < y_min || sy > y_max) {
            // Bicubic keeps the point and takes the border per tap, as PyTorch and ONNX Runtime
            // do (clamping the point first moved its 4 × 4 window: 144 where the answer is 148.6).
            if (padding == "border" && mode != "bicubic") {
              sx = std::clamp(sx, 0.0, static_cast<double>(width - 1));
              sy = std::clamp(sy, 0.0, static_cast<double>(height - 1));
            } else if (padding == "reflection") {
              sx = reflect(sx, x_min, x_max);
              sy = reflect(sy, y_min, y_max);
            }
          }
          double value;
          if (mode == "nearest") {
            value = pixel(static_cast<int64_t>(sy), static_cast<int64_t>(sx));
          } else if (mode == "bilinear") {
            double x1 = std::floor(sx), y1 = std::floor(sy);
            int64_t c1 = static_cast<int64_t>(x1), r1 = static_cast<int64_t>(y1);
            double dx1 = sx - x1, dx2 = x1 + 1 - sx, dy1 = sy - y1, dy2 = y1 + 1 - sy;
            value = dy2 * (dx2 * pixel(r1, c1) + dx1 * pixel(r1, c1 + 1)) +
                    dy1 * (dx2 * pixel(r1 + 1, c1) + dx1 * pixel(r1 + 1, c1 + 1));
          } else {
            double x0 = std::floor(sx) - 1, y0 = std::floor(sy) - 1;
            double wx[4], wy[4];
            cubic(sx - x0 - 1, wx);
            cubic(sy - y0 - 1, wy);
            value = 0;
            for (int i = 0; i < 4; ++i) {
              double row = 0;
              for (int j = 0; j < 4; ++j)
                row += wx[j] * pixel(static_cast<int64_t>(y0) + i, static_cast<int64_t>(x0) + j);
              value += wy[i] * row;
            }
          }
          y.f[static_cast<size_t>(((b * channels + ch) * out_h + oy) * out_w + ox)] =
              static_cast<float>(value);
        }
      }
    }
  }
  return outputs(std::move(y));
}

}  // namespace

void addResizeKernels(KernelTable& t) {
  add(t, {"torch.nn.functional.interpolate", "module:Upsample"}, resize);
  add(t, {"onnx.GridSample"}, gridSample);
}

}  // namespace fxc::exec
