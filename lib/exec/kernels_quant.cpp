// Quantization kernels: QuantizeLinear and DequantizeLinear (per tensor or per axis, int8/uint8/
// int32), torch's fake_quantize_per_tensor_affine / _per_channel_affine (what the quantization
// passes put in the graph: a QuantizeLinear→DequantizeLinear pair as one op), the observers
// (identity when run; the calibration pass reads them), and ONNX Runtime's integer operator form:
// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul (int64 accumulation); and
// DynamicQuantizeLinear.
#include <algorithm>
#include <cmath>

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

// Per-element parameters: a scale (and zero point) per tensor (one element, whatever its shape,
// as ONNX Runtime reads it), one per slice along `axis`, or — `block_size` B > 0, opset 21 —
// one per block of B elements along `axis`: the scale has x's rank, x's dimensions elsewhere and
// ceil(D / B) along the axis.
struct Broadcast {
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int64_t inner = 1, dim = 1, block = 0;  // along the axis: elements after it, its size, B

  Broadcast(const Value& x, const Value& scale, const Value* zero_point, int64_t axis_attr,
            int64_t block_size = 0) {
    requireFloat(scale, "the scale");
    scales = scale.f;
    zero_points = zero_point ? zero_point->i : std::vector<int64_t>(scales.size(), 0);
    if (zero_point && zero_point->isFloat()) throw ExecError("the zero point must be integer");
    if (zero_points.size() != scales.size())
      throw ExecError("the scale and the zero point differ in size");
    if (scales.empty()) throw ExecError("the scale is empty");
    for (float s : scales) {
      if (!(s > 0)) throw ExecError("the scale must be positive");
    }
    if (block_size < 0) throw ExecError("block_size must not be negative");
    if (scales.size() == 1 && block_size == 0) return;
    size_t axis = normalizeAxis(axis_attr, x.shape.size());
    dim = x.shape[axis];
    for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
    if (block_size == 0) {
      if (static_cast<int64_t>(scales.size()) != dim)
        throw ExecError("a per-axis scale of " + std::to_string(scales.size()) +
                        " elements for an axis of " + std::to_string(dim));
      return;
    }
    block = block_size;
    std::vector<int64_t> want = x.shape;
    want[axis] = (dim + block - 1) / block;
    if (scale.shape != want || (zero_point && zero_point->shape != want))
      throw ExecError("a blocked scale (block_size " + std::to_string(block) + ") of shape " +
                      shapeText(scale.shape) + " for an input of shape " + shapeText(x.shape) +
                      ": it must be " + shapeText(want));
  }
  QuantParams at(size_t element) const {
    if (scales.size() == 1 && block == 0) return {scales[0], zero_points[0]};
    int64_t k = static_cast<int64_t>(element), a = (k / inner) % dim;
    size_t slice = static_cast<size_t>(
        block == 0
            ? a
            : ((k / (inner * dim)) * ((dim + block - 1) / block) + a / block) * inner + k % inner);
    return {scales[slice], zero_points[slice]};
  }
};

std::vector<Value> quantizeLinear(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* zp = c.optionalInput(2);
  Broadcast b(x, c.input(1), zp, c.intAttribute("axis", 1), c.intAttribute("block_size", 0));
  // The zero point's type, else output_dtype (opset 21), else uint8.
  auto output_dtype = static_cast<ir::DType>(c.intAttribute("output_dtype", 0));
  if (zp && output_dtype != ir::DType::kUndefined && output_dtype != zp->dtype)
    throw ExecError("output_dtype " + std::string(ir::dtypeName(output_dtype)) +
                    " differs from the zero point's type " + std::string(ir::dtypeName(zp->dtype)));
  ir::DType dtype =
      zp ? zp->dtype : (output_dtype != ir::DType::kUndefined ? output_dtype : ir::DType::kUInt8);
  if (c.intAttribute("saturate", 1) != 1)
    throw ExecError("unsupported: saturate 0 (float8 outputs)");
  QuantRange range = rangeOf(dtype);
  Value y = Value::ints(x.shape, std::vector<int64_t>(x.f.size()), dtype);
  for (size_t k = 0; k < x.f.size(); ++k) y.i[k] = quantizeValue(x.f[k], b.at(k), range);
  return outputs(std::move(y));
}

