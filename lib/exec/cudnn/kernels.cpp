// The cuDNN backend's kernels. Convolutions (alone, with ReLU, with a residual add and ReLU) run
// as cudnnConvolutionBiasActivationForward with the algorithm found once per input shape
// (cudnnFindConvolutionForwardAlgorithm) and its workspace kept; BatchNorm, pooling, ReLU /
// sigmoid / tanh and Softmax are cuDNN's; Gemm/Linear and MatMul are cuBLAS; the rest of the
// common ops are the small kernels of elementwise.cu, or views (reshape, flatten, ...). Weights are
// uploaded once per model. A case a kernel does not cover runs its CPU kernel on host copies.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "exec/cudnn/device.h"
#include "exec/kernels_internal.h"

namespace fxc::exec::cudnn {
namespace {

using Table = std::unordered_map<std::string, Kernel>;

// RAII holders for cuDNN descriptors.
struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  TensorDesc() { check(cudnnCreateTensorDescriptor(&d), "cudnnCreateTensorDescriptor"); }
  ~TensorDesc() { cudnnDestroyTensorDescriptor(d); }
  TensorDesc(const TensorDesc&) = delete;
  TensorDesc& operator=(const TensorDesc&) = delete;
  void set(int64_t n, int64_t c, int64_t h, int64_t w, cudnnDataType_t type = CUDNN_DATA_FLOAT) {
    check(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, type, static_cast<int>(n),
                                     static_cast<int>(c), static_cast<int>(h), static_cast<int>(w)),
          "cudnnSetTensor4dDescriptor");
  }
};
struct FilterDesc {
  cudnnFilterDescriptor_t d = nullptr;
  FilterDesc() { check(cudnnCreateFilterDescriptor(&d), "cudnnCreateFilterDescriptor"); }
  ~FilterDesc() { cudnnDestroyFilterDescriptor(d); }
  FilterDesc(const FilterDesc&) = delete;
  FilterDesc& operator=(const FilterDesc&) = delete;
};
struct ConvDesc {
  cudnnConvolutionDescriptor_t d = nullptr;
  ConvDesc() { check(cudnnCreateConvolutionDescriptor(&d), "cudnnCreateConvolutionDescriptor"); }
  ~ConvDesc() { cudnnDestroyConvolutionDescriptor(d); }
  ConvDesc(const ConvDesc&) = delete;
  ConvDesc& operator=(const ConvDesc&) = delete;
};
struct PoolDesc {
  cudnnPoolingDescriptor_t d = nullptr;
  PoolDesc() { check(cudnnCreatePoolingDescriptor(&d), "cudnnCreatePoolingDescriptor"); }
  ~PoolDesc() { cudnnDestroyPoolingDescriptor(d); }
  PoolDesc(const PoolDesc&) = delete;
  PoolDesc& operator=(const PoolDesc&) = delete;
};
struct ActivationDesc {
  cudnnActivationDescriptor_t d = nullptr;
  explicit ActivationDesc(cudnnActivationMode_t mode, double coef = 0) {
    check(cudnnCreateActivationDescriptor(&d), "cudnnCreateActivationDescriptor");
    check(cudnnSetActivationDescriptor(d, mode, CUDNN_NOT_PROPAGATE_NAN, coef),
          "cudnnSetActivationDescriptor");
  }
  ~ActivationDesc() { cudnnDestroyActivationDescriptor(d); }
  ActivationDesc(const ActivationDesc&) = delete;
  ActivationDesc& operator=(const ActivationDesc&) = delete;
};

// The CPU kernel on host copies of the inputs (the fallback of every kernel here).
std::vector<Value> onHost(const Kernel& cpu, const KernelContext& c) {
  return onPlainInputs(cpu, c);
}
// The same from a kernel that keeps a plan in the node's state: the CPU kernel keeps its own (a
// oneDNN primitive) in `host`, inside that plan, rather than replacing it (each would otherwise
// be made again on every run).
std::vector<Value> onHost(const Kernel& cpu, const KernelContext& c, std::any& host) {
  return onPlainInputs(cpu, c.withState(&host));
}

// A module tensor on the device, uploaded the first time (kept in the node's state).
struct Uploaded {
  std::unordered_map<std::string, std::shared_ptr<Buffer>> tensors;
  std::any host;  // the CPU kernel's state, when it runs instead
};
std::shared_ptr<Buffer> parameterOnDevice(const KernelContext& c, const std::string& name,
                                          Uploaded& kept) {
  auto it = kept.tensors.find(name);
  if (it != kept.tensors.end()) return it->second;
  const Value* v = c.tensor(name);
  if (!v || !v->isFloat()) return nullptr;
  return kept.tensors[name] = upload(v->f);
}

template <typename T>
T& stateOf(const KernelContext& c) {
  return c.plan<T>([](const T&) { return true; }, [] { return std::make_shared<T>(); });
}

const float kOne = 1.0f, kZero = 0.0f;

// ---- convolution ----

enum class Fused { kNone, kRelu, kAddRelu };

struct ConvPlan {
  std::vector<int64_t> src_shape;
  Precision precision = Precision::kFp32;
  bool cpu = false;
  std::any host;  // the CPU kernel's state, when it runs instead
  TensorDesc x, y, bias;
  FilterDesc w;
  ConvDesc conv;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  std::shared_ptr<Buffer> workspace;
  size_t workspace_bytes = 0;
  std::shared_ptr<Buffer> weights, bias_values;  // weights in the plan's data type
  bool half = false;
  // fp16: the input and output in half, kept for the plan's shape (stream-ordered reuse, no sync).
  std::shared_ptr<Buffer> x_half, y_half;
};

