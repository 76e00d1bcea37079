// Neural-network kernels: convolution, batch normalization, Gemm/Linear, MatMul, pooling,
// softmax. Plain reference loops (float accumulation); the fast paths are a later issue.
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <optional>

#include "exec/kernels_internal.h"

namespace fxc::exec {

Window windowOf(const KernelContext& c, std::vector<int64_t> kernel,
                const std::vector<int64_t>& input, bool transposed) {
  size_t spatial = input.size();
  std::string auto_pad = c.stringAttribute("auto_pad", "NOTSET");
  bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && !same)
    throw ExecError("unknown auto_pad " + auto_pad);
  if (same && transposed)
    throw ExecError("unsupported: auto_pad " + auto_pad + " on ConvTranspose");
  Window w;
  w.kernel = std::move(kernel);
  w.strides = c.intsAttribute("strides", std::vector<int64_t>(spatial, 1));
  w.pads = auto_pad == "NOTSET" ? c.intsAttribute("pads", std::vector<int64_t>(2 * spatial, 0))
                                : std::vector<int64_t>(2 * spatial, 0);
  w.dilations = c.intsAttribute("dilations", std::vector<int64_t>(spatial, 1));
  if (w.kernel.size() != spatial || w.strides.size() != spatial || w.pads.size() != 2 * spatial ||
      w.dilations.size() != spatial)
    throw ExecError("window attributes do not match the input rank");
  for (size_t d = 0; d < spatial; ++d) {
    if (w.kernel[d] <= 0 || w.strides[d] <= 0 || w.dilations[d] <= 0 || w.pads[d] < 0 ||
        w.pads[d + spatial] < 0)
      throw ExecError("kernel, strides and dilations must be positive, pads not negative");
    // Bounded so that the window arithmetic below (dilation · kernel, pads + input) stays in
    // int64: no model has windows, strides or pads of four billion.
    constexpr int64_t kLimit = int64_t{1} << 32;
    if (w.kernel[d] > kLimit || w.strides[d] > kLimit || w.dilations[d] > kLimit ||
        w.pads[d] > kLimit || w.pads[d + spatial] > kLimit)
      throw ExecError("kernel, strides, dilations or pads past 2^32");
    if (same) {
      // Output ceil(in / stride); the padding that needs, the odd one at the end (UPPER) or
      // the beginning (LOWER).
      int64_t out = (input[d] + w.strides[d] - 1) / w.strides[d];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * w.strides[d] + (w.kernel[d] - 1) * w.dilations[d] + 1 - input[d]);
      int64_t small = total / 2;
      w.pads[d] = auto_pad == "SAME_UPPER" ? small : total - small;
      w.pads[d + spatial] = total - w.pads[d];
    }
  }
  return w;
}

int64_t outputSize(int64_t in, int64_t k, int64_t stride, int64_t pad_begin, int64_t pad_end,
                   int64_t dilation, bool ceil_mode) {
  double span = static_cast<double>(in + pad_begin + pad_end - dilation * (k - 1) - 1);
  int64_t out =
      static_cast<int64_t>(ceil_mode ? std::ceil(span / stride) : std::floor(span / stride)) + 1;
  // With ceil_mode the last window must start inside the input or its begin padding.
  if (ceil_mode && (out - 1) * stride >= in + pad_begin) --out;
  return out;
}

ConvGeometry convGeometry(const KernelContext& c, const Value& x, const Value& w) {
  if (x.shape.size() != 4 || w.shape.size() != 4)
    throw ExecError("unsupported: convolution that is not 2-D");
  ConvGeometry g;
  g.groups = c.intAttribute("group", 1);
  g.n = x.shape[0], g.cin = x.shape[1], g.h = x.shape[2], g.w = x.shape[3];
  g.cout = w.shape[0], g.cin_g = w.shape[1], g.kh = w.shape[2], g.kw = w.shape[3];
  if (g.groups <= 0 || g.cin != g.cin_g * g.groups || g.cout % g.groups != 0)
    throw ExecError("channels do not match the weight and groups");
  g.win = windowOf(c, c.intsAttribute("kernel_shape", {g.kh, g.kw}), {g.h, g.w});
  if (g.win.kernel[0] != g.kh || g.win.kernel[1] != g.kw)
    throw ExecError("kernel_shape does not match the weight");
  const Window& win = g.win;
  g.oh = outputSize(g.h, g.kh, win.strides[0], win.pads[0], win.pads[2], win.dilations[0], false);
  g.ow = outputSize(g.w, g.kw, win.strides[1], win.pads[1], win.pads[3], win.dilations[1], false);
  if (g.oh <= 0 || g.ow <= 0) throw ExecError("the kernel is larger than the padded input");
  checkedNumel({g.n, g.cout, g.oh, g.ow});
  return g;
}

PoolGeometry poolGeometry(const KernelContext& c, const Value& x) {
  if (x.shape.size() != 4) throw ExecError("unsupported: pooling that is not 2-D");
  std::vector<int64_t> kernel = c.intsAttribute("kernel_shape", {});
  if (kernel.size() != 2) throw ExecError("unsupported: pooling without a 2-D kernel_shape");
  PoolGeometry g;
  g.win = windowOf(c, kernel, {x.shape[2], x.shape[3]});
  g.ceil_mode = c.intAttribute("ceil_mode", 0) != 0;
  g.include_pad = c.intAttribute("count_include_pad", 0) != 0;
  g.n = x.shape[0], g.ch = x.shape[1], g.h = x.shape[2], g.w = x.shape[3];
  const Window& win = g.win;
  g.oh = outputSize(g.h, kernel[0], win.strides[0], win.pads[0], win.pads[2], win.dilations[0],
                    g.ceil_mode);
  g.ow = outputSize(g.w, kernel[1], win.strides[1], win.pads[1], win.pads[3], win.dilations[1],
                    g.ceil_mode);
  if (g.oh <= 0 || g.ow <= 0) throw ExecError("the window is larger than the padded input");
  // Huge pads or strides give sizes whose product wraps: the loops would write past the output.
  checkedNumel({g.n, g.ch, g.oh, g.ow});
  return g;
}

