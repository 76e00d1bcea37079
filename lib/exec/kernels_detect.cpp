// Object-detection kernels: NonMaxSuppression and RoiAlign.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

struct Box {
  float y1, x1, y2, x2;  // y1 <= y2, x1 <= x2
};

// A box of NonMaxSuppression's input: corners in either order (center_point_box 0), or
// [x_center, y_center, width, height] (1).
Box boxAt(const float* b, bool center) {
  if (center) return {b[1] - b[3] / 2, b[0] - b[2] / 2, b[1] + b[3] / 2, b[0] + b[2] / 2};
  return {std::min(b[0], b[2]), std::min(b[1], b[3]), std::max(b[0], b[2]), std::max(b[1], b[3])};
}

// Whether b overlaps a by more than `threshold` (intersection over union); boxes without area
// never do.
bool overlaps(const Box& a, const Box& b, float threshold) {
  float width = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
  float height = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
  if (width <= 0 || height <= 0) return false;
  float intersection = width * height;
  float area_a = (a.x2 - a.x1) * (a.y2 - a.y1), area_b = (b.x2 - b.x1) * (b.y2 - b.y1);
  float union_area = area_a + area_b - intersection;
  if (area_a <= 0 || area_b <= 0 || union_area <= 0) return false;
  return intersection / union_area > threshold;
}

float scalarInput(const KernelContext& c, size_t k, float fallback) {
  const Value* v = c.optionalInput(k);
  if (!v || v->numel() == 0) return fallback;
  if (v->numel() != 1) throw ExecError("input " + std::to_string(k) + " must be a scalar");
  return v->isFloat() ? v->f[0] : static_cast<float>(v->i[0]);
}

// NonMaxSuppression: per batch and class, the boxes scoring above score_threshold, best first
// (a NaN first; ties: the lower index), each kept unless it overlaps a kept one by more than
// iou_threshold, at most max_output_boxes_per_class of them. Rows [batch, class, box], batch by batch, class by
// class, in the order kept.
std::vector<Value> nonMaxSuppression(const KernelContext& c) {
  const Value& boxes = requireFloat(c.input(0), "the boxes");
  const Value& scores = requireFloat(c.input(1), "the scores");
  if (boxes.shape.size() != 3 || boxes.shape[2] != 4 || scores.shape.size() != 3 ||
      scores.shape[0] != boxes.shape[0] || scores.shape[2] != boxes.shape[1])
    throw ExecError("boxes " + shapeText(boxes.shape) + " and scores " + shapeText(scores.shape) +
                    " do not fit [B, N, 4] and [B, C, N]");
  const Value* limit_value = c.optionalInput(2);
  int64_t limit = limit_value && limit_value->numel() > 0 ? limit_value->asInts().at(0) : 0;
  float iou_threshold = scalarInput(c, 3, 0.0f);
  const Value* score_value = c.optionalInput(4);
  bool has_score_threshold = score_value && score_value->numel() > 0;
  float score_threshold = scalarInput(c, 4, 0.0f);
  int64_t center = c.intAttribute("center_point_box", 0);
  if (center != 0 && center != 1) throw ExecError("center_point_box must be 0 or 1");
  int64_t batches = boxes.shape[0], classes = scores.shape[1], count = boxes.shape[1];
  std::vector<int64_t> rows;
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<Box> all(static_cast<size_t>(count));
    for (int64_t k = 0; k < count; ++k)
      all[static_cast<size_t>(k)] = boxAt(boxes.f.data() + ((b * count + k) * 4), center);
    for (int64_t cls = 0; cls < classes; ++cls) {
      const float* score = scores.f.data() + ((b * classes + cls) * count);
      std::vector<int64_t> order;
      for (int64_t k = 0; k < count; ++k) {
        if (!has_score_threshold || score[k] > score_threshold) order.push_back(k);
      }
      // A NaN score ranks first, as TopK and ArgMax take NaN for the largest (`>` alone is no
      // ordering once a NaN is present, which std::stable_sort needs).
      std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
        bool x_nan = std::isnan(score[x]), y_nan = std::isnan(score[y]);
        return x_nan != y_nan ? x_nan : score[x] > score[y];
      });
      std::vector<int64_t> kept;
      for (int64_t k : order) {
        if (static_cast<int64_t>(kept.size()) >= limit) break;
        bool suppressed = false;
        for (int64_t j : kept) {
          suppressed =
              overlaps(all[static_cast<size_t>(j)], all[static_cast<size_t>(k)], iou_threshold);
          if (suppressed) break;
        }
        if (!suppressed) kept.push_back(k);
      }
      for (int64_t k : kept) rows.insert(rows.end(), {b, cls, k});
    }
  }
  int64_t selected = static_cast<int64_t>(rows.size() / 3);
  return outputs(Value::ints({selected, 3}, std::move(rows)));
}