void planConvolution(ConvPlan& plan, const ConvGeometry& g, const Value& w, const Value* b,
                     Fused fused) {
  Context& ctx = context();
  plan.precision = ctx.precision;
  plan.half = ctx.precision == Precision::kFp16;
  cudnnDataType_t type = plan.half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  plan.x.set(g.n, g.cin, g.h, g.w, type);
  plan.y.set(g.n, g.cout, g.oh, g.ow, type);
  plan.bias.set(1, g.cout, 1, 1);
  check(cudnnSetFilter4dDescriptor(plan.w.d, type, CUDNN_TENSOR_NCHW, static_cast<int>(g.cout),
                                   static_cast<int>(g.cin_g), static_cast<int>(g.kh),
                                   static_cast<int>(g.kw)),
        "cudnnSetFilter4dDescriptor");
  const Window& win = g.win;
  check(cudnnSetConvolution2dDescriptor(
            plan.conv.d, static_cast<int>(win.pads[0]), static_cast<int>(win.pads[1]),
            static_cast<int>(win.strides[0]), static_cast<int>(win.strides[1]),
            static_cast<int>(win.dilations[0]), static_cast<int>(win.dilations[1]),
            CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
  check(cudnnSetConvolutionGroupCount(plan.conv.d, static_cast<int>(g.groups)),
        "cudnnSetConvolutionGroupCount");
  // fp32: FMA only; tf32: the default, which lets float32 use TF32 tensor cores; fp16: tensor
  // cores on the half data.
  check(cudnnSetConvolutionMathType(plan.conv.d, ctx.precision == Precision::kFp32 ? CUDNN_FMA_MATH
                                                 : ctx.precision == Precision::kTf32
                                                     ? CUDNN_DEFAULT_MATH
                                                     : CUDNN_TENSOR_OP_MATH),
        "cudnnSetConvolutionMathType");
  // The output size cuDNN computes must be ONNX's (asymmetric padding is not expressible).
  int n = 0, c = 0, h = 0, wd = 0;
  check(cudnnGetConvolution2dForwardOutputDim(plan.conv.d, plan.x.d, plan.w.d, &n, &c, &h, &wd),
        "cudnnGetConvolution2dForwardOutputDim");
  if (h != g.oh || wd != g.ow) {
    plan.cpu = true;
    return;
  }
  // The fastest algorithm for this shape, measured once.
  cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int found = 0;
  check(cudnnFindConvolutionForwardAlgorithm(ctx.cudnn, plan.x.d, plan.w.d, plan.conv.d, plan.y.d,
                                             CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &found, results),
        "cudnnFindConvolutionForwardAlgorithm");
  bool chosen = false;
  for (int k = 0; k < found && !chosen; ++k) {
    if (results[k].status != CUDNN_STATUS_SUCCESS) continue;
    // Without an activation, the fused call only takes the implicit precomputed GEMM.
    if (fused == Fused::kNone && !plan.half &&
        results[k].algo != CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM)
      continue;
    plan.algo = results[k].algo;
    chosen = true;
  }
  if (!chosen) plan.algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  check(cudnnGetConvolutionForwardWorkspaceSize(ctx.cudnn, plan.x.d, plan.w.d, plan.conv.d,
                                                plan.y.d, plan.algo, &plan.workspace_bytes),
        "cudnnGetConvolutionForwardWorkspaceSize");
  if (plan.workspace_bytes) plan.workspace = std::make_shared<Buffer>(plan.workspace_bytes);
  // Weights once, in the plan's type; a bias of zeros when the conv has none (the fused call
  // always adds one).
  auto weights = upload(w.f);
  if (plan.half) {
    plan.weights = std::make_shared<Buffer>(w.f.size() * 2);
    launchToHalf(weights->floats(), plan.weights->data(), w.f.size(), ctx.stream);
  } else {
    plan.weights = weights;
  }
  plan.bias_values = upload(b ? b->f : std::vector<float>(static_cast<size_t>(g.cout), 0.0f));
  if (plan.half) {
    plan.x_half = std::make_shared<Buffer>(static_cast<size_t>(g.n * g.cin * g.h * g.w) * 2);
    plan.y_half = std::make_shared<Buffer>(static_cast<size_t>(g.n * g.cout * g.oh * g.ow) * 2);
  }
}

Kernel convolution(Kernel cpu, Fused fused) {
  return [cpu, fused](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    const Value* w = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    const Value* b = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    const Value* residual = fused == Fused::kAddRelu ? &c.input(1) : nullptr;
    if (!x.isFloat() || x.shape.size() != 4 || !w || w->native || !w->isFloat() ||
        w->shape.size() != 4 || (b && (b->native || !b->isFloat())) || !c.tensor("weight") ||
        !c.state())
      return onHost(cpu, c);
    ConvGeometry g = convGeometry(c, x, *w);
    const Window& win = g.win;
    std::vector<int64_t> out_shape = {g.n, g.cout, g.oh, g.ow};
    if (win.pads[0] != win.pads[2] || win.pads[1] != win.pads[3] ||
        (residual && residual->shape != out_shape))
      return onHost(cpu, c);
    Context& ctx = context();
    ConvPlan& plan = c.plan<ConvPlan>(
        [&](const ConvPlan& kept) {
          return kept.src_shape == x.shape && kept.precision == ctx.precision;
        },
        [&] {
          auto made = std::make_shared<ConvPlan>();
          made->src_shape = x.shape;
          planConvolution(*made, g, *w, b, fused);
          return made;
        });
    if (plan.cpu) return onHost(cpu, c, plan.host);

    auto input = onDevice(x);
    size_t out_count = elementCount(out_shape);
    auto output = std::make_shared<Buffer>(out_count * sizeof(float));
    std::shared_ptr<Buffer> z = residual ? onDevice(*residual) : nullptr;
    if (!plan.half) {
      float alpha2 = z ? 1.0f : 0.0f;
      if (fused == Fused::kNone) {
        ActivationDesc identity(CUDNN_ACTIVATION_IDENTITY);
        check(cudnnConvolutionBiasActivationForward(
                  ctx.cudnn, &kOne, plan.x.d, input->data(), plan.w.d, plan.weights->data(),
                  plan.conv.d, plan.algo, plan.workspace ? plan.workspace->data() : nullptr,
                  plan.workspace_bytes, &alpha2, plan.y.d, output->data(), plan.bias.d,
                  plan.bias_values->data(), identity.d, plan.y.d, output->data()),
              "cudnnConvolutionBiasActivationForward");
      } else {
        ActivationDesc relu(CUDNN_ACTIVATION_RELU);
        check(cudnnConvolutionBiasActivationForward(
                  ctx.cudnn, &kOne, plan.x.d, input->data(), plan.w.d, plan.weights->data(),
                  plan.conv.d, plan.algo, plan.workspace ? plan.workspace->data() : nullptr,
                  plan.workspace_bytes, &alpha2, plan.y.d, z ? z->data() : output->data(),
                  plan.bias.d, plan.bias_values->data(), relu.d, plan.y.d, output->data()),
              "cudnnConvolutionBiasActivationForward");
      }
      return outputs(deviceValue(std::move(output), out_shape));
    }
    // fp16: the convolution in half with float accumulation, then bias, residual and ReLU in
    // float.
    size_t in_count = elementCount(x.shape);
    launchToHalf(input->floats(), plan.x_half->data(), in_count, ctx.stream);
    check(cudnnConvolutionForward(ctx.cudnn, &kOne, plan.x.d, plan.x_half->data(), plan.w.d,
                                  plan.weights->data(), plan.conv.d, plan.algo,
                                  plan.workspace ? plan.workspace->data() : nullptr,
                                  plan.workspace_bytes, &kZero, plan.y.d, plan.y_half->data()),
          "cudnnConvolutionForward");
    launchFromHalf(plan.y_half->data(), output->floats(), out_count, ctx.stream);
    launchEpilogue(output->floats(), plan.bias_values->floats(), z ? z->floats() : nullptr, g.n,
                   g.cout, g.oh * g.ow, fused != Fused::kNone, ctx.stream);
    return outputs(deviceValue(std::move(output), out_shape));
  };
}

// ---- integer convolutions (quant-lower's QLinearConv, QLinearConvToFloat, QLinearConvAct) ----

// cuDNN's int8 convolution with a float output (INT8_EXT_CONFIG: int8 NHWC input and weights,
// int32 accumulation, float NHWC result; cuDNN 9 has it where the channels are a multiple of 4),
// then launchQuantizedEpilogue for the rest of the CPU kernel's arithmetic. The input enters as
// int8 x − offset (offset 128 for uint8, else 0); where that offset is not x's zero point, the
// accumulator gains (offset − z_x)·Σw over the taps inside the input (cuDNN pads with 0, ONNX
// with z_x), a per-position sum measured once per shape by the same convolution of a tensor of
// ones. The weights' zero point must be 0, every parameter a constant (QLinearConvAct's addend
// excepted); anything else, and a shape cuDNN has no int8 algorithm for, runs the CPU kernel.
// 8-bit results stay on the device (DeviceBytes, the next integer convolution's input as it
// is); a CPU kernel that reads one gets it copied back.
using QMode = QuantizedEpilogue::Mode;

struct QConvPlan {
  std::vector<int64_t> src_shape;
  ir::DType src_type = ir::DType::kUndefined;
  bool cpu = true;
  std::any host;  // the CPU kernel's state, when it runs instead
  TensorDesc x, y;
  FilterDesc w;
  ConvDesc conv;
  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM;
  std::shared_ptr<Buffer> workspace;
  size_t workspace_bytes = 0;
  std::shared_ptr<Buffer> weights, correction, multiplier, int_bias, real_bias;
  int offset = 0;              // subtracted from x on its way in
  QuantizedEpilogue epilogue;  // the constant part
  ir::DType dst_type = ir::DType::kUndefined;
};

std::shared_ptr<Buffer> uploadDoubles(const std::vector<double>& values) {
  return uploadBytes(values.data(), values.size() * sizeof(double));
}

// The plan, or one that sends the node to the CPU (cpu stays true) for what it does not cover.
std::shared_ptr<QConvPlan> planQuantizedConvolution(const KernelContext& c, const ConvGeometry& g,
                                                    const Value& x, QMode mode) {
  auto plan = std::make_shared<QConvPlan>();
  plan->src_shape = x.shape;
  plan->src_type = x.dtype;
  bool to_float = mode == QMode::kFloat, with_activation = mode == QMode::kInt8Activation;
  const Value &w = c.input(3), &x_scale = c.input(1), &w_scale = c.input(4);
  const Value *x_zp = c.optionalInput(2), *w_zp = c.optionalInput(5);
  const Value *y_scale = to_float ? nullptr : &c.input(6),
              *y_zp = to_float ? nullptr : c.optionalInput(7),
              *b = c.optionalInput(to_float ? 6 : 8);
  size_t variable = to_float ? 7 : with_activation ? 9 : c.inputCount();  // the addend
  for (size_t k = 1; k < c.inputCount(); ++k) {
    if (c.optionalInput(k) && !c.constantInput(k) && k != variable) return plan;
  }
  if (w.dtype != ir::DType::kInt8 || w.native || w.shape.size() != 4 || !scalarOf(&x_scale, true) ||
      (y_scale && !scalarOf(y_scale, true)) ||
      (x_zp && (!scalarOf(x_zp, false) || x_zp->dtype != x.dtype)) ||
      (y_zp && (!scalarOf(y_zp, false) || !isInt8(y_zp->dtype))) || !w_scale.isFloat() ||
      w_scale.native || (w_scale.numel() != 1 && w_scale.numel() != g.cout))
    return plan;
  if (w_zp && (w_zp->native || w_zp->isFloat() ||
               std::any_of(w_zp->i.begin(), w_zp->i.end(), [](int64_t z) { return z != 0; })))
    return plan;
  bool float_bias = b && b->isFloat();
  if (b && (b->native || b->numel() != g.cout ||
            (b->dtype != ir::DType::kInt32 && b->dtype != ir::DType::kFloat32) ||
            (to_float && !float_bias) || (mode == QMode::kInt8 && float_bias)))
    return plan;
  QuantizedEpilogue& e = plan->epilogue;
  e.mode = mode;
  if (to_float) {
    std::string activation = c.stringAttribute("activation", "");
    if (!activation.empty() && activation != "Relu") return plan;
    if (!activation.empty()) e.activation = QuantizedEpilogue::Activation::kRelu;
    const Value* addend = c.optionalInput(7);
    if (addend &&
        (!addend->isFloat() || addend->shape != std::vector<int64_t>{g.n, g.cout, g.oh, g.ow}))
      return plan;
  }
  if (with_activation) {
    if (c.attribute("activation")) {
      ir::Kwargs attributes;
      const std::string& type = fusedActivation(c, attributes);
      if (type == "ReLU") {
        e.activation = QuantizedEpilogue::Activation::kRelu;
      } else if (type == "Hardtanh") {
        e.activation = QuantizedEpilogue::Activation::kClip;
        Value none;
        KernelContext bounds = activationContext(c, {&none}, attributes);
        for (size_t k = 1; k < bounds.inputCount(); ++k) {
          const Value* bound = bounds.optionalInput(k);
          if (bound && (bound->native || !bound->isFloat())) return plan;
        }
        std::tie(e.lo, e.hi) = clipBounds(bounds);
      } else {
        return plan;  // the other activations: the CPU kernel's reference ones
      }
    }
    if (const Value* z = c.optionalInput(9)) {
      const Value *z_scale = c.optionalInput(10), *z_zp = c.optionalInput(11);
      if (!isInt8(z->dtype) || z->shape != std::vector<int64_t>{g.n, g.cout, g.oh, g.ow} ||
          !scalarOf(z_scale, true) || (z_zp && (!scalarOf(z_zp, false) || z_zp->dtype != z->dtype)))
        return plan;
      e.addend_scale = z_scale->f[0];
      e.addend_zp = z_zp ? static_cast<int>(z_zp->i[0]) : 0;
    }
  }
  // The scales, as the CPU kernels combine them (the reference's errors stay the reference's).
  std::vector<double> multiplier;
  for (float s : w_scale.f) {
    double m = mode == QMode::kInt8 ? static_cast<double>(x_scale.f[0]) * s / y_scale->f[0]
                                    : static_cast<double>(s);
    if (!(s > 0) || !std::isfinite(m)) return plan;
    multiplier.push_back(m);
  }
  if (!(x_scale.f[0] > 0) || (y_scale && !(y_scale->f[0] > 0))) return plan;
  if (multiplier.size() == 1) multiplier.resize(static_cast<size_t>(g.cout), multiplier[0]);
  e.x_scale = x_scale.f[0];
  if (y_scale) e.y_scale = y_scale->f[0];
  plan->dst_type = to_float ? ir::DType::kFloat32 : y_zp ? y_zp->dtype : ir::DType::kUInt8;
  if (!to_float) {
    e.y_zp = y_zp ? static_cast<int>(y_zp->i[0]) : 0;
    e.y_min = plan->dst_type == ir::DType::kUInt8 ? 0 : -128;
    e.y_max = plan->dst_type == ir::DType::kUInt8 ? 255 : 127;
    e.y_offset = plan->dst_type == ir::DType::kUInt8 ? 128 : 0;
  }
  plan->offset = x.dtype == ir::DType::kUInt8 ? 128 : 0;
  int64_t x_zero = x_zp ? x_zp->i[0] : 0;
  e.shift = static_cast<double>(plan->offset - x_zero);

  // cuDNN's int8 convolution for this shape: channels in multiples of 4 (its int8 NHWC
  // requirement: on an H200 its heuristics offered no algorithm for the 3-channel stem).
  if (g.cin_g % 4 != 0 || (g.cout / g.groups) % 4 != 0) return plan;
  Context& ctx = context();
  const Window& win = g.win;
  auto i = [](int64_t v) { return static_cast<int>(v); };
  if (cudnnSetTensor4dDescriptor(plan->x.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8, i(g.n), i(g.cin),
                                 i(g.h), i(g.w)) != CUDNN_STATUS_SUCCESS ||
      cudnnSetTensor4dDescriptor(plan->y.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, i(g.n), i(g.cout),
                                 i(g.oh), i(g.ow)) != CUDNN_STATUS_SUCCESS ||
      cudnnSetFilter4dDescriptor(plan->w.d, CUDNN_DATA_INT8, CUDNN_TENSOR_NHWC, i(g.cout),
                                 i(g.cin_g), i(g.kh), i(g.kw)) != CUDNN_STATUS_SUCCESS ||
      cudnnSetConvolution2dDescriptor(plan->conv.d, i(win.pads[0]), i(win.pads[1]),
                                      i(win.strides[0]), i(win.strides[1]), i(win.dilations[0]),
                                      i(win.dilations[1]), CUDNN_CROSS_CORRELATION,
                                      CUDNN_DATA_INT32) != CUDNN_STATUS_SUCCESS ||
      cudnnSetConvolutionGroupCount(plan->conv.d, i(g.groups)) != CUDNN_STATUS_SUCCESS)
    return plan;
  int n = 0, ch = 0, h = 0, wd = 0;
  if (cudnnGetConvolution2dForwardOutputDim(plan->conv.d, plan->x.d, plan->w.d, &n, &ch, &h, &wd) !=
          CUDNN_STATUS_SUCCESS ||
      h != g.oh || wd != g.ow)
    return plan;
  cudnnConvolutionFwdAlgoPerf_t results[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  int found = 0;
  if (cudnnFindConvolutionForwardAlgorithm(ctx.cudnn, plan->x.d, plan->w.d, plan->conv.d, plan->y.d,
                                           CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &found,
                                           results) != CUDNN_STATUS_SUCCESS)
    return plan;
  int chosen = -1;
  for (int k = 0; k < found && chosen < 0; ++k) {
    if (results[k].status == CUDNN_STATUS_SUCCESS) chosen = k;
  }
  if (chosen < 0) return plan;
  plan->algo = results[chosen].algo;
  plan->workspace_bytes = results[chosen].memory;
  if (plan->workspace_bytes) plan->workspace = std::make_shared<Buffer>(plan->workspace_bytes);

  // The weights once, int8 [K, kh, kw, C/g]; the per-channel numbers in double.
  std::vector<int8_t> narrow(w.i.size());
  int64_t taps = g.kh * g.kw;
  for (int64_t k = 0; k < g.cout; ++k)
    for (int64_t ci = 0; ci < g.cin_g; ++ci)
      for (int64_t t = 0; t < taps; ++t)
        narrow[static_cast<size_t>((k * taps + t) * g.cin_g + ci)] =
            static_cast<int8_t>(w.i[static_cast<size_t>((k * g.cin_g + ci) * taps + t)]);
  plan->weights = uploadBytes(narrow.data(), narrow.size());
  plan->multiplier = uploadDoubles(multiplier);
  if (b && !float_bias)
    plan->int_bias = uploadDoubles(std::vector<double>(b->i.begin(), b->i.end()));
  if (float_bias) plan->real_bias = uploadDoubles(std::vector<double>(b->f.begin(), b->f.end()));
  if (e.shift != 0) {
    // Σw over the taps inside the input, per output position and channel: the convolution of
    // ones (one image; the same for every image of the batch).
    TensorDesc ones_desc, sum_desc;
    check(cudnnSetTensor4dDescriptor(ones_desc.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8, 1, i(g.cin),
                                     i(g.h), i(g.w)),
          "cudnnSetTensor4dDescriptor");
    check(cudnnSetTensor4dDescriptor(sum_desc.d, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 1, i(g.cout),
                                     i(g.oh), i(g.ow)),
          "cudnnSetTensor4dDescriptor");
    size_t bytes = 0;
    if (cudnnGetConvolutionForwardWorkspaceSize(ctx.cudnn, ones_desc.d, plan->w.d, plan->conv.d,
                                                sum_desc.d, plan->algo,
                                                &bytes) != CUDNN_STATUS_SUCCESS)
      return plan;
    std::vector<int8_t> ones(static_cast<size_t>(g.cin * g.h * g.w), 1);
    auto ones_device = uploadBytes(ones.data(), ones.size());
    plan->correction = std::make_shared<Buffer>(static_cast<size_t>(g.cout * g.oh * g.ow) * 4);
    auto scratch = bytes ? std::make_shared<Buffer>(bytes) : nullptr;
    if (cudnnConvolutionForward(ctx.cudnn, &kOne, ones_desc.d, ones_device->data(), plan->w.d,
                                plan->weights->data(), plan->conv.d, plan->algo,
                                scratch ? scratch->data() : nullptr, bytes, &kZero, sum_desc.d,
                                plan->correction->data()) != CUDNN_STATUS_SUCCESS)
      return plan;
    check(cudaStreamSynchronize(ctx.stream), "cudaStreamSynchronize");
  }
  plan->cpu = false;
  return plan;
}

// An 8-bit value as DeviceBytes with `offset` (a [n, c, h, w] value): its own buffer when it
// is there already in that form, else one upload (NCHW to NHWC on the host).
std::shared_ptr<Buffer> bytesOnDevice(const Value& v, int offset) {
  if (const auto* device = dynamic_cast<const DeviceBytes*>(v.native.get())) {
    if (device->offset() == offset) return device->buffer();
  }
  Value plain;
  const Value* source = &v;
  if (v.native) {
    plain = v;
    plain.makePlain();
    source = &plain;
  }
  std::vector<int8_t> bytes(source->i.size());
  int64_t n = v.shape[0], ch = v.shape[1], hw = v.shape[2] * v.shape[3];
  for (int64_t b = 0; b < n; ++b)
    for (int64_t c = 0; c < ch; ++c)
      for (int64_t p = 0; p < hw; ++p)
        bytes[static_cast<size_t>((b * hw + p) * ch + c)] =
            static_cast<int8_t>(source->i[static_cast<size_t>((b * ch + c) * hw + p)] - offset);
  return uploadBytes(bytes.data(), bytes.size());
}

Kernel quantizedConvolution(Kernel cpu, QMode mode) {
  return [cpu, mode](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    bool to_float = mode == QMode::kFloat;
    if (!isInt8(x.dtype) || x.shape.size() != 4 || c.inputCount() < (to_float ? 6u : 8u) ||
        !c.state() || c.input(3).shape.size() != 4 || c.input(3).isFloat())
      return onHost(cpu, c);
    ConvGeometry g = convGeometry(c, x, c.input(3));
    const Window& win = g.win;
    if (win.pads[0] != win.pads[2] || win.pads[1] != win.pads[3]) return onHost(cpu, c);
    QConvPlan& plan = c.plan<QConvPlan>(
        [&](const QConvPlan& kept) {
          return kept.src_shape == x.shape && kept.src_type == x.dtype;
        },
        [&] { return planQuantizedConvolution(c, g, x, mode); });
    if (plan.cpu) return onHost(cpu, c, plan.host);
    Context& ctx = context();
    auto input = bytesOnDevice(x, plan.offset);
    size_t out_count = static_cast<size_t>(g.n * g.cout * g.oh * g.ow);
    auto acc = std::make_shared<Buffer>(out_count * sizeof(float));
    check(cudnnConvolutionForward(ctx.cudnn, &kOne, plan.x.d, input->data(), plan.w.d,
                                  plan.weights->data(), plan.conv.d, plan.algo,
                                  plan.workspace ? plan.workspace->data() : nullptr,
                                  plan.workspace_bytes, &kZero, plan.y.d, acc->data()),
          "cudnnConvolutionForward (int8)");
    QuantizedEpilogue e = plan.epilogue;
    e.acc = acc->floats();
    e.correction = plan.correction ? plan.correction->floats() : nullptr;
    e.multiplier = static_cast<const double*>(plan.multiplier->data());
    e.int_bias = plan.int_bias ? static_cast<const double*>(plan.int_bias->data()) : nullptr;
    e.real_bias = plan.real_bias ? static_cast<const double*>(plan.real_bias->data()) : nullptr;
    e.n = g.n;
    e.hw = g.oh * g.ow;
    e.k = g.cout;
    std::vector<int64_t> out_shape = {g.n, g.cout, g.oh, g.ow};
    std::shared_ptr<Buffer> addend;
    if (to_float) {
      if (const Value* a = c.optionalInput(7)) {
        addend = onDevice(*a);
        e.addend = addend->floats();
      }
      auto output = std::make_shared<Buffer>(out_count * sizeof(float));
      e.out = output->data();
      launchQuantizedEpilogue(e, ctx.stream);
      return outputs(deviceValue(std::move(output), out_shape));
    }
    if (const Value* z = mode == QMode::kInt8Activation ? c.optionalInput(9) : nullptr) {
      e.addend_offset = z->dtype == ir::DType::kUInt8 ? 128 : 0;
      addend = bytesOnDevice(*z, e.addend_offset);
      e.addend8 = static_cast<const signed char*>(addend->data());
    }
    auto output = std::make_shared<Buffer>(out_count);
    e.out = output->data();
    launchQuantizedEpilogue(e, ctx.stream);
    Value y;
    y.dtype = plan.dst_type;
    y.shape = out_shape;
    y.native = std::make_shared<DeviceBytes>(std::move(output), out_shape, e.y_offset);
    return outputs(std::move(y));
  };
}

// ---- batch normalization (inference) ----

Kernel batchNorm(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    double eps = c.floatAttribute("epsilon", 1e-5f);
    if (!x.isFloat() || x.shape.size() < 2 || x.shape.size() > 4 || !c.tensor("weight") ||
        !c.tensor("running_mean") || eps < CUDNN_BN_MIN_EPSILON || !c.state() ||
        c.intAttribute("training_mode", 0) != 0)
      return onHost(cpu, c);
    Uploaded& kept = stateOf<Uploaded>(c);
    auto scale = parameterOnDevice(c, "weight", kept), bias = parameterOnDevice(c, "bias", kept);
    auto mean = parameterOnDevice(c, "running_mean", kept);
    auto var = parameterOnDevice(c, "running_var", kept);
    if (!scale || !bias || !mean || !var) return onHost(cpu, c, kept.host);
    int64_t h = x.shape.size() > 2 ? x.shape[2] : 1, w = x.shape.size() > 3 ? x.shape[3] : 1;
    TensorDesc desc, params;
    desc.set(x.shape[0], x.shape[1], h, w);
    check(cudnnDeriveBNTensorDescriptor(params.d, desc.d, CUDNN_BATCHNORM_SPATIAL),
          "cudnnDeriveBNTensorDescriptor");
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(elementCount(x.shape) * sizeof(float));
    Context& ctx = context();
    check(cudnnBatchNormalizationForwardInference(ctx.cudnn, CUDNN_BATCHNORM_SPATIAL, &kOne, &kZero,
                                                  desc.d, input->data(), desc.d, output->data(),
                                                  params.d, scale->data(), bias->data(),
                                                  mean->data(), var->data(), eps),
          "cudnnBatchNormalizationForwardInference");
    return outputs(deviceValue(std::move(output), x.shape));
  };
}

// ---- pooling ----

Value pool(const Value& x, cudnnPoolingMode_t mode, int kh, int kw, int ph, int pw, int sh, int sw,
           int64_t oh, int64_t ow) {
  PoolDesc pooling;
  check(
      cudnnSetPooling2dDescriptor(pooling.d, mode, CUDNN_NOT_PROPAGATE_NAN, kh, kw, ph, pw, sh, sw),
      "cudnnSetPooling2dDescriptor");
  TensorDesc in, out;
  in.set(x.shape[0], x.shape[1], x.shape[2], x.shape[3]);
  int n = 0, c = 0, h = 0, w = 0;
  check(cudnnGetPooling2dForwardOutputDim(pooling.d, in.d, &n, &c, &h, &w),
        "cudnnGetPooling2dForwardOutputDim");
  if (h != oh || w != ow) throw std::logic_error("pooling output size");  // caller checked
  out.set(n, c, h, w);
  auto input = onDevice(x);
  std::vector<int64_t> shape = {x.shape[0], x.shape[1], oh, ow};
  auto output = std::make_shared<Buffer>(elementCount(shape) * sizeof(float));
  check(cudnnPoolingForward(context().cudnn, pooling.d, &kOne, in.d, input->data(), &kZero, out.d,
                            output->data()),
        "cudnnPoolingForward");
  return deviceValue(std::move(output), shape);
}

template <bool kMax>
Kernel pooling(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat() || x.shape.size() != 4 || (kMax && c.outputUsed(1))) return onHost(cpu, c);
    PoolGeometry g = poolGeometry(c, x);
    const Window& win = g.win;
    // cuDNN pads symmetrically, has no dilation, and rounds output sizes down.
    bool fits = win.pads[0] == win.pads[2] && win.pads[1] == win.pads[3] && win.dilations[0] == 1 &&
                win.dilations[1] == 1 &&
                g.oh == (g.h + 2 * win.pads[0] - win.kernel[0]) / win.strides[0] + 1 &&
                g.ow == (g.w + 2 * win.pads[1] - win.kernel[1]) / win.strides[1] + 1;
    if (!fits) return onHost(cpu, c);
    cudnnPoolingMode_t mode = kMax            ? CUDNN_POOLING_MAX
                              : g.include_pad ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                              : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    auto i = [](int64_t v) { return static_cast<int>(v); };
    return outputs(pool(x, mode, i(win.kernel[0]), i(win.kernel[1]), i(win.pads[0]), i(win.pads[1]),
                        i(win.strides[0]), i(win.strides[1]), g.oh, g.ow));
  };
}