template <typename T>
void convolve(const ConvGeometry& g, const T* x, const T* w, const T* bias, T* y) {
  const Window& win = g.win;
  int64_t cout_g = g.cout / g.groups;
  for (int64_t in = 0; in < g.n; ++in) {
    for (int64_t oc = 0; oc < g.cout; ++oc) {
      int64_t group = oc / cout_g;
      for (int64_t oy = 0; oy < g.oh; ++oy) {
        for (int64_t ox = 0; ox < g.ow; ++ox) {
          T sum = bias ? bias[oc] : T(0);
          for (int64_t ic = 0; ic < g.cin_g; ++ic) {
            const T* xin = x + ((in * g.cin) + group * g.cin_g + ic) * g.h * g.w;
            const T* wk = w + (oc * g.cin_g + ic) * g.kh * g.kw;
            for (int64_t ky = 0; ky < g.kh; ++ky) {
              int64_t iy = oy * win.strides[0] - win.pads[0] + ky * win.dilations[0];
              if (iy < 0 || iy >= g.h) continue;
              for (int64_t kx = 0; kx < g.kw; ++kx) {
                int64_t ix = ox * win.strides[1] - win.pads[1] + kx * win.dilations[1];
                if (ix < 0 || ix >= g.w) continue;
                sum += xin[iy * g.w + ix] * wk[ky * g.kw + kx];
              }
            }
          }
          y[((in * g.cout + oc) * g.oh + oy) * g.ow + ox] = sum;
        }
      }
    }
  }
}
template void convolve<float>(const ConvGeometry&, const float*, const float*, const float*,
                              float*);
template void convolve<int64_t>(const ConvGeometry&, const int64_t*, const int64_t*, const int64_t*,
                                int64_t*);

std::optional<ConvGeometry> transposedGeometry(const KernelContext& c,
                                               const std::vector<int64_t>& x,
                                               const std::vector<int64_t>& w) {
  std::string auto_pad = c.stringAttribute("auto_pad", "NOTSET");
  if (x.size() != 4 || w.size() != 4 || c.attribute("output_shape") || auto_pad == "SAME_UPPER" ||
      auto_pad == "SAME_LOWER")
    return std::nullopt;
  // The checks transposedConvolutionNd makes: the loops trust these shapes.
  ConvGeometry g;
  g.groups = c.intAttribute("group", 1);
  g.n = x[0], g.cin = x[1], g.h = x[2], g.w = x[3];
  int64_t cout_g = w[1];
  g.kh = w[2], g.kw = w[3];
  g.cout = 0;  // with no input channels any group count divides them: cout may overflow
  if (g.groups <= 0 || w[0] != g.cin || g.cin % g.groups != 0 ||
      __builtin_mul_overflow(cout_g, g.groups, &g.cout))
    throw ExecError("channels do not match the weight and groups");
  g.cin_g = g.cin / g.groups;
  g.win = windowOf(c, c.intsAttribute("kernel_shape", {g.kh, g.kw}), {g.h, g.w}, true);
  if (g.win.kernel[0] != g.kh || g.win.kernel[1] != g.kw)
    throw ExecError("kernel_shape does not match the weight");
  std::vector<int64_t> extra = c.intsAttribute("output_padding", {0, 0});
  if (extra.size() != 2) throw ExecError("window attributes do not match the input rank");
  const Window& win = g.win;
  // stride·(in − 1) + output_padding + (kernel − 1)·dilation + 1 − pads, refused where a step
  // overflows (absurd strides or dilations) rather than wrapped.
  auto outputExtent = [&](size_t d, int64_t in, int64_t kernel) {
    int64_t spread, reach, out;
    if (__builtin_mul_overflow(win.strides[d], in - 1, &spread) ||
        __builtin_mul_overflow(kernel - 1, win.dilations[d], &reach) ||
        __builtin_add_overflow(spread, reach, &out) ||
        __builtin_add_overflow(out, extra[d], &out) || __builtin_add_overflow(out, 1, &out) ||
        __builtin_sub_overflow(out, win.pads[d], &out) ||
        __builtin_sub_overflow(out, win.pads[d + 2], &out))
      throw ExecError("the output's size overflows 64 bits");
    return out;
  };
  g.oh = outputExtent(0, g.h, g.kh), g.ow = outputExtent(1, g.w, g.kw);
  if (g.oh <= 0 || g.ow <= 0) throw ExecError("the output would be empty");
  checkedNumel({g.n, g.cout, g.oh, g.ow});
  return g;
}