std::vector<Value> dequantizeLinear(const KernelContext& c) {
  const Value& x = c.input(0);
  if (x.isFloat()) throw ExecError("DequantizeLinear's input must be integer");
  Broadcast b(x, c.input(1), c.optionalInput(2), c.intAttribute("axis", 1),
              c.intAttribute("block_size", 0));
  Value y = Value::floats(x.shape, std::vector<float>(x.i.size()));
  for (size_t k = 0; k < x.i.size(); ++k) y.f[k] = dequantizeValue(x.i[k], b.at(k));
  return outputs(std::move(y));
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
  return outputs(std::move(y));
}

// The elements of an integer tensor minus its zero point: one scalar, or one per slice along
// `axis` (a 1-D zero point).
std::vector<int64_t> centered(const Value& v, const Value* zero_point, size_t axis,
                              const char* what) {
  if (v.isFloat()) throw ExecError(std::string(what) + " must be integer");
  std::vector<int64_t> out = v.i;
  if (!zero_point) return out;
  if (zero_point->isFloat()) throw ExecError(std::string(what) + "'s zero point must be integer");
  const std::vector<int64_t>& zp = zero_point->i;
  if (zp.size() == 1) {
    for (int64_t& x : out) x -= zp[0];
    return out;
  }
  if (axis >= v.shape.size() || static_cast<int64_t>(zp.size()) != v.shape[axis])
    throw ExecError(std::string(what) + "'s zero point does not match its axis");
  Slices slices(v.shape, static_cast<int64_t>(axis));
  for (size_t k = 0; k < out.size(); ++k) out[k] -= zp[slices.of(k)];
  return out;
}

// Integer convolution: (x - x_zp) * (w - w_zp), accumulated in int64. `transposed`: a transposed
// convolution (fxc.QLinearConvTranspose), W [C_in, C_out / group, kh, kw] with its zero points
// along axis 1.
Value integerConvolution(const KernelContext& c, const Value& x, const Value* x_zp, const Value& w,
                         const Value* w_zp, const Value* bias, bool transposed = false) {
  std::optional<ConvGeometry> g =
      transposed ? transposedGeometry(c, x.shape, w.shape) : convGeometry(c, x, w);
  if (!g)
    throw ExecError(
        "unsupported: an integer transposed convolution that is not 2-D, or with output_shape "
        "or SAME padding");
  std::vector<int64_t> xs = centered(x, x_zp, 1, "the input");
  std::vector<int64_t> ws = centered(w, w_zp, transposed ? 1 : 0, "the weight");
  if (bias && (bias->isFloat() || bias->numel() != g->cout))
    throw ExecError("the bias must be int32, one per output channel");
  Value y = Value::ints({g->n, g->cout, g->oh, g->ow},
                        std::vector<int64_t>(static_cast<size_t>(g->n * g->cout * g->oh * g->ow)),
                        ir::DType::kInt32);
  const int64_t* b = bias ? bias->i.data() : nullptr;
  if (transposed)
    transposedConvolve<int64_t>(*g, xs.data(), ws.data(), b, y.i.data());
  else
    convolve<int64_t>(*g, xs.data(), ws.data(), b, y.i.data());
  return y;
}

// Integer matrix product with numpy batching (B 2-D, or the same batch dimensions as A); a 1-D
// operand is numpy's too: A [K] a row [1, K], B [K] a column [K, 1], that dimension then dropped.
Value integerMatmul(const Value& a, const Value* a_zp, const Value& b, const Value* b_zp) {
  if (a.shape.empty() || b.shape.empty()) throw ExecError("MatMul of a scalar (rank 0) operand");
  if (a.shape.size() == 1 || b.shape.size() == 1) {
    Value a2 = a, b2 = b;
    if (a.shape.size() == 1) a2.shape.insert(a2.shape.begin(), 1);
    if (b.shape.size() == 1) b2.shape.push_back(1);
    Value y = integerMatmul(a2, a_zp, b2, b_zp);
    if (b.shape.size() == 1) y.shape.pop_back();
    if (a.shape.size() == 1) y.shape.erase(y.shape.end() - (b.shape.size() == 1 ? 1 : 2));
    return y;
  }
  int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(), n = b.shape.back();
  if (b.shape[b.shape.size() - 2] != k)
    throw ExecError("shapes " + shapeText(a.shape) + " and " + shapeText(b.shape) +
                    " do not multiply");
  std::vector<int64_t> batch(a.shape.begin(), a.shape.end() - 2);
  std::vector<int64_t> b_batch(b.shape.begin(), b.shape.end() - 2);
  if (!b_batch.empty() && b_batch != batch)
    throw ExecError("unsupported: integer MatMul with broadcast batch dimensions");
  // A's zero point is per row (axis rank-2), B's per column (the last axis).
  std::vector<int64_t> as = centered(a, a_zp, a.shape.size() - 2, "A");
  std::vector<int64_t> bs = centered(b, b_zp, b.shape.size() - 1, "B");
  int64_t count = 1;
  for (int64_t d : batch) count *= d;
  std::vector<int64_t> shape = batch;
  shape.push_back(m);
  shape.push_back(n);
  Value y = Value::ints(shape, std::vector<int64_t>(static_cast<size_t>(checkedNumel(shape))),
                        ir::DType::kInt32);
  for (int64_t t = 0; t < count; ++t) {
    // Pointers, not references to elements: with k = 0 the operands hold none.
    const int64_t* pa = as.data() + t * m * k;
    const int64_t* pb = bs.data() + (b_batch.empty() ? 0 : t * k * n);
    int64_t* py = y.i.data() + t * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        for (int64_t j = 0; j < n; ++j) py[i * n + j] += pa[i * k + p] * pb[p * n + j];
  }
  return y;
}