Kernel globalAveragePool(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    const ir::Argument* size = c.attribute("output_size");
    bool global =
        !size ||
        (size->isSequence() &&
         std::all_of(size->items().begin(), size->items().end(), [](const ir::Argument& a) {
           return a.kind() == ir::Argument::Kind::kInt && a.toInt() == 1;
         }));
    if (!x.isFloat() || x.shape.size() != 4 || !global) return onHost(cpu, c);
    return outputs(pool(x, CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                        static_cast<int>(x.shape[2]), static_cast<int>(x.shape[3]), 0, 0, 1, 1, 1,
                        1));
  };
}

// ---- activations ----

Kernel cudnnActivation(Kernel cpu, cudnnActivationMode_t mode) {
  return [cpu, mode](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat()) return onHost(cpu, c);
    size_t n = elementCount(x.shape);
    TensorDesc desc;
    desc.set(1, 1, 1, static_cast<int64_t>(n));
    ActivationDesc act(mode);
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(n * sizeof(float));
    if (n)
      check(cudnnActivationForward(context().cudnn, act.d, &kOne, desc.d, input->data(), &kZero,
                                   desc.d, output->data()),
            "cudnnActivationForward");
    return outputs(deviceValue(std::move(output), x.shape));
  };
}

Kernel unary(Kernel cpu, Unary op_) {
  return [cpu, op_](const KernelContext& c) -> std::vector<Value> {
    Unary op = op_;
    const Value& x = c.input(0);
    if (!x.isFloat()) return onHost(cpu, c);
    float a = 0, b = 0;
    switch (op) {
      case Unary::kLeakyRelu:
        a = c.floatAttribute("alpha", 0.01f);
        break;
      case Unary::kHardSigmoid:
        a = c.floatAttribute("alpha", 0.2f);
        b = c.floatAttribute("beta", 0.5f);
        break;
      case Unary::kClip: {
        // The CPU kernel's bounds (inputs, module tensors or attributes), read on the host.
        for (size_t k = 1; k < c.inputCount(); ++k) {
          const Value* bound = c.optionalInput(k);
          if (bound && (bound->native || !bound->isFloat())) return onHost(cpu, c);
        }
        std::tie(a, b) = clipBounds(c);
        break;
      }
      case Unary::kGelu:
      case Unary::kGeluTanh: {
        std::string approximate = c.stringAttribute("approximate", "none");
        if (approximate != "none" && approximate != "tanh") return onHost(cpu, c);  // its error
        if (approximate == "tanh") op = Unary::kGeluTanh;
        break;
      }
      default:
        break;
    }
    size_t n = elementCount(x.shape);
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(n * sizeof(float));
    if (n) launchUnary(op, input->floats(), output->floats(), n, a, b, context().stream);
    return outputs(deviceValue(std::move(output), x.shape));
  };
}

