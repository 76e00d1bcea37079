// Quantization kernels: QuantizeLinear and DequantizeLinear (per tensor or per axis, int8/uint8/
// int32), torch's fake_quantize_per_tensor_affine / _per_channel_affine (what the quantization
// passes put in the graph: a QuantizeLinear→DequantizeLinear pair as one op), and the observers
// (identity when run; the calibration pass reads them).
#include "exec/kernels_internal.h"
#include "exec/quantize.h"

namespace fxc::exec {
namespace {

QuantRange rangeOf(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kInt8:
      return {-128, 127};
    case ir::DType::kUInt8:
      return {0, 255};
    case ir::DType::kInt16:
      return {-32768, 32767};
    case ir::DType::kUInt16:
      return {0, 65535};
    case ir::DType::kInt32:
      return {INT32_MIN, INT32_MAX};
    default:
      throw ExecError("unsupported: quantization to " + std::string(ir::dtypeName(dtype)));
  }
}

// Per-element parameters: a scale (and zero point) per tensor, or one per slice along `axis`.
struct Broadcast {
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int64_t inner = 1, count = 1;  // x's elements per slice; slices along the axis

  Broadcast(const Value& x, const Value& scale, const Value* zero_point, int64_t axis_attr) {
    requireFloat(scale, "the scale");
    scales = scale.f;
    zero_points = zero_point ? zero_point->i : std::vector<int64_t>(scales.size(), 0);
    if (zero_point && zero_point->isFloat()) throw ExecError("the zero point must be integer");
    if (zero_points.size() != scales.size())
      throw ExecError("the scale and the zero point differ in size");
    if (scales.size() > 1 || scale.shape.size() == 1) {
      size_t axis = normalizeAxis(axis_attr, x.shape.size());
      count = x.shape[axis];
      for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
      if (static_cast<int64_t>(scales.size()) != count)
        throw ExecError("a per-axis scale of " + std::to_string(scales.size()) +
                        " elements for an axis of " + std::to_string(count));
    } else if (scales.empty()) {
      throw ExecError("the scale is empty");
    }
    for (float s : scales) {
      if (!(s > 0)) throw ExecError("the scale must be positive");
    }
  }
  QuantParams at(size_t element) const {
    size_t slice =
        count == 1 ? 0 : static_cast<size_t>((static_cast<int64_t>(element) / inner) % count);
    return {scales[slice], zero_points[slice]};
  }
};

std::vector<Value> quantizeLinear(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* zp = c.optionalInput(2);
  Broadcast b(x, c.input(1), zp, c.intAttribute("axis", 1));
  ir::DType dtype = zp ? zp->dtype : ir::DType::kUInt8;
  QuantRange range = rangeOf(dtype);
  Value y = Value::ints(x.shape, std::vector<int64_t>(x.f.size()), dtype);
  for (size_t k = 0; k < x.f.size(); ++k) y.i[k] = quantizeValue(x.f[k], b.at(k), range);
  return {std::move(y)};
}

std::vector<Value> dequantizeLinear(const KernelContext& c) {
  const Value& x = c.input(0);
  if (x.isFloat()) throw ExecError("DequantizeLinear's input must be integer");
  Broadcast b(x, c.input(1), c.optionalInput(2), c.intAttribute("axis", 1));
  Value y = Value::floats(x.shape, std::vector<float>(x.i.size()));
  for (size_t k = 0; k < x.i.size(); ++k) y.f[k] = dequantizeValue(x.i[k], b.at(k));
  return {std::move(y)};
}

// torch.fake_quantize_per_{tensor,channel}_affine(x, scale, zero_point, [axis,] quant_min,
// quant_max): the quantization round trip in float.
std::vector<Value> fakeQuantize(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  Broadcast b(x, c.input(1), &c.input(2), c.intAttribute("axis", 0));
  QuantRange range{c.intAttribute("quant_min", -128), c.intAttribute("quant_max", 127)};
  if (range.min >= range.max) throw ExecError("quant_min must be below quant_max");
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (size_t k = 0; k < x.f.size(); ++k) y.f[k] = fakeQuantizeValue(x.f[k], b.at(k), range);
  return {std::move(y)};
}

}  // namespace

void addQuantizationKernels(KernelTable& t) {
  add(t, {"onnx.QuantizeLinear"}, quantizeLinear);
  add(t, {"onnx.DequantizeLinear"}, dequantizeLinear);
  add(t, {"torch.fake_quantize_per_tensor_affine", "torch.fake_quantize_per_channel_affine"},
      fakeQuantize);
  add(t, {"module:MinMaxObserver", "module:HistogramObserver"},
      [](const KernelContext& c) { return std::vector<Value>{c.input(0)}; });
}

}  // namespace fxc::exec