// QLinear*: the int32 accumulator rescaled to the output's scale and zero point,
// saturate(round(acc · s_a·s_b[c] / s_y) + zp_y), c the index along `channel_axis` (b's
// per-channel scales: the output channel of a convolution, the column of a matrix product).
Value requantize(const Value& acc, const Value& a_scale, const Value& b_scale, const Value& y_scale,
                 const Value* y_zp, size_t channel_axis, const Value* real_bias = nullptr) {
  requireFloat(a_scale, "a scale");
  requireFloat(b_scale, "b scale");
  requireFloat(y_scale, "the output scale");
  if (a_scale.f.size() != 1 || y_scale.f.size() != 1)
    throw ExecError("the input and output scales must be scalars");
  if (b_scale.f.size() != 1 && (channel_axis >= acc.shape.size() ||
                                static_cast<int64_t>(b_scale.f.size()) != acc.shape[channel_axis]))
    throw ExecError("the weight has " + std::to_string(b_scale.f.size()) +
                    " scales, neither one nor one per output channel");
  if (y_zp && (y_zp->isFloat() || y_zp->isDouble() || y_zp->i.size() != 1))
    throw ExecError("the output zero point must be one integer");
  ir::DType dtype = y_zp ? y_zp->dtype : ir::DType::kUInt8;
  QuantRange range = rangeOf(dtype);
  int64_t zp = y_zp ? y_zp->i[0] : 0;
  std::vector<double> multipliers;  // s_a·s_b[c] / s_y, each finite
  for (float s : b_scale.f) {
    multipliers.push_back(static_cast<double>(a_scale.f[0]) * s / y_scale.f[0]);
    if (!std::isfinite(multipliers.back()))
      throw ExecError("the scales give no finite rescaling (a zero or infinite scale)");
  }
  if (real_bias &&
      (channel_axis >= acc.shape.size() || real_bias->numel() != acc.shape[channel_axis]))
    throw ExecError("the bias must have one value per output channel");
  Value y = Value::ints(acc.shape, std::vector<int64_t>(acc.i.size()), dtype);
  Slices channels(acc.shape, b_scale.f.size() == 1 ? -1 : static_cast<int64_t>(channel_axis));
  Slices biases(acc.shape, static_cast<int64_t>(channel_axis));
  for (size_t k = 0; k < acc.i.size(); ++k) {
    double real = static_cast<double>(acc.i[k]) * multipliers[channels.of(k)];
    if (real_bias) real += static_cast<double>(real_bias->f[biases.of(k)]) / y_scale.f[0];
    double q = std::nearbyint(real) + static_cast<double>(zp);
    y.i[k] = static_cast<int64_t>(
        std::clamp(q, static_cast<double>(range.min), static_cast<double>(range.max)));
  }
  return y;
}