// ---- layer normalization ----

Kernel layerNorm(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    const Value* scale = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    const Value* bias = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    if (!x.isFloat() || x.shape.empty() || c.intAttribute("stash_type", 1) != 1 || !c.state())
      return onHost(cpu, c);
    size_t axis = normalizeAxis(c.intAttribute("axis", -1), x.shape.size());
    int64_t inner = 1;
    for (size_t d = axis; d < x.shape.size(); ++d) inner *= x.shape[d];
    for (const Value* affine : {scale, bias}) {
      if (affine && (affine->native || !affine->isFloat() ||
                     (affine->numel() != 1 && affine->numel() != inner)))
        return onHost(cpu, c);  // the CPU kernel's answer or error
    }
    int64_t rows = 1;  // the dimensions before the axis (an empty row still counts)
    for (size_t d = 0; d < axis; ++d) rows *= x.shape[d];
    if (inner == 0) return onHost(cpu, c);
    std::vector<int64_t> row_shape = x.shape;
    for (size_t d = axis; d < row_shape.size(); ++d) row_shape[d] = 1;
    Uploaded& kept = stateOf<Uploaded>(c);
    auto affineOnDevice = [&](const Value* v, const char* name) -> std::shared_ptr<Buffer> {
      if (!v) return nullptr;
      return c.tensor(name) ? parameterOnDevice(c, name, kept) : onDevice(*v);
    };
    auto scale_dev = affineOnDevice(scale, "weight"), bias_dev = affineOnDevice(bias, "bias");
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(elementCount(x.shape) * sizeof(float));
    auto means = std::make_shared<Buffer>(static_cast<size_t>(rows) * sizeof(float));
    auto inv_stds = std::make_shared<Buffer>(static_cast<size_t>(rows) * sizeof(float));
    launchLayerNorm(input->floats(), output->floats(), means->floats(), inv_stds->floats(), rows,
                    inner, scale_dev ? scale_dev->floats() : nullptr, scale ? scale->numel() : 0,
                    bias_dev ? bias_dev->floats() : nullptr, bias ? bias->numel() : 0,
                    c.floatAttribute("epsilon", 1e-5f), context().stream);
    return outputs(deviceValue(std::move(output), x.shape),
                   deviceValue(std::move(means), row_shape),
                   deviceValue(std::move(inv_stds), row_shape));
  };
}