template <typename T>
void transposedConvolve(const ConvGeometry& g, const T* x, const T* w, const T* b, T* y) {
  const Window& win = g.win;
  int64_t cout_g = g.cout / g.groups, h = g.h, wd = g.w, oh = g.oh, ow = g.ow;
  for (int64_t in = 0; in < g.n; ++in) {
    for (int64_t oc = 0; oc < g.cout; ++oc) {
      T bias = b ? b[oc] : T{0};
      T* plane = y + (in * g.cout + oc) * oh * ow;
      for (int64_t k = 0; k < oh * ow; ++k) plane[k] = bias;
    }
    for (int64_t ic = 0; ic < g.cin; ++ic) {
      int64_t group = ic / g.cin_g;
      const T* xin = x + (in * g.cin + ic) * h * wd;
      for (int64_t j = 0; j < cout_g; ++j) {
        int64_t oc = group * cout_g + j;
        const T* wk = w + (ic * cout_g + j) * g.kh * g.kw;
        T* out = y + (in * g.cout + oc) * oh * ow;
        for (int64_t iy = 0; iy < h; ++iy) {
          for (int64_t ix = 0; ix < wd; ++ix) {
            T v = xin[iy * wd + ix];
            for (int64_t ky = 0; ky < g.kh; ++ky) {
              int64_t oy = iy * win.strides[0] - win.pads[0] + ky * win.dilations[0];
              if (oy < 0 || oy >= oh) continue;
              for (int64_t kx = 0; kx < g.kw; ++kx) {
                int64_t ox = ix * win.strides[1] - win.pads[1] + kx * win.dilations[1];
                if (ox < 0 || ox >= ow) continue;
                out[oy * ow + ox] += v * wk[ky * g.kw + kx];
              }
            }
          }
        }
      }
    }
  }
}
template void transposedConvolve<float>(const ConvGeometry&, const float*, const float*,
                                        const float*, float*);
template void transposedConvolve<int64_t>(const ConvGeometry&, const int64_t*, const int64_t*,
                                          const int64_t*, int64_t*);

void referenceProduct(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a,
                      const float* b, float* y) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += (trans_a ? a[p * m + i] : a[i * k + p]) * (trans_b ? b[j * k + p] : b[p * n + j]);
      y[i * n + j] = sum;
    }
  }
}