// DynamicQuantizeLinear: uint8 quantization with parameters from the input's range, in
// float32 as ONNX's reference computes them:
//   lo = min(0, min x), hi = max(0, max x), scale = (hi − lo) / 255,
//   zero_point = saturate(round(0 − lo / scale)), y = saturate(round(x / scale) + zero_point).
std::vector<Value> dynamicQuantizeLinear(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  float lo = 0.0f, hi = 0.0f;
  for (float v : x.f) {
    if (std::isnan(v)) throw ExecError("unsupported: DynamicQuantizeLinear of NaN");
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  float scale = (hi - lo) / 255.0f;
  if (!(scale > 0) || std::isinf(scale))
    throw ExecError("unsupported: DynamicQuantizeLinear of an input whose range gives scale " +
                    std::to_string(scale));
  float zero_point = std::clamp(std::nearbyint(0.0f - lo / scale), 0.0f, 255.0f);
  QuantParams params{scale, static_cast<int64_t>(zero_point)};
  Value y = Value::ints(x.shape, std::vector<int64_t>(x.f.size()), ir::DType::kUInt8);
  for (size_t k = 0; k < x.f.size(); ++k) y.i[k] = quantizeValue(x.f[k], params, {0, 255});
  return outputs(std::move(y), Value::floats({}, {scale}),
                 Value::ints({}, {params.zero_point}, ir::DType::kUInt8));
}

// com.microsoft.QLinearAdd and QLinearMul (ONNX Runtime's contrib ops, what quant-lower makes of
// a quantized Add or Mul): Q(DQ(a) ∘ DQ(b)) with the QDQ ops' own float arithmetic, per tensor,
// numpy broadcasting.
template <bool kMul>
std::vector<Value> quantizedBinary(const KernelContext& c) {
  std::string name = kMul ? "QLinearMul" : "QLinearAdd";
  const Value &a = c.input(0), &b = c.input(3);
  if (a.isFloat() || b.isFloat()) throw ExecError(name + "'s operands must be integer");
  std::vector<int64_t> shape = broadcastShape(a.shape, b.shape);
  // One scale and zero point each, whatever the rank of the value or of the scale ([] or [1]).
  auto params = [&](size_t scale, size_t zero_point, const char* what) {
    const Value& s = requireFloat(c.input(scale), "the scale");
    const Value* z = c.optionalInput(zero_point);
    if (s.numel() != 1 || (z && z->numel() != 1))
      throw ExecError("unsupported: " + name + " with per-axis scales (" + what + ")");
    if (z && z->isFloat()) throw ExecError("the zero point must be integer");
    if (!(s.f[0] > 0)) throw ExecError("the scale must be positive");
    return QuantParams{s.f[0], z ? z->i[0] : 0};
  };
  QuantParams pa = params(1, 2, "A"), pb = params(4, 5, "B"), py = params(6, 7, "C");
  const Value* zy = c.optionalInput(7);
  ir::DType dtype = zy ? zy->dtype : a.dtype;  // C is of A's type
  QuantRange range = rangeOf(dtype);
  Value y =
      Value::ints(shape, std::vector<int64_t>(static_cast<size_t>(checkedNumel(shape))), dtype);
  forEachBroadcast(a, b, [&](int64_t o, int64_t i, int64_t j) {
    float u = dequantizeValue(a.i[static_cast<size_t>(i)], pa);
    float v = dequantizeValue(b.i[static_cast<size_t>(j)], pb);
    y.i[static_cast<size_t>(o)] = quantizeValue(kMul ? u * v : u + v, py, range);
  });
  return outputs(std::move(y));
}

// fxc.QLinearConvToFloat (quant-lower's form of a quantized convolution whose result stays
// float): act(conv(DQ(x), DQ(w)) + B [+ Z]) with the integer accumulator exact (int64) and the
// rescale in double: acc · s_x·s_w[c] + B[c], then the addend Z in float, then ReLU when the
// `activation` attribute says so. x per tensor; w's zero point 0, one scale or one per output
// channel (QLinearConv's contract).
// An exact integer accumulator back in real units, in double: acc · s_a·s_b[c] + bias[c], c the
// index along `axis` (the output channel of a convolution, the column of a matrix product);
// s_a one element, s_b and the bias one or one per c. `what` names c in the errors.
Value dequantizeAccumulator(const Value& acc, const Value& a_scale, const Value& b_scale,
                            const Value* bias, size_t axis, const char* what) {
  requireFloat(a_scale, "the input scale");
  requireFloat(b_scale, "the weight scale");
  int64_t count = acc.shape.at(axis);
  if (a_scale.numel() != 1) throw ExecError("the input scale must have one element");
  if (b_scale.numel() != 1 && b_scale.numel() != count)
    throw ExecError(std::string("the weight scale must have one element or one per ") + what);
  if (bias && (!bias->isFloat() || bias->numel() != count))
    throw ExecError(std::string("the bias must be float, one per ") + what);
  Value y = Value::floats(acc.shape, std::vector<float>(acc.i.size()));
  Slices slices(acc.shape, static_cast<int64_t>(axis));
  for (size_t k = 0; k < acc.i.size(); ++k) {
    size_t c = slices.of(k);
    double real =
        static_cast<double>(acc.i[k]) * a_scale.f[0] * b_scale.f[b_scale.numel() == 1 ? 0 : c] +
        (bias ? bias->f[c] : 0.0);
    y.f[k] = static_cast<float>(real);
  }
  return y;
}

std::vector<Value> quantizedConvolutionToFloat(const KernelContext& c) {
  Value acc = integerConvolution(c, c.input(0), c.optionalInput(2), c.input(3), c.optionalInput(5),
                                 nullptr);
  Value y =
      dequantizeAccumulator(acc, c.input(1), c.input(4), c.optionalInput(6), 1, "output channel");
  const Value* addend = c.optionalInput(7);
  if (addend && (!addend->isFloat() || addend->shape != y.shape))
    throw ExecError("the addend must be float of the output's shape " + shapeText(y.shape));
  std::string activation = c.stringAttribute("activation", "");
  if (!activation.empty() && activation != "Relu")
    throw ExecError("unsupported: QLinearConvToFloat with activation " + activation);
  for (size_t k = 0; k < y.f.size(); ++k) {
    float v = y.f[k];
    if (addend) v += addend->f[k];
    if (!activation.empty()) v = v > 0.0f ? v : (v == v ? 0.0f : v);  // ReLU; NaN passes
    y.f[k] = v;
  }
  return outputs(std::move(y));
}

// fxc.QLinearConvAct (quant-lower's Q([act](conv(DQ(x), DQ(w)) + B [+ DQ(Z)])) for an
// activation Hardswish, SiLU, ..., or a ReLU or clamp that saturation does not give): QLinearConv's
// inputs, then optionally an 8-bit addend Z with its scale and zero point; the exact accumulator
// in real units (in double) with B in it (int32 at s_x·s_w[c] as QLinearConv's, or a float bias in
// real units: the QDQ graph's own), plus DequantizeLinear(Z) in float (the QDQ graph's add),
// the activation's reference kernel (`activation`, its activation_* attributes; none without
// that attribute), then QuantizeLinear's arithmetic with the output's scale and zero point.
std::vector<Value> quantizedConvolutionActivation(const KernelContext& c) {
  const Value* bias = c.optionalInput(8);
  bool real_bias = bias && bias->isFloat();  // in real units, added to the accumulator's value
  Value acc = integerConvolution(c, c.input(0), c.optionalInput(2), c.input(3), c.optionalInput(5),
                                 real_bias ? nullptr : bias);
  Value real = dequantizeAccumulator(acc, c.input(1), c.input(4), real_bias ? bias : nullptr, 1,
                                     "output channel");
  if (const Value* z = c.optionalInput(9)) {
    const Value& z_scale = requireFloat(c.input(10), "the addend's scale");
    const Value* z_zp = c.optionalInput(11);
    if ((z->dtype != ir::DType::kInt8 && z->dtype != ir::DType::kUInt8) || z->shape != real.shape)
      throw ExecError("the addend must be int8 or uint8 of the output's shape " +
                      shapeText(real.shape));
    if (z_scale.numel() != 1 || (z_zp && (z_zp->numel() != 1 || z_zp->dtype != z->dtype)))
      throw ExecError("the addend's scale and zero point must be one number each, of its type");
    QuantParams params{z_scale.f[0], z_zp ? z_zp->i[0] : 0};
    for (size_t k = 0; k < real.f.size(); ++k) real.f[k] += dequantizeValue(z->i[k], params);
  }
  Value y = std::move(real);
  if (c.attribute("activation")) {
    ir::Kwargs attributes;
    const std::string& activation = fusedActivation(c, attributes);
    auto it = referenceKernels().find("module:" + activation);
    if (activation.empty() || it == referenceKernels().end())
      throw ExecError("unsupported: QLinearConvAct with activation '" + activation + "'");
    y = it->second(activationContext(c, {&y}, attributes)).at(0);
  }
  const Value& y_scale = requireFloat(c.input(6), "the output scale");
  const Value* y_zp = c.optionalInput(7);
  if (y_scale.numel() != 1 || (y_zp && (y_zp->numel() != 1 || y_zp->isFloat())))
    throw ExecError("the output's scale and zero point must be one number each");
  ir::DType dtype = y_zp ? y_zp->dtype : ir::DType::kUInt8;
  requireFloat(y, "the activation's result");
  QuantParams params{y_scale.f[0], y_zp ? y_zp->i[0] : 0};
  Value out = Value::ints(y.shape, std::vector<int64_t>(y.f.size()), dtype);
  for (size_t k = 0; k < y.f.size(); ++k) out.i[k] = quantizeValue(y.f[k], params, rangeOf(dtype));
  return outputs(std::move(out));
}

// com.microsoft.MatMulIntegerToFloat(A, B, a_scale, b_scale, [a_zero_point, b_zero_point,
// bias]): ONNX Runtime's integer matrix product with a float result (what quant-lower makes of a
// quantized Gemm or MatMul whose result stays float): (A − z_a)(B − z_b) exactly (int64), times
// a_scale·b_scale[n] in double, plus bias[n]. a_scale one element; b_scale one, or one per column.
std::vector<Value> matmulIntegerToFloat(const KernelContext& c) {
  Value acc = integerMatmul(c.input(0), c.optionalInput(4), c.input(1), c.optionalInput(5));
  return outputs(dequantizeAccumulator(acc, c.input(2), c.input(3), c.optionalInput(6),
                                       acc.shape.size() - 1, "column"));
}

// com.microsoft.QLinearGlobalAveragePool (ONNX Runtime's contrib op, what quant-lower makes of
// Q(GlobalAveragePool(DQ(x)))), NCHW: per (n, c) plane the exact integer sum of x − z_x, its mean
// in real units (meanOfQuantized), then QuantizeLinear's arithmetic with (s_y, z_y). The QDQ
// ops' float mean differs only by the rounding of each dequantized element: a result on a
// rounding tie may differ by one unit.
std::vector<Value> quantizedGlobalAveragePool(const KernelContext& c) {
  const Value& x = c.input(0);
  if (x.isFloat() || x.shape.size() < 3)
    throw ExecError("QLinearGlobalAveragePool takes an integer input of rank 3 or more");
  if (c.intAttribute("channels_last", 0) != 0)
    throw ExecError("unsupported: QLinearGlobalAveragePool with channels_last");
  Broadcast px(x, c.input(1), c.optionalInput(2), 1), py(x, c.input(3), c.optionalInput(4), 1);
  if (px.scales.size() != 1 || py.scales.size() != 1)
    throw ExecError("unsupported: QLinearGlobalAveragePool with per-axis scales");
  int64_t planes = x.shape[0] * x.shape[1], inner = 1;
  for (size_t d = 2; d < x.shape.size(); ++d) inner *= x.shape[d];
  if (inner == 0) throw ExecError("QLinearGlobalAveragePool of an empty plane");
  const Value* zy = c.optionalInput(4);
  ir::DType dtype = zy ? zy->dtype : ir::DType::kUInt8;
  std::vector<int64_t> shape = x.shape;
  for (size_t d = 2; d < shape.size(); ++d) shape[d] = 1;
  Value y = Value::ints(shape, std::vector<int64_t>(static_cast<size_t>(planes)), dtype);
  QuantParams in = px.at(0);
  for (int64_t p = 0; p < planes; ++p) {
    int64_t sum = 0;
    for (int64_t k = 0; k < inner; ++k) sum += x.i[static_cast<size_t>(p * inner + k)];
    float mean = meanOfQuantized(sum - inner * in.zero_point, inner, in.scale);
    y.i[static_cast<size_t>(p)] = quantizeValue(mean, py.at(0), rangeOf(dtype));
  }
  return outputs(std::move(y));
}

// fxc.QLinearLookup (quant-lower's form of Q(f(DQ(x))) for an elementwise f): a table of 256
// results per row, y = table[r·256 + x − min(x's type)], one row (r = 0) or one per index along
// `axis` of x (r that index). The table holds the output's type.
std::vector<Value> lookup(const KernelContext& c) {
  const Value &x = c.input(0), &table = c.input(1);
  auto eight_bit = [](ir::DType t) { return t == ir::DType::kInt8 || t == ir::DType::kUInt8; };
  if (!eight_bit(x.dtype)) throw ExecError("QLinearLookup's input must be int8 or uint8");
  if (!eight_bit(table.dtype) || table.shape.size() != 1 || table.numel() == 0 ||
      table.numel() % 256 != 0)
    throw ExecError("QLinearLookup's table must be 8-bit, of rows of 256 elements");
  int64_t rows = table.numel() / 256, inner = 1;
  if (rows > 1) {
    size_t axis = normalizeAxis(c.intAttribute("axis", 1), x.shape.size());
    if (x.shape[axis] != rows)
      throw ExecError("QLinearLookup's table has " + std::to_string(rows) + " rows for " +
                      std::to_string(x.shape[axis]) + " indices along its axis");
    for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  }
  int64_t offset = x.dtype == ir::DType::kInt8 ? 128 : 0;
  Value y = Value::ints(x.shape, std::vector<int64_t>(x.i.size()), table.dtype);
  for (size_t k = 0; k < x.i.size(); ++k) {
    int64_t row = rows > 1 ? (static_cast<int64_t>(k) / inner) % rows : 0;
    y.i[k] = table.i[static_cast<size_t>(row * 256 + x.i[k] + offset)];
  }
  return outputs(std::move(y));
}

}  // namespace