// ---- softmax ----

Kernel softmax(Kernel cpu, cudnnSoftmaxAlgorithm_t algorithm) {
  return [cpu, algorithm](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat() || x.shape.empty() || c.opset() == 0) return onHost(cpu, c);
    NormalizedExtent e = normalizedExtent(c, x);
    // Softmax over the channel axis of [outer, extent, inner, 1].
    TensorDesc desc;
    desc.set(e.outer, e.extent, e.inner, 1);
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(elementCount(x.shape) * sizeof(float));
    check(cudnnSoftmaxForward(context().cudnn, algorithm, CUDNN_SOFTMAX_MODE_CHANNEL, &kOne, desc.d,
                              input->data(), &kZero, desc.d, output->data()),
          "cudnnSoftmaxForward");
    return outputs(deviceValue(std::move(output), x.shape));
  };
}

// ---- matrix products (cuBLAS, row-major through the column-major transpose identity) ----

// y[m×n] = op(a)·op(b), row-major.
void gemmRowMajor(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                  const float* a, const float* b, float* y) {
  Context& ctx = context();
  check(cublasSgemm(ctx.cublas, trans_b ? CUBLAS_OP_T : CUBLAS_OP_N,
                    trans_a ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                    static_cast<int>(k), &alpha, b, static_cast<int>(trans_b ? k : n), a,
                    static_cast<int>(trans_a ? m : k), &kZero, y, static_cast<int>(n)),
        "cublasSgemm");
}