namespace {

std::vector<Value> conv2d(const KernelContext& c) {
  if (c.input(0).shape.size() != 4) return convolutionNd(c);
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* w = parameter(c, "weight", 1);
  const Value* b = parameter(c, "bias", 2);
  if (!w) throw ExecError("no weight");
  ConvGeometry g = convGeometry(c, x, requireFloat(*w, "the weight"));
  // convolve reads one bias element per output channel.
  if (b && requireFloat(*b, "the bias").numel() != g.cout)
    throw ExecError("the bias needs one element per output channel");
  Value y = Value::floats({g.n, g.cout, g.oh, g.ow},
                          std::vector<float>(static_cast<size_t>(g.n * g.cout * g.oh * g.ow)));
  convolve<float>(g, x.f.data(), w->f.data(), b ? b->f.data() : nullptr, y.f.data());
  return outputs(std::move(y));
}

// ConvReLU2d: relu(conv(x)); ConvAddReLU2d: relu(conv(x) + residual), the residual of the
// output's shape (what the conv-relu and conv-add-relu passes fuse).
std::vector<Value> convRelu(const KernelContext& c) {
  std::vector<Value> y = conv2d(c.withInputs({&c.input(0)}));
  if (c.inputCount() == 2) {
    const Value& residual = requireFloat(c.input(1), "the residual");
    if (residual.shape != y[0].shape)
      throw ExecError("the residual " + shapeText(residual.shape) +
                      " is not of the output's shape " + shapeText(y[0].shape));
    for (size_t k = 0; k < y[0].f.size(); ++k) y[0].f[k] += residual.f[k];
  }
  for (float& v : y[0].f) v = v > 0 ? v : 0.0f;
  return y;
}

// ConvAct2d and LinearAct: act(base(x)), the activation's reference kernel run on the
// convolution's or the Linear's output with its parameters (the module's activation_*
// attributes and tensors).
Kernel thenActivation(Kernel base) {
  return [base](const KernelContext& c) {
    if (c.inputCount() != 1) throw ExecError("takes 1 input");
    std::vector<Value> y = base(c.withInputs({&c.input(0)}));
    ir::Kwargs attributes;
    const std::string& activation = fusedActivation(c, attributes);
    auto it = referenceKernels().find("module:" + activation);
    if (it == referenceKernels().end()) throw ExecError("unsupported: activation " + activation);
    return it->second(activationContext(c, {&y[0]}, attributes));
  };
}

std::vector<Value> convTranspose2d(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* w = parameter(c, "weight", 1);
  const Value* b = parameter(c, "bias", 2);
  if (!w) throw ExecError("no weight");
  std::optional<ConvGeometry> g = transposedGeometry(c, x.shape, w->shape);
  if (!g) return transposedConvolutionNd(c);
  requireFloat(*w, "the weight");
  if (b && requireFloat(*b, "the bias").numel() != g->cout)
    throw ExecError("the bias needs one element per output channel");
  Value y = Value::floats({g->n, g->cout, g->oh, g->ow},
                          std::vector<float>(static_cast<size_t>(g->n * g->cout * g->oh * g->ow)));
  // Pointers from data(): a vector may be empty (no &v[k]).
  transposedConvolve<float>(*g, x.f.data(), w->f.data(), b ? b->f.data() : nullptr, y.f.data());
  return outputs(std::move(y));
}

// BatchNormalization in training mode (opset 14+): normalized by the batch's own mean and
// (population) variance per channel; the running statistics come out updated,
// running·momentum + batch·(1 − momentum), as ONNX's reference computes them.
std::vector<Value> batchNormTraining(const KernelContext& c, const Value& x, const Value& scale,
                                     const Value& bias, const Value& mean, const Value& var) {
  double eps = c.floatAttribute("epsilon", 1e-5f), momentum = c.floatAttribute("momentum", 0.9f);
  int64_t channels = x.shape[1], inner = 1;
  for (size_t k = 2; k < x.shape.size(); ++k) inner *= x.shape[k];
  std::vector<double> sum(static_cast<size_t>(channels)), squares(sum.size());
  for (size_t k = 0; k < x.f.size(); ++k)
    sum[static_cast<size_t>(static_cast<int64_t>(k) / inner % channels)] += x.f[k];
  int64_t count = static_cast<int64_t>(x.f.size()) / std::max<int64_t>(channels, 1);
  if (count == 0) throw ExecError("BatchNorm in training mode over an empty batch");
  for (double& s : sum) s /= static_cast<double>(count);  // the batch means
  for (size_t k = 0; k < x.f.size(); ++k) {
    size_t ch = static_cast<size_t>(static_cast<int64_t>(k) / inner % channels);
    squares[ch] += (x.f[k] - sum[ch]) * (x.f[k] - sum[ch]);
  }
  for (double& s : squares) s /= static_cast<double>(count);  // the batch variances
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (size_t k = 0; k < x.f.size(); ++k) {
    size_t ch = static_cast<size_t>(static_cast<int64_t>(k) / inner % channels);
    y.f[k] = static_cast<float>((x.f[k] - sum[ch]) / std::sqrt(squares[ch] + eps) * scale.f[ch] +
                                bias.f[ch]);
  }
  Value running_mean = Value::floats({channels}, std::vector<float>(sum.size()));
  Value running_var = Value::floats({channels}, std::vector<float>(sum.size()));
  for (size_t ch = 0; ch < sum.size(); ++ch) {
    running_mean.f[ch] = static_cast<float>(mean.f[ch] * momentum + sum[ch] * (1 - momentum));
    running_var.f[ch] = static_cast<float>(var.f[ch] * momentum + squares[ch] * (1 - momentum));
  }
  return outputs(std::move(y), std::move(running_mean), std::move(running_var));
}

std::vector<Value> batchNorm(const KernelContext& c) {
  bool training = c.intAttribute("training_mode", 0) != 0;
  if (c.intAttribute("is_test", 1) == 0 || (training && c.opset() < 14))
    throw ExecError("unsupported: BatchNorm in training mode before opset 14");
  if (c.intAttribute("spatial", 1) == 0) throw ExecError("unsupported: BatchNorm with spatial=0");
  const Value& x = requireFloat(c.input(0), "the input");
  const Value* scale = parameter(c, "weight", 1);
  const Value* bias = parameter(c, "bias", 2);
  const Value* mean = parameter(c, "running_mean", 3);
  const Value* var = parameter(c, "running_var", 4);
  if (!scale || !bias || !mean || !var) throw ExecError("BatchNorm lacks a parameter");
  if (x.shape.size() < 2) throw ExecError("BatchNorm input has rank < 2");
  float eps = c.floatAttribute("epsilon", 1e-5f);
  int64_t channels = x.shape[1], inner = 1;
  for (size_t k = 2; k < x.shape.size(); ++k) inner *= x.shape[k];
  for (const Value* p : {scale, bias, mean, var}) {
    if (requireFloat(*p, "a BatchNorm parameter").numel() != channels)
      throw ExecError("BatchNorm parameters must have one element per channel");
  }
  if (training) return batchNormTraining(c, x, *scale, *bias, *mean, *var);
  // y = (x - mean) / sqrt(var + eps) * scale + bias in double, x - mean first and rounded to
  // float once: folded into x·a + (bias - mean·a) in float, an x near a large mean lost several
  // output steps to cancellation, and an infinite scale made every element NaN (0·inf), where the
  // formula gives ±inf but at x = mean (quant-lower tabulates its lookups on this kernel).
  std::vector<double> a(static_cast<size_t>(channels));
  for (size_t ch = 0; ch < a.size(); ++ch)
    a[ch] = static_cast<double>(scale->f[ch]) /
            std::sqrt(static_cast<double>(var->f[ch]) + static_cast<double>(eps));
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (size_t k = 0; k < x.f.size(); ++k) {
    size_t ch = static_cast<size_t>((static_cast<int64_t>(k) / inner) % channels);
    y.f[k] = static_cast<float>((static_cast<double>(x.f[k]) - mean->f[ch]) * a[ch] + bias->f[ch]);
  }
  return outputs(std::move(y));
}

// BNReLU2d: relu(batch_norm(x)), the BatchNorm in inference mode (what bn-relu fuses).
std::vector<Value> batchNormRelu(const KernelContext& c) {
  if (c.inputCount() != 1) throw ExecError("takes 1 input");
  if (c.intAttribute("training_mode", 0) != 0)
    throw ExecError("unsupported: BNReLU2d in training mode");
  std::vector<Value> y = batchNorm(c);
  for (float& v : y[0].f) v = v > 0 ? v : 0.0f;
  return y;
}

// Gemm (and Linear modules): Y = alpha·A'·B' + beta·C. On input of rank > 2 (a Linear from
// MatMul) the last axis is contracted.
}  // namespace