void addQuantizationKernels(KernelTable& t) {
  add(t, {"fxc.QLinearLookup"}, lookup);
  add(t, {"com.microsoft.QLinearGlobalAveragePool"}, quantizedGlobalAveragePool);
  add(t, {"com.microsoft.QLinearAdd"}, quantizedBinary<false>);
  add(t, {"com.microsoft.QLinearMul"}, quantizedBinary<true>);
  add(t, {"onnx.DynamicQuantizeLinear"}, dynamicQuantizeLinear);
  add(t, {"onnx.ConvInteger"}, [](const KernelContext& c) {
    return outputs(integerConvolution(c, c.input(0), c.optionalInput(2), c.input(1),
                                      c.optionalInput(3), nullptr));
  });
  // QLinearConv, and fxc.QLinearConvTranspose: its inputs and arithmetic for a transposed
  // convolution (quant-lower's Q(conv_transpose(DQ(x), DQ(w)) + B)).
  for (bool transposed : {false, true}) {
    add(t, {transposed ? "fxc.QLinearConvTranspose" : "onnx.QLinearConv"},
        [transposed](const KernelContext& c) {
          // fxc.QLinearConvTranspose's bias may be float, in real units (quant-lower keeps a QDQ
          // graph's float bias); QLinearConv's is int32.
          const Value* bias = c.optionalInput(8);
          const Value* real_bias = transposed && bias && bias->isFloat() ? bias : nullptr;
          Value acc =
              integerConvolution(c, c.input(0), c.optionalInput(2), c.input(3), c.optionalInput(5),
                                 real_bias ? nullptr : bias, transposed);
          return outputs(requantize(acc, c.input(1), c.input(4), c.input(6), c.optionalInput(7), 1,
                                    real_bias));
        });
  }
  add(t, {"fxc.QLinearConvToFloat"}, quantizedConvolutionToFloat);
  add(t, {"fxc.QLinearConvAct"}, quantizedConvolutionActivation);
  add(t, {"com.microsoft.MatMulIntegerToFloat"}, matmulIntegerToFloat);
  add(t, {"onnx.MatMulInteger"}, [](const KernelContext& c) {
    return outputs(integerMatmul(c.input(0), c.optionalInput(2), c.input(1), c.optionalInput(3)));
  });
  add(t, {"onnx.QLinearMatMul"}, [](const KernelContext& c) {
    Value acc = integerMatmul(c.input(0), c.optionalInput(2), c.input(3), c.optionalInput(5));
    return outputs(requantize(acc, c.input(1), c.input(4), c.input(6), c.optionalInput(7),
                              acc.shape.size() - 1));
  });
  add(t, {"onnx.QuantizeLinear"}, quantizeLinear);
  add(t, {"onnx.DequantizeLinear"}, dequantizeLinear);
  add(t, {"torch.fake_quantize_per_tensor_affine", "torch.fake_quantize_per_channel_affine"},
      fakeQuantize);
  add(t, {"module:MinMaxObserver", "module:HistogramObserver"},
      [](const KernelContext& c) { return outputs(c.input(0)); });
}

}  // namespace fxc::exec