Kernel gemm(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& a = c.input(0);
    const Value* b = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    const Value* bias = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    bool trans_a = c.intAttribute("transA", 0) != 0, trans_b = c.intAttribute("transB", 0) != 0;
    float alpha = c.floatAttribute("alpha", 1.0f), beta = c.floatAttribute("beta", 1.0f);
    if (!a.isFloat() || a.shape.empty() || !b || !b->isFloat() || b->shape.size() != 2 ||
        (trans_a && a.shape.size() != 2) || (bias && beta != 1.0f) || !c.state())
      return onHost(cpu, c);
    int64_t k = trans_a ? a.shape[0] : a.shape.back();
    int64_t m = a.numel() / std::max<int64_t>(k, 1);
    int64_t kb = trans_b ? b->shape[1] : b->shape[0], n = trans_b ? b->shape[0] : b->shape[1];
    if (kb != k) return onHost(cpu, c);  // the CPU kernel's error
    std::vector<int64_t> shape = a.shape;
    if (trans_a) shape = {a.shape[1], a.shape[0]};
    shape.back() = n;
    Uploaded& kept = stateOf<Uploaded>(c);
    auto b_dev = c.tensor("weight") ? parameterOnDevice(c, "weight", kept) : onDevice(*b);
    auto a_dev = onDevice(a);
    auto output = std::make_shared<Buffer>(static_cast<size_t>(m * n) * sizeof(float));
    gemmRowMajor(trans_a, trans_b, m, n, k, alpha, a_dev->floats(), b_dev->floats(),
                 output->floats());
    if (bias) {
      // + C broadcast to [M, N].
      std::vector<int64_t> cs = bias->shape;
      if (cs.size() > 2) return onHost(cpu, c, kept.host);
      cs.insert(cs.begin(), 2 - cs.size(), 1);
      if ((cs[0] != 1 && cs[0] != m) || (cs[1] != 1 && cs[1] != n))
        return onHost(cpu, c, kept.host);
      auto c_dev = c.tensor("bias") ? parameterOnDevice(c, "bias", kept) : onDevice(*bias);
      launchBinary(Binary::kAdd, output->floats(), c_dev->floats(), output->floats(), {m, n},
                   {n, 1}, {cs[0] == 1 ? 0 : cs[1], cs[1] == 1 ? 0 : 1}, context().stream);
    }
    return outputs(deviceValue(std::move(output), shape));
  };
}