Kernel gemmKernel(Product product) {
  return [product](const KernelContext& c) -> std::vector<Value> {
    const Value& a = requireFloat(c.input(0), "A");
    const Value* b = parameter(c, "weight", 1);
    const Value* bias = parameter(c, "bias", 2);
    if (!b || b->shape.size() != 2) throw ExecError("the weight must be 2-D");
    requireFloat(*b, "B");
    bool trans_a = c.intAttribute("transA", 0) != 0, trans_b = c.intAttribute("transB", 0) != 0;
    float alpha = c.floatAttribute("alpha", 1.0f), beta = c.floatAttribute("beta", 1.0f);
    if (a.shape.empty()) throw ExecError("A is a scalar");
    if (trans_a && a.shape.size() != 2) throw ExecError("transA needs a 2-D A");
    int64_t k = trans_a ? a.shape[0] : a.shape.back();
    // M from A's shape: numel / K would make it 0 when K is 0, and C would never be added.
    int64_t m = trans_a ? a.shape[1] : 1;
    for (size_t d = 0; !trans_a && d + 1 < a.shape.size(); ++d) {
      if (__builtin_mul_overflow(m, a.shape[d], &m))
        throw ExecError("A " + shapeText(a.shape) + " has more rows than 64 bits can count");
    }
    int64_t kb = trans_b ? b->shape[1] : b->shape[0], nn = trans_b ? b->shape[0] : b->shape[1];
    if (kb != k)
      throw ExecError("A " + shapeText(a.shape) + " and B " + shapeText(b->shape) +
                      " do not multiply");
    std::vector<int64_t> shape = a.shape;
    if (trans_a) shape = {a.shape[1], a.shape[0]};
    shape.back() = nn;
    // C broadcasts unidirectionally to [M, N]: its row and column strides (0 along a broadcast).
    int64_t row_stride = 0, col_stride = 0;
    if (bias) {
      requireFloat(*bias, "C");
      std::vector<int64_t> cs = bias->shape;
      if (cs.size() > 2) throw ExecError("C " + shapeText(cs) + " does not broadcast");
      cs.insert(cs.begin(), 2 - cs.size(), 1);
      if ((cs[0] != 1 && cs[0] != m) || (cs[1] != 1 && cs[1] != nn))
        throw ExecError("C " + shapeText(bias->shape) + " does not broadcast to [" +
                        std::to_string(m) + ", " + std::to_string(nn) + "]");
      row_stride = cs[0] == 1 ? 0 : cs[1];
      col_stride = cs[1] == 1 ? 0 : 1;
    }
    Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
    if (k > 0) product(trans_a, trans_b, m, nn, k, a.f.data(), b->f.data(), y.f.data());
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < nn; ++j) {
        float& out = y.f[static_cast<size_t>(i * nn + j)];
        float cv = bias ? bias->f[static_cast<size_t>(i * row_stride + j * col_stride)] : 0.0f;
        out = alpha * out + beta * cv;
      }
    }
    return outputs(std::move(y));
  };
}

Kernel matmulKernel(Product product, bool parallel_batches) {
  return [product, parallel_batches](const KernelContext& c) -> std::vector<Value> {
    const Value& a = requireFloat(c.input(0), "A");
    const Value& b = requireFloat(c.input(1), "B");
    if (a.shape.empty() || b.shape.empty()) throw ExecError("MatMul of a scalar");
    // numpy.matmul's 1-D operands: A [K] as [1, K], B [K] as [K, 1], the added axis dropped from
    // the result.
    std::vector<int64_t> as = a.shape, bs = b.shape;
    if (as.size() == 1) as.insert(as.begin(), 1);
    if (bs.size() == 1) bs.push_back(1);
    int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
    if (bs[bs.size() - 2] != k)
      throw ExecError("shapes " + shapeText(a.shape) + " and " + shapeText(b.shape) +
                      " do not multiply");
    std::vector<int64_t> ba(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
    size_t rank = std::max(ba.size(), bb.size());
    ba.insert(ba.begin(), rank - ba.size(), 1);
    bb.insert(bb.begin(), rank - bb.size(), 1);
    std::vector<int64_t> batch(rank);
    for (size_t d = 0; d < rank; ++d) {
      if (ba[d] != bb[d] && ba[d] != 1 && bb[d] != 1)
        throw ExecError("batch dimensions do not broadcast");
      batch[d] = std::max(ba[d], bb[d]);
    }
    int64_t count = 1;
    for (int64_t d : batch) count *= d;
    std::vector<int64_t> shape = batch;
    if (a.shape.size() > 1) shape.push_back(m);
    if (b.shape.size() > 1) shape.push_back(n);
    Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
    std::vector<int64_t> sa = stridesOf(ba), sb = stridesOf(bb), so = stridesOf(batch);
    auto one = [&](int64_t t) {
      int64_t ia = 0, ib = 0;
      for (size_t d = 0; d < rank; ++d) {
        int64_t index = (t / so[d]) % batch[d];
        ia += (ba[d] == 1 ? 0 : index) * sa[d];
        ib += (bb[d] == 1 ? 0 : index) * sb[d];
      }
      product(false, false, m, n, k, a.f.data() + (ia * m * k), b.f.data() + (ib * k * n),
              y.f.data() + (t * m * n));
    };
    // Many products (attention's heads × batch): one product per thread at a time, each on one
    // thread (a product inside the region runs on its caller's thread), instead of every thread on
    // each small product in turn; all on the calling thread when they are little work in all.
    double flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) *
                   static_cast<double>(count);
    if (parallel_batches && count >= 2 * maxThreads() && maxThreads() > 1 &&
        flops >= kSerialFlops) {
      std::exception_ptr error;  // an exception cannot leave the region: the first, rethrown
#pragma omp parallel for schedule(static)
      for (int64_t t = 0; t < count; ++t) {
        try {
          one(t);
        } catch (...) {
#pragma omp critical(fxc_matmul_error)
          if (!error) error = std::current_exception();
        }
      }
      if (error) std::rethrow_exception(error);
    } else {
      for (int64_t t = 0; t < count; ++t) one(t);
    }
    return outputs(std::move(y));
  };
}

// The reference softmax's arithmetic (normalizeAlong below) on contiguous rows: the peak, then
// Σ exp(x − peak) in double, each element exp(x − peak) / Σ rounded once.
bool softmaxRows(float* x, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r, x += n) {
    float peak = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < n; ++j) peak = x[j] > peak ? x[j] : peak;
    double sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += std::exp(static_cast<double>(x[j]) - peak);
    for (int64_t j = 0; j < n; ++j)
      x[j] = static_cast<float>(std::exp(static_cast<double>(x[j]) - peak) / sum);
  }
  return true;
}