// RoiAlign (average mode), as ONNX Runtime computes it: each output bin of a region is the mean
// of a sampling_ratio² grid (or ⌈bin size⌉² when 0) of bilinear samples; a sample more than one
// pixel outside the map counts 0, one nearer is clamped to the edge. half_pixel shifts the
// region by half a pixel; output_half_pixel (before opset 16) does not, and widens regions
// smaller than a pixel to one.
std::vector<Value> roiAlign(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value& rois = requireFloat(c.input(1), "the regions");
  std::vector<int64_t> batch_of = c.input(2).asInts();
  if (x.shape.size() != 4) throw ExecError("RoiAlign needs an NCHW input");
  if (rois.shape.size() != 2 || rois.shape[1] != 4 ||
      static_cast<int64_t>(batch_of.size()) != rois.shape[0])
    throw ExecError("rois " + shapeText(rois.shape) + " and batch_indices do not fit [R, 4], [R]");
  if (c.stringAttribute("mode", "avg") != "avg")
    throw ExecError("unsupported: RoiAlign mode " + c.stringAttribute("mode", "avg"));
  if (!c.attribute("coordinate_transformation_mode") && c.opset() == 0)
    throw ExecError("unsupported: RoiAlign without coordinate_transformation_mode, opset unknown");
  std::string mode = c.stringAttribute("coordinate_transformation_mode",
                                       c.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (mode != "half_pixel" && mode != "output_half_pixel")
    throw ExecError("unknown coordinate_transformation_mode " + mode);
  bool half_pixel = mode == "half_pixel";
  int64_t out_h = c.intAttribute("output_height", 1), out_w = c.intAttribute("output_width", 1);
  int64_t ratio = c.intAttribute("sampling_ratio", 0);
  double scale = c.floatAttribute("spatial_scale", 1.0f);
  if (out_h <= 0 || out_w <= 0 || ratio < 0) throw ExecError("bad RoiAlign output size or ratio");
  if (!std::isfinite(scale)) throw ExecError("spatial_scale is not finite");
  int64_t n = x.shape[0], channels = x.shape[1], height = x.shape[2], width = x.shape[3];
  int64_t regions = rois.shape[0];
  std::vector<int64_t> shape = {regions, channels, out_h, out_w};
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  if (!y.f.empty() && (height == 0 || width == 0))
    throw ExecError("RoiAlign on an empty feature map " + shapeText(x.shape));
  for (float v : rois.f) {
    if (!std::isfinite(v)) throw ExecError("a region's coordinates are not finite");
  }
  // Where a sample reads: four corners and their weights (all 0 outside the map).
  struct Sample {
    int64_t at[4] = {0, 0, 0, 0};
    double weight[4] = {0, 0, 0, 0};
  };
  auto sampleAt = [&](double yy, double xx) {
    Sample s;
    if (yy < -1.0 || yy > static_cast<double>(height) || xx < -1.0 ||
        xx > static_cast<double>(width))
      return s;
    yy = std::max(yy, 0.0);
    xx = std::max(xx, 0.0);
    int64_t y_low = static_cast<int64_t>(yy), x_low = static_cast<int64_t>(xx), y_high, x_high;
    if (y_low >= height - 1) {
      y_high = y_low = height - 1;
      yy = static_cast<double>(y_low);
    } else {
      y_high = y_low + 1;
    }
    if (x_low >= width - 1) {
      x_high = x_low = width - 1;
      xx = static_cast<double>(x_low);
    } else {
      x_high = x_low + 1;
    }
    double ly = yy - static_cast<double>(y_low), lx = xx - static_cast<double>(x_low);
    double hy = 1 - ly, hx = 1 - lx;
    s.at[0] = y_low * width + x_low, s.at[1] = y_low * width + x_high;
    s.at[2] = y_high * width + x_low, s.at[3] = y_high * width + x_high;
    s.weight[0] = hy * hx, s.weight[1] = hy * lx, s.weight[2] = ly * hx, s.weight[3] = ly * lx;
    return s;
  };
  double offset = half_pixel ? 0.5 : 0.0;
  for (int64_t r = 0; r < regions; ++r) {
    int64_t batch = batch_of[static_cast<size_t>(r)];
    if (batch < 0 || batch >= n)
      throw ExecError("batch index " + std::to_string(batch) + " is out of range");
    const float* roi = rois.f.data() + (r * 4);
    double start_w = roi[0] * scale - offset, start_h = roi[1] * scale - offset;
    double roi_w = roi[2] * scale - offset - start_w, roi_h = roi[3] * scale - offset - start_h;
    if (!half_pixel) {
      roi_w = std::max(roi_w, 1.0);
      roi_h = std::max(roi_h, 1.0);
    }
    double bin_h = roi_h / static_cast<double>(out_h), bin_w = roi_w / static_cast<double>(out_w);
    // Samples per bin: sampling_ratio, else one per unit of the bin. Past 2^20 in all (a region
    // of 1e30 pixels) it would not end; refused.
    double samples_h = ratio > 0 ? static_cast<double>(ratio) : std::ceil(bin_h);
    double samples_w = ratio > 0 ? static_cast<double>(ratio) : std::ceil(bin_w);
    if (!(samples_h * samples_w <= 0x1p20))
      throw ExecError("a region needs more than 2^20 samples per bin");
    int64_t grid_h = static_cast<int64_t>(samples_h), grid_w = static_cast<int64_t>(samples_w);
    double count = static_cast<double>(std::max<int64_t>(grid_h * grid_w, 1));
    for (int64_t ph = 0; ph < out_h; ++ph) {
      for (int64_t pw = 0; pw < out_w; ++pw) {
        std::vector<Sample> samples;
        for (int64_t iy = 0; iy < grid_h; ++iy) {
          double yy = start_h + static_cast<double>(ph) * bin_h +
                      (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(grid_h);
          for (int64_t ix = 0; ix < grid_w; ++ix) {
            double xx = start_w + static_cast<double>(pw) * bin_w +
                        (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(grid_w);
            samples.push_back(sampleAt(yy, xx));
          }
        }
        for (int64_t ch = 0; ch < channels; ++ch) {
          const float* plane = x.f.data() + ((batch * channels + ch) * height * width);
          double sum = 0;
          for (const Sample& s : samples) {
            for (int corner = 0; corner < 4; ++corner)
              sum += s.weight[corner] * plane[s.at[corner]];
          }
          y.f[static_cast<size_t>(((r * channels + ch) * out_h + ph) * out_w + pw)] =
              static_cast<float>(sum / count);
        }
      }
    }
  }
  return outputs(std::move(y));
}

}  // namespace

void addDetectionKernels(KernelTable& t) {
  add(t, {"onnx.NonMaxSuppression"}, nonMaxSuppression);
  add(t, {"onnx.RoiAlign"}, roiAlign);
}

}  // namespace fxc::exec