Kernel matmul(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& a = c.input(0);
    const Value& b = c.input(1);
    if (!a.isFloat() || !b.isFloat() || a.shape.size() < 2 || b.shape.size() < 2)
      return onHost(cpu, c);
    int64_t m = a.shape[a.shape.size() - 2], k = a.shape.back(), n = b.shape.back();
    if (b.shape[b.shape.size() - 2] != k) return onHost(cpu, c);
    // Batches: B shared (2-D) or the same batch dimensions on both sides.
    std::vector<int64_t> batch_a(a.shape.begin(), a.shape.end() - 2);
    std::vector<int64_t> batch_b(b.shape.begin(), b.shape.end() - 2);
    if (!batch_b.empty() && batch_a != batch_b) return onHost(cpu, c);
    int64_t count = 1;
    for (int64_t d : batch_a) count *= d;
    std::vector<int64_t> shape = batch_a;
    shape.push_back(m);
    shape.push_back(n);
    auto a_dev = onDevice(a), b_dev = onDevice(b);
    auto output = std::make_shared<Buffer>(elementCount(shape) * sizeof(float));
    Context& ctx = context();
    check(cublasSgemmStridedBatched(
              ctx.cublas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
              static_cast<int>(k), &kOne, b_dev->floats(), static_cast<int>(n),
              batch_b.empty() ? 0 : k * n, a_dev->floats(), static_cast<int>(k), m * k, &kZero,
              output->floats(), static_cast<int>(n), m * n, static_cast<int>(count)),
          "cublasSgemmStridedBatched");
    return outputs(deviceValue(std::move(output), shape));
  };
}

// ---- broadcasting arithmetic ----

Kernel binary(Kernel cpu, Binary op) {
  return [cpu, op](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() != 2 || c.attribute("broadcast") || c.attribute("axis"))
      return onHost(cpu, c);
    const Value& a = c.input(0);
    const Value& b = c.input(1);
    if (!a.isFloat() || !b.isFloat()) return onHost(cpu, c);
    size_t rank = std::max(a.shape.size(), b.shape.size());
    if (rank > 6) return onHost(cpu, c);
    std::vector<int64_t> shape(rank), sa(rank, 0), sb(rank, 0);
    std::vector<int64_t> own_a = stridesOf(a.shape), own_b = stridesOf(b.shape);
    for (size_t d = 0; d < rank; ++d) {
      int64_t da = d + a.shape.size() >= rank ? a.shape[d + a.shape.size() - rank] : 1;
      int64_t db = d + b.shape.size() >= rank ? b.shape[d + b.shape.size() - rank] : 1;
      if (da != db && da != 1 && db != 1) return onHost(cpu, c);  // the CPU kernel's error
      shape[d] = da == 1 ? db : da;
      if (d + a.shape.size() >= rank && da != 1) sa[d] = own_a[d + a.shape.size() - rank];
      if (d + b.shape.size() >= rank && db != 1) sb[d] = own_b[d + b.shape.size() - rank];
    }
    auto a_dev = onDevice(a), b_dev = onDevice(b);
    auto output = std::make_shared<Buffer>(elementCount(shape) * sizeof(float));
    launchBinary(op, a_dev->floats(), b_dev->floats(), output->floats(), shape, sa, sb,
                 context().stream);
    return outputs(deviceValue(std::move(output), shape));
  };
}

// ---- views and copies ----

// Reshape, Flatten, (Un)squeeze, Identity, inference Dropout: the CPU kernel computes the shape
// (from the input's shape alone), the device buffer is shared.
Kernel view(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat()) return onHost(cpu, c);
    // The CPU kernels of these ops read only the input's shape; given no elements they copy
    // none, and the device buffer is shared.
    Value shape_only;
    shape_only.shape = x.shape;
    std::vector<const Value*> inputs = {&shape_only};
    for (size_t k = 1; k < c.inputCount(); ++k) {
      const Value* v = c.optionalInput(k);
      if (v && v->native) return onHost(cpu, c);
      inputs.push_back(v);
    }
    auto result = cpu(c.withInputs(inputs));
    return outputs(deviceValue(onDevice(x), result.at(0).shape));
  };
}