// fxc.Attention(a, b, v, mask, scale; divide) = matmul(softmax(matmul(a, b) ·/ scale + mask,
// axis = -1), v), mask and scale optional (None), scale one element, multiplying the scores or
// dividing them (`divide`), for a [..., Lq, d], b [..., d, Lk], v [..., Lk, dv] of one rank with
// the same leading dimensions, and a mask that broadcasts to the scores [..., Lq, Lk] without
// enlarging them (the attention pass proves all of it from the shapes; a run on other shapes is
// refused here). Each head's scores are made a block of rows at a time, at most kScoreBlock
// floats, and used while they are in cache: the same products, scaling, sum and softmax per
// element as the ops written out, never the whole [Lq, Lk] matrix of every head in memory.
Kernel attentionKernel(Product product, RowSoftmax softmax, bool parallel) {
  return [product, softmax, parallel](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() < 3 || c.inputCount() > 5)
      throw ExecError("Attention takes a, b, v, mask, scale");
    const Value& a = requireFloat(c.input(0), "a");
    const Value& b = requireFloat(c.input(1), "b");
    const Value& v = requireFloat(c.input(2), "v");
    const Value* mask = c.optionalInput(3);
    const Value* scale = c.optionalInput(4);
    if (mask) requireFloat(*mask, "the mask");
    if (scale && requireFloat(*scale, "the scale").numel() != 1)
      throw ExecError("the scale " + shapeText(scale->shape) + " is not one element");
    const bool divide = c.intAttribute("divide", 0) != 0;
    size_t rank = a.shape.size();
    auto sameLead = [&](const Value& x) {
      return x.shape.size() == rank &&
             std::equal(a.shape.begin(), a.shape.end() - 2, x.shape.begin());
    };
    if (rank < 2 || !sameLead(b) || !sameLead(v) || a.shape[rank - 1] != b.shape[rank - 2] ||
        b.shape[rank - 1] != v.shape[rank - 2] || (scale && scale->shape.size() > rank))
      throw ExecError("Attention of a " + shapeText(a.shape) + ", b " + shapeText(b.shape) +
                      " and v " + shapeText(v.shape) +
                      ": not one rank with the same leading dimensions and matching products");
    // The softmax runs along the scores' last axis: the pass proved the model's axis that one
    // from the declared shapes, which a model can declare wrongly (its rank at run time another).
    int64_t axis = c.intAttribute("axis", -1);
    if (axis != -1 && axis != static_cast<int64_t>(rank) - 1)
      throw ExecError("the softmax's axis " + std::to_string(axis) + " is not the last of scores " +
                      "of rank " + std::to_string(rank) +
                      ": the model declares other shapes than it computes (run it with -O0)");
    const int64_t lq = a.shape[rank - 2], d = a.shape[rank - 1], lk = b.shape[rank - 1],
                  dv = v.shape[rank - 1];
    std::vector<int64_t> scores = a.shape;
    scores.back() = lk;
    // The mask's strides over the scores' dimensions (0 where it broadcasts).
    std::vector<int64_t> mask_strides(rank, 0);
    if (mask) {
      const std::vector<int64_t>& ms = mask->shape;
      if (ms.size() > rank)
        throw ExecError("the mask " + shapeText(ms) + " does not broadcast to the scores " +
                        shapeText(scores));
      int64_t step = 1;
      for (size_t k = 0; k < ms.size(); ++k) {
        size_t d_mask = ms.size() - 1 - k, d_scores = rank - 1 - k;
        if (ms[d_mask] != 1 && ms[d_mask] != scores[d_scores])
          throw ExecError("the mask " + shapeText(ms) + " does not broadcast to the scores " +
                          shapeText(scores));
        mask_strides[d_scores] = ms[d_mask] == 1 ? 0 : step;
        step *= ms[d_mask];
      }
    }
    std::vector<int64_t> shape = a.shape;
    shape.back() = dv;
    Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
    int64_t heads = 1;
    for (size_t k = 0; k + 2 < rank; ++k) heads *= a.shape[k];
    if (y.f.empty()) return outputs(std::move(y));
    constexpr int64_t kScoreBlock = 1 << 16;  // 256 KB of scores: within a core's L2
    const int64_t block = std::clamp<int64_t>(kScoreBlock / std::max<int64_t>(lk, 1), 1, lq);
    const int64_t blocks = (lq + block - 1) / block, units = heads * blocks;
    std::vector<int64_t> lead_strides =
        stridesOf(std::vector<int64_t>(a.shape.begin(), a.shape.end() - 2));
    auto unit = [&](int64_t u, std::vector<float>& s) {
      int64_t head = u / blocks, r0 = (u % blocks) * block, rows = std::min(block, lq - r0);
      s.resize(static_cast<size_t>(rows * lk));
      auto makeScores = [&] {
        if (d > 0)
          product(false, false, rows, lk, d, a.f.data() + (head * lq + r0) * d,
                  b.f.data() + head * d * lk, s.data());
        else
          std::fill(s.begin(), s.end(), 0.0f);
        if (scale) {  // as the Mul or Div of the scores by the scale does, element by element
          const float by = scale->f[0];
          if (divide) {
            for (float& x : s) x = x / by;
          } else {
            for (float& x : s) x = x * by;
          }
        }
        if (!mask) return;
        int64_t base = 0;
        for (size_t k = 0; k + 2 < rank; ++k)
          base += ((head / lead_strides[k]) % a.shape[k]) * mask_strides[k];
        for (int64_t i = 0; i < rows; ++i) {
          const float* m = mask->f.data() + base + (r0 + i) * mask_strides[rank - 2];
          float* row = s.data() + i * lk;
          for (int64_t j = 0; j < lk; ++j) row[j] += m[j * mask_strides[rank - 1]];
        }
      };
      makeScores();
      if (lk > 0 && !softmax(s.data(), rows, lk)) {  // no row to normalize where Lk is 0
        makeScores();
        softmaxRows(s.data(), rows, lk);
      }
      float* out = y.f.data() + (head * lq + r0) * dv;
      if (lk > 0)
        product(false, false, rows, dv, lk, s.data(), v.f.data() + head * lk * dv, out);
      else
        std::fill(out, out + rows * dv, 0.0f);
    };
    double flops = 2.0 * static_cast<double>(heads) * static_cast<double>(lq) *
                   static_cast<double>(lk) * static_cast<double>(d + dv);
    if (parallel && units >= 2 * maxThreads() && maxThreads() > 1 && flops >= kSerialFlops) {
      std::exception_ptr error;
#pragma omp parallel
      {
        std::vector<float> s;
#pragma omp for schedule(static)
        for (int64_t u = 0; u < units; ++u) {
          try {
            unit(u, s);
          } catch (...) {
#pragma omp critical(fxc_attention_error)
            if (!error) error = std::current_exception();
          }
        }
      }
      if (error) std::rethrow_exception(error);
    } else {
      std::vector<float> s;
      for (int64_t u = 0; u < units; ++u) unit(u, s);
    }
    return outputs(std::move(y));
  };
}