// Shape and Size read only the input's shape: no copy of its elements to the host.
Kernel shapeOnly(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() != 1) return onHost(cpu, c);
    Value shape_only;
    shape_only.shape = c.input(0).shape;
    std::vector<const Value*> inputs = {&shape_only};
    return cpu(c.withInputs(inputs));
  };
}

Kernel permute(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    std::vector<int64_t> perm = c.intsAttribute("perm", {});
    if (perm.empty()) {
      perm.resize(rank);
      for (size_t d = 0; d < rank; ++d) perm[d] = static_cast<int64_t>(rank - 1 - d);
    }
    if (!x.isFloat() || rank > 6 || perm.size() != rank) return onHost(cpu, c);
    std::vector<int64_t> in_strides = stridesOf(x.shape), shape(rank), strides(rank);
    std::vector<bool> seen(rank, false);
    for (size_t d = 0; d < rank; ++d) {
      size_t from = normalizeAxis(perm[d], rank);  // throws the CPU kernel's error
      if (seen[from]) return onHost(cpu, c);       // not a permutation: the CPU kernel's answer
      seen[from] = true;
      shape[d] = x.shape[from];
      strides[d] = in_strides[from];
    }
    auto input = onDevice(x);
    auto output = std::make_shared<Buffer>(elementCount(shape) * sizeof(float));
    launchStridedCopy(input->floats(), output->floats(), shape, strides, context().stream);
    return outputs(deviceValue(std::move(output), shape));
  };
}

Kernel concat(Kernel cpu) {
  return [cpu](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() == 0) return onHost(cpu, c);
    const Value& first = c.input(0);
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      if (!v.isFloat() || v.shape.size() != first.shape.size()) return onHost(cpu, c);
    }
    size_t axis = normalizeAxis(c.intAttribute("axis", 0), first.shape.size());
    int64_t outer = 1, inner = 1, total = 0;
    for (size_t d = 0; d < axis; ++d) outer *= first.shape[d];
    for (size_t d = axis + 1; d < first.shape.size(); ++d) inner *= first.shape[d];
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      for (size_t d = 0; d < v.shape.size(); ++d) {
        if (d != axis && v.shape[d] != first.shape[d]) return onHost(cpu, c);
      }
      total += v.shape[axis];
    }
    std::vector<int64_t> shape = first.shape;
    shape[axis] = total;
    auto output = std::make_shared<Buffer>(elementCount(shape) * sizeof(float));
    int64_t offset = 0;
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      auto part = onDevice(v);
      launchConcatPart(part->floats(), output->floats(), outer, v.shape[axis], inner, total, offset,
                       context().stream);
      offset += v.shape[axis];
    }
    return outputs(deviceValue(std::move(output), shape));
  };
}

}  // namespace

const Table& table() {
  static const Table made = [] {
    const Table& cpu = cpuKernels();
    Table t;
    auto put = [&](std::initializer_list<const char*> keys, auto make) {
      for (const char* key : keys) t[key] = make(cpu.at(key));
    };
    auto conv = [](Fused fused) {
      return [fused](const Kernel& k) { return convolution(k, fused); };
    };
    put({"module:Conv2d"}, conv(Fused::kNone));
    put({"module:ConvReLU2d"}, conv(Fused::kRelu));
    put({"module:ConvAddReLU2d"}, conv(Fused::kAddRelu));
    put({"module:BatchNorm2d"}, batchNorm);
    put({"module:MaxPool2d", "torch.nn.functional.max_pool2d"}, pooling<true>);
    put({"module:AvgPool2d", "torch.nn.functional.avg_pool2d"}, pooling<false>);
    put({"module:AdaptiveAvgPool2d", "torch.nn.functional.adaptive_avg_pool2d"}, globalAveragePool);
    auto act = [](cudnnActivationMode_t mode) {
      return [mode](const Kernel& k) { return cudnnActivation(k, mode); };
    };
    put({"torch.relu", "module:ReLU"}, act(CUDNN_ACTIVATION_RELU));
    put({"torch.sigmoid", "module:Sigmoid"}, act(CUDNN_ACTIVATION_SIGMOID));
    put({"torch.tanh", "module:Tanh"}, act(CUDNN_ACTIVATION_TANH));
    auto un = [](Unary op) { return [op](const Kernel& k) { return unary(k, op); }; };
    put({"torch.nn.functional.hardsigmoid", "module:Hardsigmoid"}, un(Unary::kHardSigmoid));
    put({"torch.nn.functional.hardswish", "module:Hardswish"}, un(Unary::kHardSwish));
    put({"torch.nn.functional.leaky_relu", "module:LeakyReLU"}, un(Unary::kLeakyRelu));
    put({"torch.clamp", "module:Hardtanh"}, un(Unary::kClip));
    put({"torch.erf"}, un(Unary::kErf));
    put({"torch.nn.functional.gelu", "module:GELU"}, un(Unary::kGelu));
    put({"torch.nn.functional.layer_norm", "module:LayerNorm"}, layerNorm);
    auto sm = [](cudnnSoftmaxAlgorithm_t algorithm) {
      return [algorithm](const Kernel& k) { return softmax(k, algorithm); };
    };
    put({"torch.softmax", "module:Softmax"}, sm(CUDNN_SOFTMAX_ACCURATE));
    put({"torch.log_softmax", "module:LogSoftmax"}, sm(CUDNN_SOFTMAX_LOG));
    put({"module:Linear", "onnx.Gemm"}, gemm);
    put({"operator.matmul"}, matmul);
    auto bin = [](Binary op) { return [op](const Kernel& k) { return binary(k, op); }; };
    put({"operator.add", "torch.add"}, bin(Binary::kAdd));
    put({"operator.sub", "torch.sub"}, bin(Binary::kSub));
    put({"operator.mul", "torch.mul"}, bin(Binary::kMul));
    put({"operator.truediv", "torch.div"}, bin(Binary::kDiv));
    put({"torch.flatten", "module:Flatten", "torch.reshape", "torch.squeeze", "torch.unsqueeze",
         "onnx.Identity", "module:Identity", "module:Dropout", "torch.nn.functional.dropout"},
        view);
    put({"torch.cat"}, concat);
    put({"onnx.Shape", "onnx.Size"}, shapeOnly);
    put({"torch.permute"}, permute);
    auto qconv = [](QMode mode) {
      return [mode](const Kernel& k) { return quantizedConvolution(k, mode); };
    };
    put({"onnx.QLinearConv"}, qconv(QMode::kInt8));
    put({"fxc.QLinearConvToFloat"}, qconv(QMode::kFloat));
    put({"fxc.QLinearConvAct"}, qconv(QMode::kInt8Activation));
    return t;
  }();
  return made;
}

}  // namespace fxc::exec::cudnn

extern "C" const fxc::exec::cudnn::Plugin* fxc_cudnn_plugin() {
  using namespace fxc::exec::cudnn;
  static const Plugin plugin = {usable, choosePrecision, [] { return &table(); }};
  return &plugin;
}