namespace {

template <bool kMax>
std::vector<Value> pool2d(const KernelContext& c) {
  if (c.input(0).shape.size() != 4 || !c.input(0).isFloat() || (kMax && c.outputUsed(1)))
    return poolingNd<kMax>(c);
  const Value& x = c.input(0);
  PoolGeometry g = poolGeometry(c, x);
  int64_t n = g.n, ch = g.ch, h = g.h, w = g.w, oh = g.oh, ow = g.ow;
  const std::vector<int64_t>& kernel = g.win.kernel;
  const Window& win = g.win;
  bool include_pad = g.include_pad;
  Value y =
      Value::floats({n, ch, oh, ow}, std::vector<float>(static_cast<size_t>(n * ch * oh * ow)));
  for (int64_t plane = 0; plane < n * ch; ++plane) {
    const float* in = x.f.data() + (plane * h * w);
    for (int64_t oy = 0; oy < oh; ++oy) {
      for (int64_t ox = 0; ox < ow; ++ox) {
        float acc = kMax ? -std::numeric_limits<float>::infinity() : 0.0f;
        int64_t count = 0, padded = 0;
        for (int64_t ky = 0; ky < kernel[0]; ++ky) {
          int64_t iy = oy * win.strides[0] - win.pads[0] + ky * win.dilations[0];
          for (int64_t kx = 0; kx < kernel[1]; ++kx) {
            int64_t ix = ox * win.strides[1] - win.pads[1] + kx * win.dilations[1];
            // count_include_pad counts the declared padding, not the window past it (ceil_mode).
            if (iy < h + win.pads[2] && ix < w + win.pads[3]) ++padded;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
            float v = in[iy * w + ix];
            acc = kMax ? std::max(acc, v) : acc + v;
            ++count;
          }
        }
        if (!kMax) acc /= static_cast<float>(include_pad ? padded : std::max<int64_t>(count, 1));
        y.f[static_cast<size_t>((plane * oh + oy) * ow + ox)] = acc;
      }
    }
  }
  return outputs(std::move(y));
}

std::vector<Value> globalAveragePool(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  if (x.shape.size() < 3) throw ExecError("GlobalAveragePool needs rank >= 3");
  int64_t planes = x.shape[0] * x.shape[1], inner = x.numel() / std::max<int64_t>(planes, 1);
  std::vector<int64_t> shape = x.shape;
  for (size_t k = 2; k < shape.size(); ++k) shape[k] = 1;
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(planes)));
  for (int64_t p = 0; p < planes; ++p) {
    double sum = 0;
    for (int64_t k = 0; k < inner; ++k) sum += x.f[static_cast<size_t>(p * inner + k)];
    y.f[static_cast<size_t>(p)] = static_cast<float>(sum / static_cast<double>(inner));
  }
  return outputs(std::move(y));
}

}  // namespace

NormalizedExtent normalizedExtent(const KernelContext& c, const Value& x) {
  size_t rank = x.shape.size();
  std::optional<int64_t> axis_attr = c.optionalIntAttribute("axis");
  bool coerced = c.opset() > 0 && c.opset() < 13;
  if (c.opset() == 0 &&
      (!axis_attr || (*axis_attr != -1 && *axis_attr + 1 != static_cast<int64_t>(rank))))
    throw ExecError("unsupported: Softmax-like op on an axis other than the last, opset unknown");
  size_t axis = normalizeAxis(axis_attr.value_or(coerced ? 1 : -1), rank);
  NormalizedExtent e;
  for (size_t d = 0; d < axis; ++d) e.outer *= x.shape[d];
  if (coerced) {
    for (size_t d = axis; d < rank; ++d) e.extent *= x.shape[d];
  } else {
    e.extent = x.shape[axis];
    for (size_t d = axis + 1; d < rank; ++d) e.inner *= x.shape[d];
  }
  return e;
}

namespace {

enum class Normalize { kSoftmax, kLogSoftmax, kHardmax };

// Softmax, LogSoftmax and Hardmax. From opset 13 they work along one axis (default -1); before,
// they flattened the input to 2-D at `axis` (default 1) and worked along the trailing block.
template <Normalize kMode>
std::vector<Value> normalizeAlong(const KernelContext& c) {
  const Value& x = requireFloat(c.input(0), "the input");
  const NormalizedExtent e = normalizedExtent(c, x);  // no structured binding: lambdas use it
  const int64_t outer = e.outer, extent = e.extent, inner = e.inner;
  Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t r = 0; r < inner; ++r) {
      auto at = [&](int64_t j) { return static_cast<size_t>((o * extent + j) * inner + r); };
      int64_t best = 0;
      float peak = -std::numeric_limits<float>::infinity();
      for (int64_t j = 0; j < extent; ++j) {
        if (x.f[at(j)] > peak) {
          peak = x.f[at(j)];
          best = j;
        }
      }
      if (kMode == Normalize::kHardmax) {
        // The first NaN is the largest, as ArgMax takes it (np.argmax: ONNX's reference).
        for (int64_t j = 0; j < extent; ++j) {
          if (std::isnan(x.f[at(j)])) {
            best = j;
            break;
          }
        }
        for (int64_t j = 0; j < extent; ++j) y.f[at(j)] = j == best ? 1.0f : 0.0f;
        continue;
      }
      double sum = 0;
      for (int64_t j = 0; j < extent; ++j) sum += std::exp(static_cast<double>(x.f[at(j)]) - peak);
      for (int64_t j = 0; j < extent; ++j) {
        double shifted = static_cast<double>(x.f[at(j)]) - peak;
        y.f[at(j)] = static_cast<float>(kMode == Normalize::kLogSoftmax ? shifted - std::log(sum)
                                                                        : std::exp(shifted) / sum);
      }
    }
  }
  return outputs(std::move(y));
}

}  // namespace

Kernel liftTo2d(Kernel two_d) {
  return [two_d](const KernelContext& c) -> std::vector<Value> {
    if (c.input(0).shape.size() != 3)
      throw ExecError("unsupported: a 1-D convolution or pooling of a rank-" +
                      std::to_string(c.input(0).shape.size()) + " input");
    auto lift = [](Value v) {
      v.makePlain();
      v.shape.insert(v.shape.begin() + 2, 1);
      return v;
    };
    std::vector<Value> lifted;
    lifted.reserve(c.inputCount());  // the pointers below stay valid
    std::vector<const Value*> inputs;
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value* v = c.optionalInput(k);
      if (v && (k == 0 || (k == 1 && v->shape.size() == 3))) {  // the data; a functional weight
        lifted.push_back(lift(*v));
        v = &lifted.back();
      }
      inputs.push_back(v);
    }
    std::optional<Value> weight;
    if (const Value* w = c.tensor("weight"); w && w->shape.size() == 3) weight = lift(*w);
    ir::Kwargs attributes;
    for (const auto& [key, value] : c.attributes()) {
      // The new leading spatial dimension has extent 1: a window of 1, a stride of 1, no
      // padding, no output padding, an output size of 1.
      bool window =
          key == "kernel_shape" || key == "strides" || key == "dilations" || key == "output_shape";
      if ((window || key == "pads" || key == "output_padding") && value.isSequence()) {
        std::vector<ir::Argument> items = value.items();
        if (key == "pads" && items.size() == 2) {
          items = {int64_t{0}, items[0], int64_t{0}, items[1]};
        } else if (items.size() == 1 && key != "pads") {
          items.insert(items.begin(), ir::Argument(int64_t{window ? 1 : 0}));
        }
        attributes.emplace_back(key, ir::Argument::list(std::move(items)));
      } else {
        attributes.emplace_back(key, value);
      }
    }
    auto result = two_d(c.withView(inputs, &attributes, [&](const std::string& name) {
      return name == "weight" && weight ? &*weight : c.tensor(name);
    }));
    for (Value& y : result) {
      y.makePlain();
      if (y.shape.size() == 4 && y.shape[2] == 1) y.shape.erase(y.shape.begin() + 2);
    }
    return result;
  };
}

void addNeuralNetKernels(KernelTable& t) {
  add(t, {"module:Conv1d", "torch.nn.functional.conv1d"}, liftTo2d(conv2d));
  add(t, {"module:ConvTranspose1d", "torch.nn.functional.conv_transpose1d"},
      liftTo2d(convTranspose2d));
  add(t, {"module:MaxPool1d", "torch.nn.functional.max_pool1d"}, liftTo2d(pool2d<true>));
  add(t, {"module:AvgPool1d", "torch.nn.functional.avg_pool1d"}, liftTo2d(pool2d<false>));
  add(t, {"module:Conv2d", "torch.nn.functional.conv2d"}, conv2d);
  add(t, {"module:ConvReLU2d", "module:ConvAddReLU2d"}, convRelu);
  add(t, {"module:ConvAct2d"}, thenActivation(conv2d));
  add(t, {"module:ConvTranspose2d", "torch.nn.functional.conv_transpose2d"}, convTranspose2d);
  add(t,
      {"module:BatchNorm1d", "module:BatchNorm2d", "module:BatchNorm3d",
       "torch.nn.functional.batch_norm"},
      batchNorm);
  add(t, {"module:BNReLU2d"}, batchNormRelu);
  add(t, {"module:Linear", "onnx.Gemm"}, gemmKernel(referenceProduct));
  add(t, {"module:LinearAct"}, thenActivation(gemmKernel(referenceProduct)));
  add(t, {"operator.matmul"}, matmulKernel(referenceProduct));
  add(t, {"fxc.Attention"}, attentionKernel(referenceProduct, softmaxRows));
  add(t, {"module:MaxPool2d", "torch.nn.functional.max_pool2d"}, pool2d<true>);
  add(t, {"module:AvgPool2d", "torch.nn.functional.avg_pool2d"}, pool2d<false>);
  add(t, {"module:AdaptiveAvgPool2d", "torch.nn.functional.adaptive_avg_pool2d"},
      globalAveragePool);
  add(t, {"torch.softmax", "module:Softmax"}, normalizeAlong<Normalize::kSoftmax>);
  add(t, {"torch.log_softmax", "module:LogSoftmax"}, normalizeAlong<Normalize::kLogSoftmax>);
  add(t, {"onnx.Hardmax"}, normalizeAlong<Normalize::kHardmax>);
}

}  // namespace fxc::exec
