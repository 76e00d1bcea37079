// Fast CPU kernels through oneDNN: 2-D convolution, alone or fused with ReLU (ConvReLU2d) or with
// a residual add and ReLU (ConvAddReLU2d); max/average pooling; and the matrix products behind
// Gemm/Linear/MatMul. A convolution is planned once per input shape and layout: the primitive,
// the weights reordered once into the layout oneDNN picks, the reorders it needs. Its output
// stays in that layout (NativeData) for the next convolution or pooling; the interpreter converts
// it for any other kernel. Each kernel falls back to the reference one for what it does not cover.
#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <type_traits>
#include <unordered_map>

#include "exec/dnnl_common.h"
#include "exec/kernels_internal.h"
#include "exec/quantize.h"

namespace fxc::exec {
namespace onednn {

dnnl::engine& engine() {
  static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  return cpu;
}

dnnl::stream& stream() {
  static dnnl::stream s(engine());
  return s;
}

memory::dims dimsOf(std::initializer_list<int64_t> dims) { return memory::dims(dims); }

// Row-major layout of a rank-1 to rank-6 tensor.
Tag plainTag(size_t rank) {
  static const Tag tags[] = {Tag::a, Tag::ab, Tag::abc, Tag::abcd, Tag::abcde, Tag::abcdef};
  if (rank < 1 || rank > 6) throw ExecError("a rank oneDNN does not take");
  return tags[rank - 1];
}

memory::desc plainDesc(const std::vector<int64_t>& shape, memory::data_type type) {
  return memory::desc(memory::dims(shape.begin(), shape.end()), type, plainTag(shape.size()));
}

// oneDNN's type for int8 and uint8; f32 for anything else.
memory::data_type dnnlType(ir::DType dtype) {
  return dtype == ir::DType::kInt8    ? memory::data_type::s8
         : dtype == ir::DType::kUInt8 ? memory::data_type::u8
                                      : kF32;
}

std::vector<float> DnnlData::plain() const {
  memory::desc desc = data_.get_desc();
  memory::dims dims = desc.dims();
  size_t n = 1;
  for (auto d : dims) n *= static_cast<size_t>(d);
  std::vector<float> out(n);
  memory plain(memory::desc(dims, kF32, plainTag(dims.size())), engine(), out.data());
  dnnl::reorder(data_, plain).execute(stream(), const_cast<memory&>(data_), plain);
  stream().wait();
  return out;
}

// The input as oneDNN memory: its native memory, or a view of its plain elements (float32), or
// a copy of them narrowed to 8 bits (int8/uint8, which a Value holds widened).
memory memoryOf(const Value& x) {
  if (x.native) {
    if (const auto* data = dynamic_cast<const DnnlData*>(x.native.get())) return data->data();
    throw ExecError("a value in a layout oneDNN does not know");
  }
  if (isInt8(x.dtype)) {
    memory narrow(plainDesc(x.shape, dnnlType(x.dtype)), engine());
    if (x.dtype == ir::DType::kUInt8) {
      auto* out = static_cast<uint8_t*>(narrow.get_data_handle());
      for (size_t k = 0; k < x.i.size(); ++k) out[k] = static_cast<uint8_t>(x.i[k]);
    } else {
      auto* out = static_cast<int8_t*>(narrow.get_data_handle());
      for (size_t k = 0; k < x.i.size(); ++k) out[k] = static_cast<int8_t>(x.i[k]);
    }
    return narrow;
  }
  return memory(plainDesc(x.shape), engine(), const_cast<float*>(x.f.data()));
}

// A value for memory `data` of `shape`: plain elements when its layout is plain, else native
// (always native for 8-bit integers).
Value valueOf(memory data, const std::vector<int64_t>& shape, std::vector<float> plain_storage,
              ir::DType dtype) {
  Value y;
  y.dtype = dtype;
  y.shape = shape;
  if (plain_storage.empty()) {
    y.native = std::make_shared<DnnlData>(std::move(data));
  } else {
    y.f = std::move(plain_storage);
  }
  return y;
}

SerialScope::SerialScope(bool serial) {
  if (serial && omp_get_max_threads() > 1) {
    restore_ = omp_get_max_threads();
    omp_set_num_threads(1);
  }
}

SerialScope::~SerialScope() {
  if (restore_ > 0) omp_set_num_threads(restore_);
}
}  // namespace onednn

namespace {

using namespace onednn;

void dnnlProduct(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a,
                 const float* b, float* y) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(y, y + m * n, 0.0f);
    return;
  }
  // A small product on the calling thread (kSerialFlops); oneDNN's sgemm takes row-major matrices.
  SerialScope scope(2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) <
                    kSerialFlops);
  if (dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, 1.0f, a, trans_a ? m : k, b,
                 trans_b ? k : n, 0.0f, y, n) != dnnl_success)
    throw ExecError("oneDNN's sgemm failed");
}

// A reorder from the layout an input came in to the one a primitive wants (none when equal),
// kept for the next run with the same input layout.
struct Relayout {
  memory::desc from, to;
  bool needed = false;
  dnnl::reorder reorder;

  memory apply(const memory& input) {
    memory::desc desc = input.get_desc();
    if (!(desc == from)) {
      from = desc;
      needed = !(from == to);
      if (needed)
        reorder = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), from, engine(), to));
    }
    if (!needed) return input;
    memory out(to, engine());
    reorder.execute(stream(), const_cast<memory&>(input), out);
    return out;
  }
};

// A plan has packed the node's weight and bias `b` (when it has one): when both are the module's
// (not inputs, constant or computed), the interpreter's copies can go. Whether they will.
bool releasePacked(const KernelContext& c, const Value* b) {
  if (!c.tensor("weight") || (b && !c.tensor("bias")) || !c.releaseTensor("weight")) return false;
  if (b) c.releaseTensor("bias");
  return true;
}

// Fused activation and residual add after a convolution.
enum class Fused { kNone, kRelu, kAddRelu, kActivation };

// The eltwise post-op of a ConvAct2d: its activation's, with the activation's parameters (the
// module's constants); nullopt: none (the reference kernel runs the node).
std::optional<Eltwise> postOpOf(const KernelContext& c) {
  ir::Kwargs attributes;
  const std::string& activation = fusedActivation(c, attributes);
  return eltwiseOf(activation, activationContext(c, {}, attributes));
}

// What a convolution node keeps between runs.
struct ConvPlan {
  // What the plan was made for: a weight (and its bias) computed at run time may change shape
  // with the input unchanged (a Loop growing it), and the plan's buffers are of the old shape.
  std::vector<int64_t> src_shape, weight_shape;
  std::vector<int64_t> out_shape;
  bool use_reference = false;  // oneDNN has no implementation for this case
  bool has_bias = false;
  // The module's weight and bias are in `weights` and `bias`: the interpreter's copies were
  // given back, and runs on an input of src_shape do not ask for them.
  bool released = false;
  bool serial = false;
  dnnl::primitive conv;  // a convolution, or a deconvolution (ConvTranspose)
  memory::desc dst;
  bool dst_plain = false;
  memory::desc user_weights;
  memory weights, bias;
  Relayout src;
};

// A forward-inference convolution of geometry `g` — or, `transposed`, oneDNN's deconvolution
// (ConvTranspose) — on descriptors of the given types (Tag::any: oneDNN picks the layouts), with
// `attr`; throws dnnl::error where oneDNN has no implementation. An output_padding needs nothing
// more: oneDNN checks a deconvolution's sizes with a floor division, which leaves room for it.
struct ConvPrimitive {
  dnnl::primitive primitive;
  memory::desc src, weights, bias, dst;  // the layouts it picked
  memory::desc user_weights;             // the model's weight: OIHW, or W [C_in, C_out/g, …]
};
ConvPrimitive makeConvolution(const ConvGeometry& g, bool transposed, memory::data_type src_type,
                              memory::data_type weight_type, memory::data_type bias_type, bool bias,
                              memory::data_type dst_type, const dnnl::primitive_attr& attr) {
  const Window& win = g.win;
  memory::dims weight_dims = g.groups == 1
                                 ? dimsOf({g.cout, g.cin_g, g.kh, g.kw})
                                 : dimsOf({g.groups, g.cout / g.groups, g.cin_g, g.kh, g.kw});
  memory::desc src(dimsOf({g.n, g.cin, g.h, g.w}), src_type, Tag::any);
  memory::desc weights(weight_dims, weight_type, Tag::any);
  memory::desc bias_md = bias ? memory::desc(dimsOf({g.cout}), bias_type, Tag::x) : memory::desc();
  memory::desc dst(dimsOf({g.n, g.cout, g.oh, g.ow}), dst_type, Tag::any);
  memory::dims strides = dimsOf({win.strides[0], win.strides[1]});
  memory::dims dilations = dimsOf({win.dilations[0] - 1, win.dilations[1] - 1});
  memory::dims begin = dimsOf({win.pads[0], win.pads[1]}), end = dimsOf({win.pads[2], win.pads[3]});
  ConvPrimitive out;
  auto made = [&](const auto& pd, auto primitive) {
    out.primitive = primitive;
    out.src = pd.src_desc();
    out.weights = pd.weights_desc();
    out.bias = pd.bias_desc();
    out.dst = pd.dst_desc();
  };
  using K = dnnl::prop_kind;
  if (transposed) {
    dnnl::deconvolution_forward::primitive_desc pd(
        dnnl::deconvolution_forward::desc(K::forward_inference,
                                          dnnl::algorithm::deconvolution_direct, src, weights,
                                          bias_md, dst, strides, dilations, begin, end),
        attr, engine());
    made(pd, dnnl::deconvolution_forward(pd));
  } else {
    dnnl::convolution_forward::primitive_desc pd(
        dnnl::convolution_forward::desc(K::forward_inference, dnnl::algorithm::convolution_direct,
                                        src, weights, bias_md, dst, strides, dilations, begin, end),
        attr, engine());
    made(pd, dnnl::convolution_forward(pd));
  }
  Tag user = transposed ? (g.groups == 1 ? Tag::iohw : Tag::giohw)
                        : (g.groups == 1 ? Tag::oihw : Tag::goihw);
  out.user_weights = memory::desc(weight_dims, weight_type, user);
  return out;
}

std::shared_ptr<ConvPlan> planConvolution(const ConvGeometry& g, const Value* b, Fused fused,
                                          const Eltwise& post, bool transposed) {
  auto plan = std::make_shared<ConvPlan>();
  dnnl::post_ops ops;
  if (fused == Fused::kAddRelu) ops.append_sum(1.0f);  // dst holds the residual before the run
  if (fused == Fused::kActivation)
    post.appendTo(ops);
  else if (fused != Fused::kNone)
    ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  ConvPrimitive made = makeConvolution(g, transposed, kF32, kF32, kF32, b != nullptr, kF32, attr);
  plan->conv = made.primitive;
  plan->dst = made.dst;
  plan->dst_plain = plan->dst == plainDesc({g.n, g.cout, g.oh, g.ow});
  plan->src.to = made.src;
  plan->user_weights = made.user_weights;
  plan->weights = memory(made.weights, engine());
  if (b) {
    plan->bias = memory(made.bias, engine());
    std::memcpy(plan->bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));
  }
  return plan;
}

void reorderWeights(ConvPlan& plan, const Value& w) {
  memory user(plan.user_weights, engine(), const_cast<float*>(w.f.data()));
  dnnl::reorder(user, plan.weights).execute(stream(), user, plan.weights);
  stream().wait();
}

// oneDNN's sum post-op adds what dst holds: `addend` copied into dst, in dst's layout.
void fillForSum(const Value& addend, memory& dst) {
  memory from = memoryOf(addend);
  if (from.get_desc() == dst.get_desc()) {
    std::memcpy(dst.get_data_handle(), from.get_data_handle(), dst.get_desc().get_size());
  } else {
    dnnl::reorder(from, dst).execute(stream(), from, dst);
  }
}

// Runs a made plan on `x` (plain or in oneDNN's layout), adding `residual` (ConvAddReLU2d).
Value runConvolution(ConvPlan& plan, const Value& x, const Value* residual) {
  SerialScope scope(plan.serial);
  std::vector<float> plain_storage;
  memory dst;
  if (plan.dst_plain) {
    plain_storage.resize(static_cast<size_t>(checkedNumel(plan.out_shape)));
    dst = memory(plan.dst, engine(), plain_storage.data());
  } else {
    dst = memory(plan.dst, engine());
  }
  if (residual) fillForSum(*residual, dst);
  std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, plan.src.apply(memoryOf(x))},
                                          {DNNL_ARG_WEIGHTS, plan.weights},
                                          {DNNL_ARG_DST, dst}};
  if (plan.has_bias) args[DNNL_ARG_BIAS] = plan.bias;
  plan.conv.execute(stream(), args);
  stream().wait();
  return valueOf(std::move(dst), plan.out_shape, std::move(plain_storage));
}

Kernel convolution(Kernel reference, Fused fused, bool transposed = false) {
  return [reference, fused, transposed](const KernelContext& c) -> std::vector<Value> {
    const Value& x = requireFloat(c.input(0), "the input");
    const Value* residual = fused == Fused::kAddRelu ? &c.input(1) : nullptr;
    // The plan made on the module's weight and bias: all but the input and the addend were
    // checked when it was made.
    if (ConvPlan* kept = c.keptPlan<ConvPlan>();
        kept && kept->released && x.shape == kept->src_shape &&
        (!residual || (residual->isFloat() && residual->shape == kept->out_shape)))
      return outputs(runConvolution(*kept, x, residual));
    const Value* module_weight = c.tensor("weight");
    const Value* w = module_weight ? module_weight : c.optionalInput(1);
    // A module's weight or a constant input: reordered once, when the plan is made.
    bool constant_weight = module_weight || c.constantInput(1);
    const Value* b = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    if (!w || !w->isFloat() || w->native || x.shape.size() != 4 || w->shape.size() != 4 ||
        (b && (!b->isFloat() || b->native)) || !c.state())
      return onPlainInputs(reference, c);
    std::optional<ConvGeometry> geometry =
        transposed ? transposedGeometry(c, x.shape, w->shape) : convGeometry(c, x, *w);
    if (!geometry || (b && b->numel() != geometry->cout))
      return onPlainInputs(reference, c);  // the N-d kernel, or the reference's error
    const ConvGeometry& g = *geometry;
    std::vector<int64_t> out_shape = {g.n, g.cout, g.oh, g.ow};
    if (residual && (!residual->isFloat() || residual->shape != out_shape))
      return onPlainInputs(reference, c);  // the reference's error
    ConvPlan& plan = c.plan<ConvPlan>(
        [&](const ConvPlan& kept) {
          return kept.src_shape == x.shape && kept.weight_shape == w->shape;
        },
        [&] {
          std::shared_ptr<ConvPlan> made;
          // A ConvAct2d's activation is the module's: one post-op per plan.
          std::optional<Eltwise> post;
          if (fused == Fused::kActivation) post = postOpOf(c);
          double flops = 2.0 * static_cast<double>(g.n * g.cout * g.oh * g.ow) *
                         static_cast<double>(g.cin_g * g.kh * g.kw);
          bool serial = flops < kSerialFlops;
          SerialScope scope(serial);
          try {
            if (fused != Fused::kActivation || post) {
              made = planConvolution(g, b, fused, post.value_or(Eltwise{}), transposed);
              if (constant_weight) reorderWeights(*made, *w);
            }
          } catch (const dnnl::error&) {
            made = nullptr;
          }
          if (!made) {
            made = std::make_shared<ConvPlan>();
            made->use_reference = true;
          }
          made->src_shape = x.shape;
          made->serial = serial;
          made->weight_shape = w->shape;
          made->out_shape = out_shape;
          made->has_bias = b != nullptr;
          return made;
        });
    if (plan.use_reference) return onPlainInputs(reference, c);
    if (!constant_weight) reorderWeights(plan, *w);  // a weight computed at run time
    if (b && !c.tensor("bias"))                      // likewise a bias
      std::memcpy(plan.bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));
    if (!plan.released) plan.released = releasePacked(c, b);
    return outputs(runConvolution(plan, x, residual));
  };
}

// QLinearConv on oneDNN's int8 convolution: uint8/int8 input, int8 weights (zero point 0, one
// scale per tensor or per output channel), int32 bias (fxc.QLinearConvAct's and
// QLinearConvTranspose's may be float, in real units: B[c] / (s_x·s_w[c]) in oneDNN's float
// bias, added to the accumulator before the scales), an 8-bit output. The accumulator is
// rescaled by s_x·s_w[c]/s_y (oneDNN's output scales, rounded to nearest even) and shifted by
// the output's zero point: ONNX's arithmetic, in float where the reference uses double (a
// result on a rounding tie may differ by one unit).
// fxc.QLinearConvToFloat is the same convolution with a float output: the accumulator (plus
// the float bias in its units, B[c] / (s_x·s_w[c])) times s_x·s_w[c], the addend Z by oneDNN's
// sum post-op and ReLU by an eltwise one, all in float.
// fxc.QLinearConvTranspose is QLinearConv's arithmetic on oneDNN's int8 deconvolution.
// Every parameter must be a constant of the model (the addend excepted): the primitive is made
// for their values once. Anything else runs the reference kernel.
struct QConvPlan {
  std::vector<int64_t> src_shape;
  ir::DType src_type = ir::DType::kUndefined;
  // QLinearConvAct's 8-bit addend as the binary post-op reads it: channels-last, the layout of
  // oneDNN's int8 convolution outputs (one in another layout, e.g. a plain one from a float op,
  // is reordered first: oneDNN 2.6 runs a binary source in a layout other than the output's on
  // its reference convolution, 17 ms instead of 0.03 for a 3 × 3, 32-channel one at 35 × 35).
  memory::desc addend;
  std::vector<int64_t> addend_shape;  // the addend's (float or 8-bit) the plan was made for
  bool use_reference = false;
  dnnl::primitive conv;  // a convolution, or a deconvolution (fxc.QLinearConvTranspose)
  memory::desc dst;
  ir::DType dst_type = ir::DType::kUndefined;
  memory weights, bias, src_zero_point, dst_zero_point;
  Relayout src;
};

// Whether every output pixel of transposed convolution `g` has an input tap (o = i·stride +
// k·dilation − pad_begin along each axis). Where none does (a stride past the kernel, or rows
// only output_padding adds), oneDNN's int8 deconvolution leaves the pixel unwritten — whatever
// the memory held, run to run — where the model's answer is the bias alone.
bool everyOutputReached(const ConvGeometry& g) {
  const Window& win = g.win;
  for (int axis = 0; axis < 2; ++axis) {
    int64_t in = axis ? g.w : g.h, out = axis ? g.ow : g.oh, k = axis ? g.kw : g.kh;
    std::vector<char> reached(static_cast<size_t>(out), 0);
    for (int64_t i = 0; i < in; ++i) {
      for (int64_t t = 0; t < k; ++t) {
        int64_t o = i * win.strides[axis] + t * win.dilations[axis] - win.pads[axis];
        if (o >= 0 && o < out) reached[static_cast<size_t>(o)] = 1;
      }
    }
    if (std::find(reached.begin(), reached.end(), 0) != reached.end()) return false;
  }
  return true;
}

// What a quantized convolution writes: 8-bit values (QLinearConv), float ones
// (QLinearConvToFloat), or 8-bit values after an activation (QLinearConvAct).
enum class QConvOut { kInt8, kFloat, kInt8Activation };

std::shared_ptr<QConvPlan> planQLinearConv(const KernelContext& c, const ConvGeometry& g,
                                           const Value& x, QConvOut out, bool transposed) {
  bool to_float = out == QConvOut::kFloat;
  auto plan = std::make_shared<QConvPlan>();
  plan->src_shape = x.shape;
  plan->src_type = x.dtype;
  plan->use_reference = true;
  const Value &w = c.input(3), &x_scale = c.input(1), &w_scale = c.input(4);
  const Value *x_zp = c.optionalInput(2), *w_zp = c.optionalInput(5);
  const Value *y_scale = to_float ? nullptr : &c.input(6),
              *y_zp = to_float ? nullptr : c.optionalInput(7),
              *b = c.optionalInput(to_float ? 6 : 8);
  bool with_activation = out == QConvOut::kInt8Activation;
  const Value* addend = to_float ? c.optionalInput(7) : nullptr;
  // QLinearConvAct's 8-bit addend (its scale and zero point one constant each).
  const Value* addend8 = with_activation ? c.optionalInput(9) : nullptr;
  if (addend || addend8) plan->addend_shape = (addend ? addend : addend8)->shape;
  std::string activation = to_float ? c.stringAttribute("activation", "") : "";
  std::optional<Eltwise> post;  // QLinearConvAct's activation, when it has one
  if (with_activation && c.attribute("activation") && !(post = postOpOf(c))) return plan;
  size_t variable = to_float ? 7 : with_activation ? 9 : c.inputCount();  // not a constant
  for (size_t k = 1; k < c.inputCount(); ++k) {
    if (c.optionalInput(k) && !c.constantInput(k) && k != variable) return plan;
  }
  float z_scale = 1.0f;
  int64_t z_zp = 0;
  if (addend8) {
    const Value *s_z = c.optionalInput(10), *zp_z = c.optionalInput(11);
    if (!isInt8(addend8->dtype) || addend8->shape != dimsOf({g.n, g.cout, g.oh, g.ow}) ||
        !scalarOf(s_z, true) || !(s_z->f[0] > 0) || !std::isfinite(s_z->f[0]) ||
        (zp_z && (!scalarOf(zp_z, false) || zp_z->dtype != addend8->dtype)))
      return plan;
    // With an addend: the activation scaled into the output's units after the sum (a ReLU or a
    // clamp: f(v)/s_y = f'(v/s_y)), or the reference.
    if (post && post->algorithm != dnnl::algorithm::eltwise_relu &&
        post->algorithm != dnnl::algorithm::eltwise_clip_v2)
      return plan;
    if (post && post->algorithm == dnnl::algorithm::eltwise_relu && post->alpha != 0.0f)
      return plan;  // a leaky ReLU
    z_scale = s_z->f[0];
    z_zp = zp_z ? zp_z->i[0] : 0;
    plan->addend =
        memory::desc(dimsOf({g.n, g.cout, g.oh, g.ow}), dnnlType(addend8->dtype), Tag::nhwc);
  }
  if (w.dtype != ir::DType::kInt8 || w.shape.size() != 4 || !scalarOf(&x_scale, true) ||
      (y_scale && !scalarOf(y_scale, true)) ||
      (x_zp && (!scalarOf(x_zp, false) || x_zp->dtype != x.dtype)) ||
      (y_zp && (!scalarOf(y_zp, false) || !isInt8(y_zp->dtype))) || !w_scale.isFloat() ||
      (w_scale.numel() != 1 && w_scale.numel() != g.cout) ||
      (b && (b->numel() != g.cout ||
             (b->dtype != ir::DType::kInt32 && b->dtype != ir::DType::kFloat32) ||
             (to_float && b->dtype != ir::DType::kFloat32) ||
             (out == QConvOut::kInt8 && !transposed && b->dtype != ir::DType::kInt32))) ||
      (addend && (!addend->isFloat() || addend->shape != dimsOf({g.n, g.cout, g.oh, g.ow}))) ||
      (!activation.empty() && activation != "Relu"))
    return plan;
  if (w_zp && (w_zp->isFloat() ||
               std::any_of(w_zp->i.begin(), w_zp->i.end(), [](int64_t z) { return z != 0; })))
    return plan;
  if (transposed && !everyOutputReached(g)) return plan;
  plan->dst_type = to_float ? ir::DType::kFloat32 : y_zp ? y_zp->dtype : ir::DType::kUInt8;
  std::vector<float> scales;
  // QLinearConvAct: the accumulator to real units, the activation, then × 1/s_y (a post-op);
  // with an addend, to its units (s_z), its sum, then one linear step to the output's units;
  // with neither, straight to the output's units as QLinearConv.
  bool no_post_ops = !addend8 && (!with_activation || !post);
  float divisor = addend8 ? z_scale : no_post_ops && y_scale ? y_scale->f[0] : 1.0f;
  bool float_bias = b && b->isFloat();  // in real units: oneDNN's is in the accumulator's
  // oneDNN applies these factors in float, to int32 accumulators and their rescaled values: each
  // must be a normal float that no accumulator (|a| < 2^32) takes past float's range. A scale of
  // 1e-36 (the addend's) or 1e-39 (the output's, denormal: 1/s_y is inf in float) made results
  // saturate; the reference kernel computes those in double.
  auto representable = [](double v) {
    constexpr double kLargest = static_cast<double>(FLT_MAX) / 4294967296.0;
    return v == 0 || (std::fabs(v) >= static_cast<double>(FLT_MIN) && std::fabs(v) <= kLargest);
  };
  for (float s : w_scale.f) {
    double scale = static_cast<double>(x_scale.f[0]) * s / divisor;
    if (!(scale > 0) || !representable(scale)) return plan;  // the reference's error or result
    scales.push_back(static_cast<float>(scale));
  }
  auto s8 = memory::data_type::s8, s32 = memory::data_type::s32;
  try {
    dnnl::primitive_attr attr;
    attr.set_output_scales(scales.size() == 1 ? 0 : 1 << 1, scales);
    // Zero points as run-time arguments, the form oneDNN's CPU convolutions take.
    auto zero_point = [&](int arg, const Value* zp, memory& kept) {
      if (!zp || zp->i[0] == 0) return;
      attr.set_zero_points(arg, 0, {DNNL_RUNTIME_S32_VAL});
      kept = memory(memory::desc({1}, s32, Tag::x), engine());
      *static_cast<int32_t*>(kept.get_data_handle()) = static_cast<int32_t>(zp->i[0]);
    };
    zero_point(DNNL_ARG_SRC, x_zp, plan->src_zero_point);
    zero_point(DNNL_ARG_DST, y_zp, plan->dst_zero_point);
    dnnl::post_ops ops;
    if (addend) ops.append_sum(1.0f);
    if (!activation.empty()) ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
    if (addend8) {
      // (real/s_z + z − z_z)·s_z/s_y, then the activation in the output's units.
      double inverse = 1.0 / static_cast<double>(y_scale->f[0]);
      double alpha = static_cast<double>(z_scale) * inverse;
      if (!representable(inverse) || !representable(alpha) ||
          !representable(alpha * static_cast<double>(z_zp)))
        return plan;
      ops.append_binary(dnnl::algorithm::binary_add, plan->addend);
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, static_cast<float>(alpha),
                         static_cast<float>(-alpha * static_cast<double>(z_zp)));
      if (post && post->algorithm == dnnl::algorithm::eltwise_relu)
        ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      if (post && post->algorithm == dnnl::algorithm::eltwise_clip_v2)
        ops.append_eltwise(1.0f, post->algorithm, static_cast<float>(post->alpha * inverse),
                           static_cast<float>(post->beta * inverse));
    } else if (with_activation && post) {
      double inverse = 1.0 / static_cast<double>(y_scale->f[0]);
      if (!representable(inverse)) return plan;
      if (post->algorithm == dnnl::algorithm::eltwise_linear &&
          post->then == dnnl::algorithm::eltwise_clip_v2) {
        // Hardsigmoid with 1/s_y folded in: clip(α/s_y · x + β/s_y, lo/s_y, hi/s_y). oneDNN
        // 2.6's int8 convolution drops a linear post-op after linear and clip (its result was
        // the clip's, unscaled: int8_test).
        auto scaled = [&](float v) { return static_cast<float>(v * inverse); };
        ops.append_eltwise(1.0f, post->algorithm, scaled(post->alpha), scaled(post->beta));
        ops.append_eltwise(1.0f, post->then, scaled(post->then_alpha), scaled(post->then_beta));
      } else {
        post->appendTo(ops);
        ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, static_cast<float>(inverse),
                           0.0f);
      }
    }
    // QuantizeLinear rounds (half to even), then adds the zero point; oneDNN adds its dst zero
    // point first and rounds the sum, which puts every exact tie (v + ½) on the other neighbour
    // when the zero point is odd (a clamp at −0.3 with s_y = 0.2: −1.5 → −2, oneDNN's −1). The
    // round as the last post-op makes the sum integer first.
    if (y_zp && y_zp->i[0] != 0) ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_round, 0, 0);
    attr.set_post_ops(ops);
    ConvPrimitive made =
        makeConvolution(g, transposed, dnnlType(x.dtype), s8, float_bias ? kF32 : s32, b != nullptr,
                        dnnlType(plan->dst_type), attr);
    plan->conv = made.primitive;
    plan->dst = made.dst;
    plan->src.to = made.src;
    // The weights narrowed to int8 and reordered once into the primitive's layout.
    memory user(made.user_weights, engine());
    auto* narrow = static_cast<int8_t*>(user.get_data_handle());
    for (size_t k = 0; k < w.i.size(); ++k) narrow[k] = static_cast<int8_t>(w.i[k]);
    plan->weights = memory(made.weights, engine());
    dnnl::reorder(user, plan->weights).execute(stream(), user, plan->weights);
    if (b) {
      plan->bias = memory(made.bias, engine());
      if (float_bias) {
        // oneDNN adds the bias to the accumulator before the output scales (s_x·s_w[c] / divisor):
        // B[c] / divisor in the scales' units.
        auto* bias = static_cast<float*>(plan->bias.get_data_handle());
        for (size_t k = 0; k < b->f.size(); ++k)
          bias[k] = static_cast<float>(static_cast<double>(b->f[k]) / divisor /
                                       scales[scales.size() == 1 ? 0 : k]);
      } else {
        auto* bias = static_cast<int32_t*>(plan->bias.get_data_handle());
        for (size_t k = 0; k < b->i.size(); ++k) bias[k] = static_cast<int32_t>(b->i[k]);
      }
    }
    stream().wait();
  } catch (const dnnl::error&) {
    return plan;  // no oneDNN implementation for this case
  }
  plan->use_reference = false;
  return plan;
}

Kernel quantizedConvolution(Kernel reference, QConvOut out, bool transposed = false) {
  bool to_float = out == QConvOut::kFloat;
  return [reference, out, to_float, transposed](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!isInt8(x.dtype) || x.shape.size() != 4 || c.inputCount() < (to_float ? 6 : 8) ||
        !c.state() || c.input(3).shape.size() != 4 || c.input(3).isFloat())
      return onPlainInputs(reference, c);
    std::optional<ConvGeometry> geometry = transposed
                                               ? transposedGeometry(c, x.shape, c.input(3).shape)
                                               : convGeometry(c, x, c.input(3));
    if (!geometry) return onPlainInputs(reference, c);  // the reference's error
    const ConvGeometry& g = *geometry;
    const Value* addend8 = out == QConvOut::kInt8Activation ? c.optionalInput(9) : nullptr;
    const Value* addend = to_float ? c.optionalInput(7) : nullptr;
    QConvPlan& plan = c.plan<QConvPlan>(
        [&](const QConvPlan& kept) {
          // The addends' shapes too: the plan checked them (another shape: the reference's error).
          return kept.src_shape == x.shape && kept.src_type == x.dtype &&
                 (!addend8 || (kept.addend.data_type() == dnnlType(addend8->dtype) &&
                               kept.addend_shape == addend8->shape)) &&
                 (!addend || kept.addend_shape == addend->shape);
        },
        [&] { return planQLinearConv(c, g, x, out, transposed); });
    if (plan.use_reference) return onPlainInputs(reference, c);
    memory addend8_memory;  // QLinearConvAct's 8-bit addend in the plan's layout
    if (addend8) {
      addend8_memory = memoryOf(*addend8);
      if (addend8_memory.get_desc() != plan.addend) {
        memory reordered(plan.addend, engine());
        dnnl::reorder(addend8_memory, reordered).execute(stream(), addend8_memory, reordered);
        addend8_memory = reordered;
      }
    }
    memory dst(plan.dst, engine());
    if (addend) fillForSum(*addend, dst);
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, plan.src.apply(memoryOf(x))},
                                            {DNNL_ARG_WEIGHTS, plan.weights},
                                            {DNNL_ARG_DST, dst}};
    if (plan.bias) args[DNNL_ARG_BIAS] = plan.bias;
    if (plan.src_zero_point) args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = plan.src_zero_point;
    if (plan.dst_zero_point) args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST] = plan.dst_zero_point;
    if (addend8) args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = addend8_memory;
    plan.conv.execute(stream(), args);
    stream().wait();
    return outputs(valueOf(std::move(dst), {g.n, g.cout, g.oh, g.ow}, {}, plan.dst_type));
  };
}

// Elementwise quantization kernels on values in any oneDNN layout without padding (each element
// stored once): the output keeps the input's layout, so no transposition happens between the
// integer convolutions and the float ops around them.

// The memory descriptor of `desc` with another data type (same dims and strides).
memory::desc retyped(const memory::desc& desc, memory::data_type type) {
  memory::desc out = desc;
  out.data.data_type = static_cast<dnnl_data_type_t>(type);
  return out;
}

bool unpadded(const memory::desc& desc) {
  for (int d = 0; d < desc.data.ndims; ++d) {
    if (desc.data.padded_dims[d] != desc.data.dims[d] || desc.data.padded_offsets[d] != 0)
      return false;
  }
  return desc.data.format_kind == dnnl_blocked && desc.data.offset0 == 0;
}

// body(begin, end) over [0, n): in one call below kParallelElements, else in blocks of 16k
// elements on the thread pool (the elementwise loops are vectorized).
template <typename Body>
void inBlocks(size_t n, const Body& body) {
  constexpr size_t kBlock = 1 << 14;
  if (n < static_cast<size_t>(kParallelElements)) return body(size_t{0}, n);
  size_t blocks = (n + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
  for (size_t b = 0; b < blocks; ++b) body(b * kBlock, std::min(n, (b + 1) * kBlock));
}

// The 8-bit loops are compiled for AVX-512 and AVX2 too, the CPU's best picked at load time
// (GCC's function multiversioning): the portable build's SSE2 loop ran the quantized adds of
// MobileNet-V2 at 2 ns an element. The AVX-512 clone is x86-64-v4 (F, BW, DQ, VL), not F alone:
// without BW's byte and word instructions the widening and narrowing of 8-bit values fell back
// to 256-bit sequences, and the quantized add ran at half the speed.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define FXC_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define FXC_VECTOR_CLONES
#endif

// Rounds half to even like std::nearbyint in the default rounding mode, for |x| ≤ 2^22 (after
// the clamp, which saturation makes harmless): adding 1.5·2^23 leaves no fraction bits.
inline float roundHalfEven(float x) {
  constexpr float kMagic = 12582912.0f;
  x = std::min(std::max(x, -4194304.0f), 4194304.0f);
  return (x + kMagic) - kMagic;
}

// saturate(round(x / scale) + zero_point): quantizeValue's arithmetic, vectorizable.
template <typename T>
inline T quantizeTo(float x, float scale, float zero_point, float lo, float hi) {
  float q = roundHalfEven(x / scale) + zero_point;
  // Through int32: float to int32 vectorizes, float to an 8-bit type does not. max(lo, q) is lo
  // for a NaN (quantizeValue's answer); max(q, lo) kept the NaN, whose conversion is undefined.
  return static_cast<T>(static_cast<int32_t>(std::min(std::max(lo, q), hi)));
}

template <typename T>
inline void quantizeLoop(const float* x, T* y, size_t begin, size_t end, float scale, float zp) {
  float lo = std::is_signed_v<T> ? -128.0f : 0.0f, hi = std::is_signed_v<T> ? 127.0f : 255.0f;
  for (size_t k = begin; k < end; ++k) y[k] = quantizeTo<T>(x[k], scale, zp, lo, hi);
}
FXC_VECTOR_CLONES void quantizeRange(const float* x, uint8_t* y, size_t begin, size_t end,
                                     float scale, float zp) {
  quantizeLoop(x, y, begin, end, scale, zp);
}
FXC_VECTOR_CLONES void quantizeRange(const float* x, int8_t* y, size_t begin, size_t end,
                                     float scale, float zp) {
  quantizeLoop(x, y, begin, end, scale, zp);
}

template <typename T>
void quantizeElements(const float* x, T* y, size_t n, float scale, int64_t zero_point) {
  float zp = static_cast<float>(zero_point);
  inBlocks(n, [&](size_t begin, size_t end) { quantizeRange(x, y, begin, end, scale, zp); });
}

// Whether a QuantizeLinear or DequantizeLinear has opset 21's block_size, output_dtype or
// saturate: the reference kernel follows (or refuses) them.
bool opset21Attributes(const KernelContext& c) {
  return c.attribute("block_size") || c.attribute("output_dtype") || c.attribute("saturate");
}

// QuantizeLinear with one scale and zero point, into an 8-bit buffer the integer kernels read as
// it is.
Kernel quantizeToInt8(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    const Value* zp = c.optionalInput(2);
    if (!x.isFloat() || x.shape.empty() || x.shape.size() > 6 || !scalarOf(&c.input(1), true) ||
        (zp && (!scalarOf(zp, false) || !isInt8(zp->dtype))) || !(c.input(1).f[0] > 0) ||
        (x.native && !unpadded(memoryOf(x).get_desc())) || opset21Attributes(c))
      return onPlainInputs(reference, c);
    ir::DType dtype = zp ? zp->dtype : ir::DType::kUInt8;
    memory in = memoryOf(x);
    memory y(retyped(in.get_desc(), dnnlType(dtype)), engine());
    const auto* from = static_cast<const float*>(in.get_data_handle());
    size_t n = static_cast<size_t>(x.numel());
    float scale = c.input(1).f[0];
    int64_t zero_point = zp ? zp->i[0] : 0;
    if (dtype == ir::DType::kUInt8) {
      quantizeElements(from, static_cast<uint8_t*>(y.get_data_handle()), n, scale, zero_point);
    } else {
      quantizeElements(from, static_cast<int8_t*>(y.get_data_handle()), n, scale, zero_point);
    }
    return outputs(valueOf(std::move(y), x.shape, {}, dtype));
  };
}

FXC_VECTOR_CLONES bool holdsRange(const float* x, size_t begin, size_t end, float value) {
  int nan = value != value, found = 0;
#pragma omp simd reduction(| : found)
  for (size_t k = begin; k < end; ++k) found |= (x[k] == value) | (nan & (x[k] != x[k]));
  return found != 0;
}

// Whether any of x[0, n) is `value` (a NaN `value`: any NaN), vectorized, on the thread pool
// when large.
bool holds(const float* x, size_t n, float value) {
  std::atomic<bool> found{false};
  inBlocks(n, [&](size_t begin, size_t end) {
    if (holdsRange(x, begin, end, value)) found.store(true, std::memory_order_relaxed);
  });
  return found.load();
}

template <typename T>
inline void dequantizeLoop(const T* x, float* y, size_t begin, size_t end, float scale, float zp) {
  for (size_t k = begin; k < end; ++k) y[k] = (static_cast<float>(x[k]) - zp) * scale;
}
FXC_VECTOR_CLONES void dequantizeRange(const uint8_t* x, float* y, size_t begin, size_t end,
                                       float scale, float zp) {
  dequantizeLoop(x, y, begin, end, scale, zp);
}
FXC_VECTOR_CLONES void dequantizeRange(const int8_t* x, float* y, size_t begin, size_t end,
                                       float scale, float zp) {
  dequantizeLoop(x, y, begin, end, scale, zp);
}

template <typename T>
void dequantizeElements(const T* x, float* y, size_t n, float scale, int64_t zero_point) {
  float zp = static_cast<float>(zero_point);
  inBlocks(n, [&](size_t begin, size_t end) { dequantizeRange(x, y, begin, end, scale, zp); });
}

// DequantizeLinear of an 8-bit value in a oneDNN layout, one scale and zero point:
// dequantizeValue's arithmetic, (q − z)·s (q − z exact in float).
Kernel dequantizeFromInt8(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    const Value* zp = c.optionalInput(2);
    if (!x.native || !isInt8(x.dtype) || !scalarOf(&c.input(1), true) ||
        (zp && (!scalarOf(zp, false) || zp->dtype != x.dtype)) ||
        !unpadded(memoryOf(x).get_desc()) || opset21Attributes(c))
      return onPlainInputs(reference, c);
    memory in = memoryOf(x);
    memory y(retyped(in.get_desc(), kF32), engine());
    auto* to = static_cast<float*>(y.get_data_handle());
    size_t n = static_cast<size_t>(x.numel());
    float scale = c.input(1).f[0];
    int64_t zero_point = zp ? zp->i[0] : 0;
    if (x.dtype == ir::DType::kUInt8) {
      dequantizeElements(static_cast<const uint8_t*>(in.get_data_handle()), to, n, scale,
                         zero_point);
    } else {
      dequantizeElements(static_cast<const int8_t*>(in.get_data_handle()), to, n, scale,
                         zero_point);
    }
    bool plain = y.get_desc() == plainDesc(x.shape);
    std::vector<float> storage;
    if (plain) storage.assign(to, to + n);
    return outputs(valueOf(std::move(y), x.shape, std::move(storage)));
  };
}

// com.microsoft.QLinearAdd and QLinearMul of two 8-bit values: Q(DQ(a) ∘ DQ(b)) in float exactly
// as the QDQ ops compute it (dequantizeValue, a float add or multiply, quantizeValue), in the
// layout of the operand that has the output's shape. The other one has that shape too, or is
// one value per channel or per batch entry and channel, [1 or N, C, 1, …] (a squeeze-excitation's
// scale), or one value: then it is dequantized once, and each element meets the value of its
// channel, which the layout's strides give (plain or channels-last). Float addition and
// multiplication commute, so which operand is which does not change a bit.
struct BinaryScales {
  float sa, za, sb, zb, sy, zy;
};
template <typename T>
inline float dequantizedAt(const T* x, size_t k, float scale, float zero_point) {
  return (static_cast<float>(x[k]) - zero_point) * scale;
}
template <bool kMul>
inline float combined(float u, float v) {
  return kMul ? u * v : u + v;
}
template <typename T>
constexpr float lowest() {
  return std::is_signed_v<T> ? -128.0f : 0.0f;
}
template <typename T>
constexpr float highest() {
  return std::is_signed_v<T> ? 127.0f : 255.0f;
}
// y[k] = Q(DQ(a[k]) ∘ DQ(b[k])), k < n.
template <bool kMul, typename T>
inline void pairLoop(const T* a, const T* b, T* y, size_t n, const BinaryScales& p) {
  for (size_t k = 0; k < n; ++k) {
    float v = combined<kMul>(dequantizedAt(a, k, p.sa, p.za), dequantizedAt(b, k, p.sb, p.zb));
    y[k] = quantizeTo<T>(v, p.sy, p.zy, lowest<T>(), highest<T>());
  }
}
// y[k] = Q(DQ(a[k]) ∘ f), k < n.
template <bool kMul, typename T>
inline void scalarLoop(const T* a, float f, T* y, size_t n, const BinaryScales& p) {
  for (size_t k = 0; k < n; ++k) {
    float v = combined<kMul>(dequantizedAt(a, k, p.sa, p.za), f);
    y[k] = quantizeTo<T>(v, p.sy, p.zy, lowest<T>(), highest<T>());
  }
}
// y[r·C + c] = Q(DQ(a[r·C + c]) ∘ f[c]), r < rows, c < C: channels-last pixels (or a part of
// one: rows 1), in one call (a call per pixel cost more than its 8-bit loop on MobileNets'
// narrow layers).
template <bool kMul, typename T>
inline void rowsLoop(const T* a, const float* f, T* y, size_t rows, size_t channels,
                     const BinaryScales& p) {
  for (size_t r = 0; r < rows; ++r, a += channels, y += channels) {
    for (size_t c = 0; c < channels; ++c) {
      float v = combined<kMul>(dequantizedAt(a, c, p.sa, p.za), f[c]);
      y[c] = quantizeTo<T>(v, p.sy, p.zy, lowest<T>(), highest<T>());
    }
  }
}
// One clone set per loop and type; `mul` picks the operation outside the loop.
FXC_VECTOR_CLONES void pairRange(bool mul, const uint8_t* a, const uint8_t* b, uint8_t* y, size_t n,
                                 const BinaryScales& p) {
  mul ? pairLoop<true>(a, b, y, n, p) : pairLoop<false>(a, b, y, n, p);
}
FXC_VECTOR_CLONES void pairRange(bool mul, const int8_t* a, const int8_t* b, int8_t* y, size_t n,
                                 const BinaryScales& p) {
  mul ? pairLoop<true>(a, b, y, n, p) : pairLoop<false>(a, b, y, n, p);
}
FXC_VECTOR_CLONES void scalarRange(bool mul, const uint8_t* a, float f, uint8_t* y, size_t n,
                                   const BinaryScales& p) {
  mul ? scalarLoop<true>(a, f, y, n, p) : scalarLoop<false>(a, f, y, n, p);
}
FXC_VECTOR_CLONES void scalarRange(bool mul, const int8_t* a, float f, int8_t* y, size_t n,
                                   const BinaryScales& p) {
  mul ? scalarLoop<true>(a, f, y, n, p) : scalarLoop<false>(a, f, y, n, p);
}
FXC_VECTOR_CLONES void rowsRange(bool mul, const uint8_t* a, const float* f, uint8_t* y,
                                 size_t rows, size_t channels, const BinaryScales& p) {
  mul ? rowsLoop<true>(a, f, y, rows, channels, p) : rowsLoop<false>(a, f, y, rows, channels, p);
}
FXC_VECTOR_CLONES void rowsRange(bool mul, const int8_t* a, const float* f, int8_t* y, size_t rows,
                                 size_t channels, const BinaryScales& p) {
  mul ? rowsLoop<true>(a, f, y, rows, channels, p) : rowsLoop<false>(a, f, y, rows, channels, p);
}

// The small operand's dequantized values, one per row of `rows` (1, C or N·C), or empty when it
// is not of that form for `whole`'s shape: one element, or [1 or N, C, 1, …] of whole's rank.
std::vector<float> rowValues(const Value& small, const Value& whole, float scale, float zp,
                             size_t& batches, size_t& channels) {
  const std::vector<int64_t>& s = small.shape;
  batches = channels = 1;
  if (s.size() > whole.shape.size()) return {};  // the output would gain axes
  if (small.numel() != 1) {
    if (s.size() != whole.shape.size() || s.size() < 3 || s[1] != whole.shape[1] ||
        (s[0] != 1 && s[0] != whole.shape[0]))
      return {};
    for (size_t d = 2; d < s.size(); ++d)
      if (s[d] != 1) return {};
    batches = static_cast<size_t>(s[0]);
    channels = static_cast<size_t>(s[1]);
  }
  std::vector<float> out(batches * channels);
  auto dequantize = [&](const auto* q) {
    for (size_t k = 0; k < out.size(); ++k) out[k] = dequantizedAt(q, k, scale, zp);
    return out;
  };
  if (!small.native) return dequantize(small.i.data());  // widened (any rank, 0 included)
  memory in = memoryOf(small);                           // native: rank 1 or more
  memory::desc plain = retyped(plainDesc(s), dnnlType(small.dtype));
  if (!(in.get_desc() == plain)) {
    memory relaid(plain, engine());
    dnnl::reorder(in, relaid).execute(stream(), in, relaid);
    stream().wait();
    in = relaid;
  }
  if (small.dtype == ir::DType::kUInt8)
    return dequantize(static_cast<const uint8_t*>(in.get_data_handle()));
  return dequantize(static_cast<const int8_t*>(in.get_data_handle()));
}

template <typename T>
void combineInLayout(bool mul, const T* x, const T* other, const std::vector<float>& rows, T* y,
                     size_t n, size_t batches, size_t channels, size_t batch_stride,
                     size_t channel_stride, const BinaryScales& p) {
  inBlocks(n, [&](size_t begin, size_t end) {
    if (other) return pairRange(mul, x + begin, other + begin, y + begin, end - begin, p);
    if (rows.size() == 1) return scalarRange(mul, x + begin, rows[0], y + begin, end - begin, p);
    for (size_t k = begin; k < end;) {
      size_t b = batches == 1 ? 0 : k / batch_stride, at = k % batch_stride;
      const float* row = rows.data() + b * channels;
      size_t run;
      if (channel_stride == 1) {  // channels-last: the rest of this pixel, or whole pixels
        size_t c = at % channels;
        run = std::min(end - k, channels - c);
        size_t pixels =
            c == 0 && run == channels ? std::min(end - k, batch_stride - at) / channels : 1;
        if (pixels > 1) run = pixels * channels;
        rowsRange(mul, x + k, row + c, y + k, pixels, pixels > 1 ? channels : run, p);
      } else {  // plain: a run to the end of this channel's plane
        size_t c = at / channel_stride;
        run = std::min(end - k, channel_stride - at % channel_stride);
        scalarRange(mul, x + k, row[c], y + k, run, p);
      }
      k += run;
    }
  });
}

template <bool kMul>
Kernel quantizedBinary(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() < 8) return onPlainInputs(reference, c);
    const Value &a = c.input(0), &b = c.input(3);
    const Value *za = c.optionalInput(2), *zb = c.optionalInput(5), *zy = c.optionalInput(7);
    ir::DType dtype = a.dtype;
    bool ok = isInt8(dtype) && b.dtype == dtype;
    for (size_t k : {1, 4, 6}) ok = ok && scalarOf(c.optionalInput(k), true);
    for (const Value* z : {za, zb, zy})
      ok = ok && (!z || (scalarOf(z, false) && z->dtype == dtype));
    // The operand of the output's shape, in its layout, and its scale and zero point first.
    bool swap = b.native && (b.numel() > a.numel() || (b.numel() == a.numel() && !a.native));
    const Value &whole = swap ? b : a, &part = swap ? a : b;
    ok = ok && whole.native && whole.numel() > 0 &&
         (part.shape == whole.shape || part.numel() < whole.numel());
    if (!ok || !unpadded(memoryOf(whole).get_desc())) return onPlainInputs(reference, c);
    auto zero = [](const Value* z) { return z ? static_cast<float>(z->i[0]) : 0.0f; };
    BinaryScales p{c.input(1).f[0], zero(za), c.input(4).f[0], zero(zb), c.input(6).f[0], zero(zy)};
    if (swap) p = {p.sb, p.zb, p.sa, p.za, p.sy, p.zy};
    memory mx = memoryOf(whole), mo;
    const memory::desc& desc = mx.get_desc();
    size_t n = static_cast<size_t>(whole.numel());
    std::vector<float> rows;
    size_t batches = 1, channels = 1, batch_stride = n, channel_stride = 1;
    if (part.shape == whole.shape) {
      mo = memoryOf(part);
      if (!(mo.get_desc() == desc)) {
        memory relaid(desc, engine());
        dnnl::reorder(mo, relaid).execute(stream(), mo, relaid);
        stream().wait();
        mo = relaid;
      }
    } else {
      rows = rowValues(part, whole, p.sb, p.zb, batches, channels);
      if (rows.empty()) return onPlainInputs(reference, c);
      if (rows.size() > 1) {
        // Dense and unblocked, the batch outermost, the channel right inside it or innermost.
        const auto& blocking = desc.data.format_desc.blocking;
        batch_stride = static_cast<size_t>(blocking.strides[0]);
        channel_stride = static_cast<size_t>(blocking.strides[1]);
        size_t inner = n / static_cast<size_t>(whole.shape[0]);
        if (blocking.inner_nblks != 0 || desc.get_size() != n || batch_stride != inner ||
            (channel_stride != 1 && channel_stride * channels != inner))
          return onPlainInputs(reference, c);
      }
    }
    memory y(desc, engine());
    if (dtype == ir::DType::kUInt8) {
      combineInLayout(kMul, static_cast<const uint8_t*>(mx.get_data_handle()),
                      rows.empty() ? static_cast<const uint8_t*>(mo.get_data_handle()) : nullptr,
                      rows, static_cast<uint8_t*>(y.get_data_handle()), n, batches, channels,
                      batch_stride, channel_stride, p);
    } else {
      combineInLayout(kMul, static_cast<const int8_t*>(mx.get_data_handle()),
                      rows.empty() ? static_cast<const int8_t*>(mo.get_data_handle()) : nullptr,
                      rows, static_cast<int8_t*>(y.get_data_handle()), n, batches, channels,
                      batch_stride, channel_stride, p);
    }
    return outputs(valueOf(std::move(y), whole.shape, {}, dtype));
  };
}

template <bool kMax, typename T>
inline void boundLoop(const T* from, T* to, size_t begin, size_t end, T b) {
  for (size_t k = begin; k < end; ++k) to[k] = kMax ? std::max(from[k], b) : std::min(from[k], b);
}
template <bool kMax>
FXC_VECTOR_CLONES void boundRange(const uint8_t* from, uint8_t* to, size_t begin, size_t end,
                                  uint8_t b) {
  boundLoop<kMax>(from, to, begin, end, b);
}
template <bool kMax>
FXC_VECTOR_CLONES void boundRange(const int8_t* from, int8_t* to, size_t begin, size_t end,
                                  int8_t b) {
  boundLoop<kMax>(from, to, begin, end, b);
}

// torch.maximum / torch.minimum of an 8-bit value and a one-element constant of its type (the
// clamp that quant-lower keeps as integer bounds), in the value's layout.
template <bool kMax>
Kernel int8Bound(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() != 2) return onPlainInputs(reference, c);
    const Value &x = c.input(0), &bound = c.input(1);
    if (!x.native || !isInt8(x.dtype) || bound.native || bound.dtype != x.dtype ||
        bound.numel() != 1 || !unpadded(memoryOf(x).get_desc()))
      return onPlainInputs(reference, c);
    memory in = memoryOf(x);
    memory y(in.get_desc(), engine());
    size_t n = static_cast<size_t>(x.numel());
    auto clamp = [&](auto* from, auto* to) {
      using T = std::remove_reference_t<decltype(*to)>;
      T b = static_cast<T>(bound.i[0]);
      inBlocks(n, [&](size_t begin, size_t end) { boundRange<kMax>(from, to, begin, end, b); });
    };
    if (x.dtype == ir::DType::kUInt8) {
      clamp(static_cast<const uint8_t*>(in.get_data_handle()),
            static_cast<uint8_t*>(y.get_data_handle()));
    } else {
      clamp(static_cast<const int8_t*>(in.get_data_handle()),
            static_cast<int8_t*>(y.get_data_handle()));
    }
    return outputs(valueOf(std::move(y), x.shape, {}, x.dtype));
  };
}

// Sixteen and eight floats: an AVX-512 and an AVX2 register (two and four SSE ones in the
// baseline clone).
using Floats16 = float __attribute__((vector_size(64)));
using Floats8 = float __attribute__((vector_size(32)));

// `visit(pixel)` for each input pixel in output pixel (oy, ox)'s window, in the reference's
// order (rows, then columns; taps in the padding skipped): `pixel` points at its channels.
template <typename Visit>
inline void forWindow(const PoolGeometry& g, const float* in, int64_t oy, int64_t ox, Visit visit) {
  const Window& win = g.win;
  for (int64_t ky = 0; ky < win.kernel[0]; ++ky) {
    int64_t iy = oy * win.strides[0] - win.pads[0] + ky * win.dilations[0];
    if (iy < 0 || iy >= g.h) continue;
    for (int64_t kx = 0; kx < win.kernel[1]; ++kx) {
      int64_t ix = ox * win.strides[1] - win.pads[1] + kx * win.dilations[1];
      if (ix >= 0 && ix < g.w) visit(in + (iy * g.w + ix) * g.ch);
    }
  }
}

// Channels [c0, c0 + kVectors · lanes) of output pixel (oy, ox) of a channels-last float max
// pool, kept in registers through the window: from -inf through the window's pixels in the
// reference's order, as its std::max(acc, v) does (a NaN v leaves acc; -0 after +0 keeps +0:
// `acc < v ? v : acc` is vmaxps with v first), so every element is bit for bit the reference's.
// Keeping the maxima in registers instead of reading and writing the output at every window
// pixel made the pools of squeezenet1_1, resnet18 and googlenet about a fifth faster at batch 1.
template <typename Floats, int kVectors>
inline void maxPoolChannels(const PoolGeometry& g, const float* in, int64_t oy, int64_t ox,
                            int64_t c0, float* out) {
  constexpr int64_t kLanes = sizeof(Floats) / sizeof(float);
  const Floats lowest = Floats{} - std::numeric_limits<float>::infinity();
  Floats acc[kVectors];
  for (Floats& a : acc) a = lowest;
  forWindow(g, in, oy, ox, [&](const float* pixel) {
    for (int k = 0; k < kVectors; ++k) {
      Floats x;
      std::memcpy(&x, pixel + c0 + kLanes * k, sizeof x);
      acc[k] = acc[k] < x ? x : acc[k];
    }
  });
  std::memcpy(out + c0, acc, sizeof acc);
}

// One output row of a channels-last float max pool (`in`: the batch entry's [h, w, ch] pixels):
// 64 channels at a time, then 16, then 8, then the last few one by one, each as
// maxPoolChannels says.
FXC_VECTOR_CLONES void maxPoolRow(const PoolGeometry& g, const float* in, int64_t oy, float* out) {
  const int64_t ch = g.ch;
  const int64_t wide = ch / 64 * 64, sixteens = ch / 16 * 16, eights = ch / 8 * 8;
  for (int64_t ox = 0; ox < g.ow; ++ox, out += ch) {
    for (int64_t c0 = 0; c0 < wide; c0 += 64) maxPoolChannels<Floats16, 4>(g, in, oy, ox, c0, out);
    for (int64_t c0 = wide; c0 < sixteens; c0 += 16)
      maxPoolChannels<Floats16, 1>(g, in, oy, ox, c0, out);
    if (eights > sixteens) maxPoolChannels<Floats8, 1>(g, in, oy, ox, sixteens, out);
    if (eights == ch) continue;
    for (int64_t k = eights; k < ch; ++k) out[k] = -std::numeric_limits<float>::infinity();
    forWindow(g, in, oy, ox, [&](const float* v) {
      for (int64_t k = eights; k < ch; ++k) out[k] = out[k] < v[k] ? v[k] : out[k];
    });
  }
}

// Float max pooling of a channels-last value (maxPoolRow). oneDNN's channels-last pool took
// 2.6 ms for squeezenet1_1's first at batch 8, and it starts from -FLT_MAX, which a window of
// -inf must not give.
Value channelsLastMaxPool(const PoolGeometry& g, const memory& src) {
  memory dst(memory::desc(dimsOf({g.n, g.ch, g.oh, g.ow}), kF32, Tag::acdb), engine());
  const auto* in = static_cast<const float*>(src.get_data_handle());
  auto* out = static_cast<float*>(dst.get_data_handle());
  forEachIndex(g.n * g.oh * g.ow * g.ch >= kParallelElements, g.n * g.oh, [&](int64_t row) {
    maxPoolRow(g, in + (row / g.oh) * g.h * g.w * g.ch, row % g.oh, out + row * g.ow * g.ch);
  });
  return valueOf(std::move(dst), {g.n, g.ch, g.oh, g.ow}, {});
}

struct PoolPlan {
  std::vector<int64_t> src_shape;
  memory::desc src;  // the input layout this plan was made for
  bool use_reference = false;
  dnnl::pooling_forward pool;
  memory::desc dst;
  bool dst_plain = false;
};

// A pooling primitive for input layout `src`; use_reference when oneDNN cannot express it.
std::shared_ptr<PoolPlan> planPooling(const PoolGeometry& g, const std::vector<int64_t>& shape,
                                      const memory::desc& src, bool max) {
  auto plan = std::make_shared<PoolPlan>();
  plan->src_shape = shape;
  plan->src = src;
  const Window& win = g.win;
  // The end padding that makes oneDNN's output size ONNX's (ceil_mode adds windows). Where the
  // last window ends before the input does (a stride that does not divide: 72 rows, 3 × 3,
  // stride 2), the rows past it are read by no window: no end padding, and oneDNN's size
  // formula, which floors, gives the same windows. Until session 28 such a pool ran the
  // reference kernel: face-api's ResNet stem pool, 8-bit, 1.5 ms of a 2.9 ms run.
  int64_t pad_bottom =
      std::max<int64_t>(0, (g.oh - 1) * win.strides[0] + win.kernel[0] - g.h - win.pads[0]);
  int64_t pad_right =
      std::max<int64_t>(0, (g.ow - 1) * win.strides[1] + win.kernel[1] - g.w - win.pads[1]);
  bool same_padding = pad_bottom == win.pads[2] && pad_right == win.pads[3];
  plan->use_reference =
      win.dilations[0] != 1 || win.dilations[1] != 1 || (!max && g.include_pad && !same_padding);
  if (!plan->use_reference) {
    auto algorithm = max             ? dnnl::algorithm::pooling_max
                     : g.include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                     : dnnl::algorithm::pooling_avg_exclude_padding;
    // The output in the input's layout (blocked stays blocked).
    memory::desc dst_any(dimsOf({g.n, g.ch, g.oh, g.ow}), src.data_type(), Tag::any);
    try {
      dnnl::pooling_forward::desc desc(
          dnnl::prop_kind::forward_inference, algorithm, plan->src, dst_any,
          dimsOf({win.strides[0], win.strides[1]}), dimsOf({win.kernel[0], win.kernel[1]}),
          dimsOf({win.pads[0], win.pads[1]}), dimsOf({pad_bottom, pad_right}));
      dnnl::pooling_forward::primitive_desc pd(desc, engine());
      plan->pool = dnnl::pooling_forward(pd);
      plan->dst = pd.dst_desc();
      plan->dst_plain = plan->dst == plainDesc({g.n, g.ch, g.oh, g.ow});  // f32 only
    } catch (const dnnl::error&) {
      plan->use_reference = true;
    }
  }
  return plan;
}

// Whether some window of the pool reads no input element (every tap along an axis in the
// padding): the reference refuses such a pool, where oneDNN would answer the type's minimum for
// an 8-bit max (a value, not a sign of the empty window as float's -FLT_MAX is).
bool someWindowInPadding(const PoolGeometry& g) {
  const Window& win = g.win;
  const int64_t sizes[2] = {g.h, g.w}, outs[2] = {g.oh, g.ow};
  for (size_t d = 0; d < 2; ++d) {
    for (int64_t o = 0; o < outs[d]; ++o) {
      bool reads = false;
      for (int64_t k = 0; k < win.kernel[d] && !reads; ++k) {
        int64_t at = o * win.strides[d] - win.pads[d] + k * win.dilations[d];
        reads = at >= 0 && at < sizes[d];
      }
      if (!reads) return true;
    }
  }
  return false;
}

template <bool kMax>
Kernel pooling(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    // Integers: max pooling of int8/uint8 (average pooling rounds: the reference's way).
    bool int8 = kMax && isInt8(x.dtype);
    if (!(x.isFloat() || int8) || x.shape.size() != 4 || !c.state() || (kMax && c.outputUsed(1)))
      return onPlainInputs(reference, c);
    PoolGeometry g = poolGeometry(c, x);
    if (someWindowInPadding(g)) return onPlainInputs(reference, c);  // its error
    memory src = memoryOf(x);
    if (kMax && !int8 &&
        src.get_desc() ==
            memory::desc(dimsOf({x.shape[0], x.shape[1], x.shape[2], x.shape[3]}), kF32, Tag::acdb))
      return outputs(channelsLastMaxPool(g, src));
    // oneDNN pools 8-bit integers in the plain NCHW layout with its reference loops (GoogLeNet's
    // 28×28×256 u8 max pool: 38 ms); channels-last runs its jit kernel: one reorder first.
    if (int8 && src.get_desc() == plainDesc(x.shape, dnnlType(x.dtype))) {
      memory nhwc(memory::desc(dimsOf({x.shape[0], x.shape[1], x.shape[2], x.shape[3]}),
                               dnnlType(x.dtype), Tag::acdb),
                  engine());
      dnnl::reorder(src, nhwc).execute(stream(), src, nhwc);
      src = nhwc;
    }
    PoolPlan& plan = c.plan<PoolPlan>(
        [&](const PoolPlan& kept) {
          return kept.src_shape == x.shape && kept.src == src.get_desc();
        },
        [&] { return planPooling(g, x.shape, src.get_desc(), kMax); });
    if (plan.use_reference) return onPlainInputs(reference, c);
    std::vector<float> plain_storage;
    memory dst;
    if (plan.dst_plain) {
      plain_storage.resize(static_cast<size_t>(g.n * g.ch * g.oh * g.ow));
      dst = memory(plan.dst, engine(), plain_storage.data());
    } else {
      dst = memory(plan.dst, engine());
    }
    plan.pool.execute(stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream().wait();
    // oneDNN's float max pool starts from −FLT_MAX: a window of −inf (or NaN) only gives
    // −FLT_MAX, where the model's answer is −inf. A result of −FLT_MAX is rare enough to run
    // the reference then (which gives −FLT_MAX where that is the window's maximum).
    if (kMax && !int8 &&
        holds(static_cast<const float*>(dst.get_data_handle()),
              dst.get_desc().get_size() / sizeof(float), -FLT_MAX))
      return onPlainInputs(reference, c);
    return outputs(
        valueOf(std::move(dst), {g.n, g.ch, g.oh, g.ow}, std::move(plain_storage), x.dtype));
  };
}

// One oneDNN primitive on plain float32 memory, planned once per input shape.
struct PrimitivePlan {
  std::vector<int64_t> shape;  // what the plan was made for
  dnnl::primitive primitive;
  memory::desc src, dst;
  bool use_reference = false;  // oneDNN declined the shape
  bool serial = false;         // made and run on the calling thread (SerialScope)
  dnnl::primitive pack, unpack;  // softmax along a strided axis: plain to src's layout and back
};

// The plan kept in the node's state for `shape`, made by `make` (which fills everything but
// `shape` and `serial`) when the shape changes; one that oneDNN declines sends the node to the
// reference kernel. `elements`: how many the primitive reads, which decides `serial`.
template <typename Make>
PrimitivePlan& primitivePlan(const KernelContext& c, const std::vector<int64_t>& shape,
                             int64_t elements, Make make) {
  return c.plan<PrimitivePlan>([&](const PrimitivePlan& p) { return p.shape == shape; },
                               [&] {
                                 auto plan = std::make_shared<PrimitivePlan>();
                                 bool serial = elements < kParallelElements;
                                 SerialScope scope(serial);
                                 try {
                                   *plan = make();
                                 } catch (const dnnl::error&) {
                                   plan->use_reference = true;
                                 }
                                 plan->shape = shape;
                                 plan->serial = serial;
                                 return plan;
                               });
}

// Runs the plan from x's elements into a new float32 value of `shape`, with `extra` arguments.
Value runPlan(const PrimitivePlan& plan, const Value& x, std::vector<int64_t> shape,
              std::unordered_map<int, memory> extra = {}) {
  SerialScope scope(plan.serial);
  Value y = Value::floats(std::move(shape), {});
  y.f.resize(static_cast<size_t>(plan.dst.get_size() / sizeof(float)));
  extra[DNNL_ARG_SRC] = memory(plan.src, engine(), const_cast<float*>(x.f.data()));
  extra[DNNL_ARG_DST] = memory(plan.dst, engine(), y.f.data());
  plan.primitive.execute(stream(), extra);
  stream().wait();
  return y;
}

// Whether a fast float32 kernel can take x (plain, non-empty float32 and a place for a plan).
bool fastFloat(const KernelContext& c, const Value& x) {
  return x.isFloat() && !x.native && !x.f.empty() && c.state() && x.shape.size() <= 6;
}

// Softmax (opset 13's axis, or the older flattening at `axis`) as [outer, extent, inner] along 1.
Kernel softmax(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!fastFloat(c, x)) return reference(c);
    NormalizedExtent e = normalizedExtent(c, x);
    std::vector<int64_t> dims{e.outer, e.extent, e.inner};
    // oneDNN 2.6 normalizes a strided axis (inner > 1) on its reference loops: 8 ms for a YOLOv8
    // head's [1, 16, 8400] along axis 1. There the axis is made the innermost by a reorder
    // (layout acb), normalized on the jit kernel, and reordered back.
    bool strided = e.inner > 1;
    PrimitivePlan& plan = primitivePlan(c, dims, x.numel(), [&] {
      PrimitivePlan p;
      p.src = p.dst = strided ? memory::desc(dimsOf({e.outer, e.extent, e.inner}), kF32, Tag::acb)
                              : plainDesc(dims);
      dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, p.src, 1);
      p.primitive = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(desc, engine()));
      if (strided) {
        p.pack = dnnl::reorder(dnnl::reorder::primitive_desc(engine(), plainDesc(dims), engine(), p.src));
        p.unpack =
            dnnl::reorder(dnnl::reorder::primitive_desc(engine(), p.src, engine(), plainDesc(dims)));
      }
      return p;
    });
    if (plan.use_reference) return reference(c);
    Value y;
    if (strided) {
      SerialScope scope(plan.serial);
      y = Value::floats(x.shape, std::vector<float>(x.f.size()));
      std::vector<float> rows(x.f.size());
      memory from(plainDesc(dims), engine(), const_cast<float*>(x.f.data()));
      memory packed(plan.src, engine(), rows.data());
      memory to(plainDesc(dims), engine(), y.f.data());
      plan.pack.execute(stream(), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, packed}});
      plan.primitive.execute(stream(), {{DNNL_ARG_SRC, packed}, {DNNL_ARG_DST, packed}});
      plan.unpack.execute(stream(), {{DNNL_ARG_FROM, packed}, {DNNL_ARG_TO, to}});
      stream().wait();
    } else {
      y = runPlan(plan, x, x.shape);
    }
    // oneDNN leaves the rest of a row holding a NaN or +inf finite ([1, 2, NaN, 3] gave
    // [0, 0, NaN, 0]), where the model's answer is NaN throughout; such a row always shows one
    // NaN, and then the reference computes the whole.
    if (holds(y.f.data(), y.f.size(), NAN)) return reference(c);
    return outputs(std::move(y));
  };
}

// Softmax of contiguous rows in place on oneDNN's softmax (the attention kernel's score blocks),
// one primitive per row shape and thread, on the calling thread (inside the kernel's parallel
// region, or serial). Declines where a row shows a NaN afterwards, as the softmax kernel above
// does: oneDNN leaves a row with a NaN or +inf partly finite.
bool dnnlSoftmaxRows(float* x, int64_t rows, int64_t n) {
  struct Cached {
    int64_t rows = -1, n = -1;
    dnnl::softmax_forward primitive;
    memory::desc desc;
  };
  thread_local Cached cached[2];
  thread_local dnnl::stream own_stream(engine());
  Cached* hit = nullptr;
  for (Cached& k : cached) hit = k.rows == rows && k.n == n ? &k : hit;
  if (!hit) {  // two row shapes: a head's full blocks and its last
    cached[1] = std::move(cached[0]);
    cached[0].rows = -1;  // until its primitive is made
    hit = &cached[0];
    hit->desc = plainDesc({rows, n});
    dnnl::softmax_forward::desc desc(dnnl::prop_kind::forward_inference, hit->desc, 1);
    hit->primitive = dnnl::softmax_forward(dnnl::softmax_forward::primitive_desc(desc, engine()));
    hit->rows = rows;
    hit->n = n;
  }
  memory m(hit->desc, engine(), x);
  SerialScope scope(true);
  hit->primitive.execute(own_stream, {{DNNL_ARG_SRC, m}, {DNNL_ARG_DST, m}});
  own_stream.wait();
  return !holds(x, static_cast<size_t>(rows * n), NAN);
}

// Σ f(in[k]) in double, in eight running sums: one sum's chain of dependent additions ran the
// LayerNorm rows at a few cycles an element; eight pipeline (and vectorize). Only the order of
// the double additions changes, far below float32's precision.
template <typename F>
double sumOf(const float* in, int64_t n, F f) {
  double lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    for (int j = 0; j < 8; ++j) lanes[j] += f(static_cast<double>(in[k + j]));
  }
  double total = 0;
  for (; k < n; ++k) total += f(static_cast<double>(in[k]));
  for (double lane : lanes) total += lane;
  return total;
}

// LayerNorm over the trailing axes from `axis`, row by row on the thread pool: mean and variance
// accumulated in double (two passes, as the reference), the normalization in float32 with the
// mean split in two floats, so that x − mean loses nothing to a large common offset. The mean and
// inverse standard deviation outputs, when read, come from the reference kernel.
Kernel layerNorm(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!fastFloat(c, x) || c.outputUsed(1) || c.outputUsed(2) ||
        c.intAttribute("stash_type", 1) != 1)
      return reference(c);
    size_t axis = normalizeAxis(c.intAttribute("axis", -1), x.shape.size());
    int64_t inner = 1;
    for (size_t d = axis; d < x.shape.size(); ++d) inner *= x.shape[d];
    const Value* scale = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    const Value* bias = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    for (const Value* affine : {scale, bias}) {
      if (affine && (!affine->isFloat() || affine->native ||
                     (affine->f.size() != 1 && static_cast<int64_t>(affine->f.size()) != inner)))
        return reference(c);
    }
    std::vector<float> scales(static_cast<size_t>(inner), 1.0f), shifts(scales.size(), 0.0f);
    for (size_t k = 0; k < scales.size(); ++k) {
      if (scale) scales[k] = scale->f[scale->f.size() == 1 ? 0 : k];
      if (bias) shifts[k] = bias->f[bias->f.size() == 1 ? 0 : k];
    }
    double eps = c.floatAttribute("epsilon", 1e-5f);
    int64_t rows = x.numel() / inner;
    Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
    const float* sc = scales.data();
    const float* sh = shifts.data();
#pragma omp parallel for if (x.numel() > 32768)
    for (int64_t row = 0; row < rows; ++row) {
      const float* in = x.f.data() + row * inner;
      float* out = y.f.data() + row * inner;
      double mean = sumOf(in, inner, [](double v) { return v; }) / static_cast<double>(inner);
      double squares = sumOf(in, inner, [mean](double v) { return (v - mean) * (v - mean); });
      float inv = static_cast<float>(1.0 / std::sqrt(squares / static_cast<double>(inner) + eps));
      float hi = static_cast<float>(mean), lo = static_cast<float>(mean - hi);
      for (int64_t k = 0; k < inner; ++k) out[k] = ((in[k] - hi) - lo) * inv * sc[k] + sh[k];
    }
    return outputs(std::move(y));
  };
}

// An elementwise activation as oneDNN's eltwise on the flat elements: SiLU (swish with α 1)
// and GELU exact (erf) or tanh-approximated (its `approximate` attribute).
template <dnnl::algorithm kAlgorithm, int kAlpha = 0>
Kernel eltwise(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    dnnl::algorithm algorithm = kAlgorithm;
    if (algorithm == dnnl::algorithm::eltwise_gelu_erf) {
      std::string approximate = c.stringAttribute("approximate", "none");
      if (approximate == "tanh") algorithm = dnnl::algorithm::eltwise_gelu_tanh;
      if (approximate != "none" && approximate != "tanh") return reference(c);
    }
    if (!fastFloat(c, x)) return reference(c);
    std::vector<int64_t> key{x.numel(), static_cast<int64_t>(algorithm)};
    PrimitivePlan& plan = primitivePlan(c, key, x.numel(), [&] {
      PrimitivePlan p;
      p.src = p.dst = plainDesc({x.numel()});
      dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, p.src,
                                       static_cast<float>(kAlpha), 0.0f);
      p.primitive = dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(desc, engine()));
      return p;
    });
    if (plan.use_reference) return reference(c);
    return outputs(runPlan(plan, x, x.shape));
  };
}

// ReduceSum/Mean/Max/Min of float32 as oneDNN's reduction (reduced axes kept as 1, then dropped
// without keepdims). oneDNN's max and min of a NaN are neither NaN nor the other values' extreme:
// an input holding a NaN runs the reference (NaN, as numpy and ONNX Runtime answer).
template <dnnl::algorithm kAlgorithm>
Kernel reduction(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!fastFloat(c, x)) return reference(c);
    constexpr bool kExtreme = kAlgorithm == dnnl::algorithm::reduction_max ||
                              kAlgorithm == dnnl::algorithm::reduction_min;
    if (kExtreme && holds(x.f.data(), x.f.size(), NAN)) return reference(c);
    bool noop = false;
    std::vector<bool> reduced = reducedAxes(c, x.shape.size(), noop);
    if (noop || x.shape.empty()) return reference(c);
    std::vector<int64_t> kept = x.shape, out;
    bool keep = c.intAttribute("keepdims", 1) != 0;
    for (size_t d = 0; d < kept.size(); ++d) {
      if (reduced[d]) kept[d] = 1;
      if (!reduced[d] || keep) out.push_back(kept[d]);
    }
    std::vector<int64_t> key = x.shape;
    key.insert(key.end(), kept.begin(), kept.end());
    PrimitivePlan& plan = primitivePlan(c, key, x.numel(), [&] {
      PrimitivePlan p;
      p.src = plainDesc(x.shape);
      p.dst = plainDesc(kept);
      dnnl::reduction::desc desc(kAlgorithm, p.src, p.dst, 0.0f, 0.0f);
      p.primitive = dnnl::reduction(dnnl::reduction::primitive_desc(desc, engine()));
      return p;
    });
    if (plan.use_reference) return reference(c);
    return outputs(runPlan(plan, x, out));
  };
}

// Linear (and Gemm with α = β = 1, no transA) on a constant weight as oneDNN's matmul: the
// weight reordered once into the layout the primitive wants, the bias added by the primitive,
// the whole product on the thread pool (the sgemm path repacks the weight in every call and adds
// the bias in a serial loop). A of any rank is [M, K] by its last axis; the plan is made again
// when M changes. Anything else runs `previous`.
// A module's weight (and bias) packed into the plan is all the node needs while the plan fits:
// the interpreter's copy is given back (`released`), and runs with the same M do not ask for it.
// LinearAct (linear-act) is the same product with its activation as the primitive's eltwise
// post-op, applied as each block of the output is written.
struct LinearPlan {
  int64_t m = 0, k = 0, n = 0;
  dnnl::matmul primitive;
  memory weights, bias;
  memory::desc src, dst;
  bool has_bias = false;
  bool use_fallback = false;
  bool released = false;
  bool serial = false;
};

std::vector<Value> runLinear(const LinearPlan& plan, const Value& a) {
  SerialScope scope(plan.serial);
  std::vector<int64_t> shape = a.shape;
  shape.back() = plan.n;
  Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, memory(plan.src, engine(), const_cast<float*>(a.f.data()))},
      {DNNL_ARG_WEIGHTS, plan.weights},
      {DNNL_ARG_DST, memory(plan.dst, engine(), y.f.data())}};
  if (plan.has_bias) args[DNNL_ARG_BIAS] = plan.bias;
  plan.primitive.execute(stream(), args);
  stream().wait();
  return outputs(std::move(y));
}

Kernel linear(Kernel previous, bool with_activation) {
  return [previous, with_activation](const KernelContext& c) -> std::vector<Value> {
    const Value& a = c.input(0);
    // The plan made on the module's weight: everything but A was checked when it was made.
    const LinearPlan* kept = c.keptPlan<LinearPlan>();
    if (kept && kept->released && a.isFloat() && !a.native && a.shape.size() >= 2 && !a.f.empty() &&
        a.shape.back() == kept->k && a.numel() / kept->k == kept->m)
      return runLinear(*kept, a);
    if (kept && kept->released) {  // an input the plan does not take (empty, native, ...):
      c.releaseTensor("weight");   // the copies the general path makes go again after it
      c.releaseTensor("bias");
    }
    const Value* w = parameter(c, "weight", 1);
    const Value* b = parameter(c, "bias", 2);
    bool constant_weight = c.tensor("weight") || c.constantInput(1);
    bool constant_bias = !b || c.tensor("bias") || c.constantInput(2);
    if (!a.isFloat() || a.native || a.shape.size() < 2 || a.f.empty() || !w || !w->isFloat() ||
        w->native || w->shape.size() != 2 || !constant_weight || !constant_bias || !c.state() ||
        c.intAttribute("transA", 0) != 0 || c.floatAttribute("alpha", 1.0f) != 1.0f ||
        c.floatAttribute("beta", 1.0f) != 1.0f)
      return previous(c);
    bool trans_b = c.intAttribute("transB", 0) != 0;
    int64_t k = a.shape.back(), n = trans_b ? w->shape[0] : w->shape[1];
    if ((trans_b ? w->shape[1] : w->shape[0]) != k) return previous(c);  // its error
    if (b && (!b->isFloat() || b->native || b->numel() != n || b->shape.size() > 2 ||
              (b->shape.size() == 2 && b->shape[0] != 1)))
      return previous(c);  // a bias per row: the general path
    std::optional<Eltwise> post;
    if (with_activation && !(post = postOpOf(c))) return previous(c);
    int64_t m = a.numel() / k;
    LinearPlan& plan = c.plan<LinearPlan>(
        [&](const LinearPlan& p) { return p.m == m; },
        [&] {
          auto p = std::make_shared<LinearPlan>();
          p->m = m;
          p->k = k;
          p->n = n;
          p->has_bias = b != nullptr;
          p->serial =
              2.0 * static_cast<double>(m) * static_cast<double>(k) * static_cast<double>(n) <
              kSerialFlops;
          SerialScope scope(p->serial);
          try {
            p->src = memory::desc(dimsOf({m, k}), kF32, Tag::ab);
            p->dst = memory::desc(dimsOf({m, n}), kF32, Tag::ab);
            memory::desc weights_any(dimsOf({k, n}), kF32, Tag::any);
            memory::desc bias_desc =
                b ? memory::desc(dimsOf({1, n}), kF32, Tag::ab) : memory::desc();
            dnnl::matmul::desc desc(p->src, weights_any, bias_desc, p->dst);
            dnnl::primitive_attr attr;
            if (post) {
              dnnl::post_ops ops;
              post->appendTo(ops);
              attr.set_post_ops(ops);
            }
            dnnl::matmul::primitive_desc pd(desc, attr, engine());
            p->primitive = dnnl::matmul(pd);
            // The weight as stored: [K, N], or [N, K] read transposed.
            memory user(memory::desc(dimsOf({k, n}), kF32, trans_b ? Tag::ba : Tag::ab), engine(),
                        const_cast<float*>(w->f.data()));
            p->weights = memory(pd.weights_desc(), engine());
            dnnl::reorder(user, p->weights).execute(stream(), user, p->weights);
            stream().wait();
            if (b) {
              p->bias = memory(bias_desc, engine());
              std::memcpy(p->bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));
            }
          } catch (const dnnl::error&) {
            p->use_fallback = true;
          }
          return p;
        });
    if (plan.use_fallback) return previous(c);
    if (!plan.released) plan.released = releasePacked(c, b);
    return runLinear(plan, a);
  };
}

// com.microsoft.MatMulIntegerToFloat on oneDNN's int8 matmul: an 8-bit A of any rank ([..., K],
// zero point per tensor), a constant int8 B [K, N] with zero point 0 (packed once), one scale or
// one per column, a float bias; the product in s32, rescaled by a_scale·b_scale[n] (oneDNN's
// output scales; the bias, added before them, in accumulator units) into float.
struct QMatmulPlan {
  int64_t m = 0;
  ir::DType a_type = ir::DType::kUndefined;
  dnnl::matmul primitive;
  memory weights, bias, src_zero_point;
  memory::desc src, dst;
  bool use_reference = false;
};

Kernel matmulIntegerToFloat(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() < 4 || !c.state()) return onPlainInputs(reference, c);
    const Value &a = c.input(0), &b = c.input(1), &a_scale = c.input(2), &b_scale = c.input(3);
    const Value *a_zp = c.optionalInput(4), *b_zp = c.optionalInput(5), *bias = c.optionalInput(6);
    for (size_t k = 1; k < c.inputCount(); ++k) {
      if (c.optionalInput(k) && !c.constantInput(k)) return onPlainInputs(reference, c);
    }
    if (!isInt8(a.dtype) || a.shape.size() < 2 || b.dtype != ir::DType::kInt8 ||
        b.shape.size() != 2 || b.shape[0] != a.shape.back() || b.shape[0] == 0 ||
        !scalarOf(&a_scale, true) || !b_scale.isFloat() ||
        (a_zp && (!scalarOf(a_zp, false) || a_zp->dtype != a.dtype)))
      return onPlainInputs(reference, c);
    int64_t k = b.shape[0], n = b.shape[1], m = a.numel() / k;
    if ((b_scale.numel() != 1 && b_scale.numel() != n) ||
        (bias && (!bias->isFloat() || bias->numel() != n)) ||
        (b_zp && (b_zp->isFloat() ||
                  std::any_of(b_zp->i.begin(), b_zp->i.end(), [](int64_t z) { return z != 0; }))))
      return onPlainInputs(reference, c);
    QMatmulPlan& plan = c.plan<QMatmulPlan>(
        [&](const QMatmulPlan& p) { return p.m == m && p.a_type == a.dtype; },
        [&] {
          auto p = std::make_shared<QMatmulPlan>();
          p->m = m;
          p->a_type = a.dtype;
          p->use_reference = true;
          std::vector<float> scales;
          for (float s : b_scale.f) {
            double scale = static_cast<double>(a_scale.f[0]) * s;
            if (!(scale > 0) || !std::isfinite(scale)) return p;  // the reference's result
            scales.push_back(static_cast<float>(scale));
          }
          auto s8 = memory::data_type::s8, s32 = memory::data_type::s32;
          try {
            p->src = memory::desc(dimsOf({m, k}), dnnlType(a.dtype), Tag::ab);
            p->dst = memory::desc(dimsOf({m, n}), kF32, Tag::ab);
            memory::desc bias_desc =
                bias ? memory::desc(dimsOf({1, n}), kF32, Tag::ab) : memory::desc();
            dnnl::matmul::desc desc(p->src, memory::desc(dimsOf({k, n}), s8, Tag::any), bias_desc,
                                    p->dst);
            dnnl::primitive_attr attr;
            attr.set_output_scales(scales.size() == 1 ? 0 : 1 << 1, scales);
            if (a_zp && a_zp->i[0] != 0) {
              attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
              p->src_zero_point = memory(memory::desc({1}, s32, Tag::x), engine());
              *static_cast<int32_t*>(p->src_zero_point.get_data_handle()) =
                  static_cast<int32_t>(a_zp->i[0]);
            }
            dnnl::matmul::primitive_desc pd(desc, attr, engine());
            p->primitive = dnnl::matmul(pd);
            memory user(memory::desc(dimsOf({k, n}), s8, Tag::ab), engine());
            auto* narrow = static_cast<int8_t*>(user.get_data_handle());
            for (size_t e = 0; e < b.i.size(); ++e) narrow[e] = static_cast<int8_t>(b.i[e]);
            p->weights = memory(pd.weights_desc(), engine());
            dnnl::reorder(user, p->weights).execute(stream(), user, p->weights);
            stream().wait();
            if (bias) {
              p->bias = memory(bias_desc, engine());
              auto* to = static_cast<float*>(p->bias.get_data_handle());
              for (int64_t e = 0; e < n; ++e)
                to[e] = static_cast<float>(static_cast<double>(bias->f[static_cast<size_t>(e)]) /
                                           scales[scales.size() == 1 ? 0 : static_cast<size_t>(e)]);
            }
          } catch (const dnnl::error&) {
            return p;
          }
          p->use_reference = false;
          return p;
        });
    if (plan.use_reference) return onPlainInputs(reference, c);
    // A as plain row-major 8-bit elements.
    memory in = memoryOf(a);
    memory::desc plain = retyped(plainDesc(a.shape), dnnlType(a.dtype));
    if (!(in.get_desc() == plain)) {
      memory relaid(plain, engine());
      dnnl::reorder(in, relaid).execute(stream(), in, relaid);
      stream().wait();
      in = relaid;
    }
    std::vector<int64_t> shape = a.shape;
    shape.back() = n;
    Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(checkedNumel(shape))));
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, memory(plan.src, engine(), in.get_data_handle())},
        {DNNL_ARG_WEIGHTS, plan.weights},
        {DNNL_ARG_DST, memory(plan.dst, engine(), y.f.data())}};
    if (plan.bias) args[DNNL_ARG_BIAS] = plan.bias;
    if (plan.src_zero_point) args[DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC] = plan.src_zero_point;
    plan.primitive.execute(stream(), args);
    stream().wait();
    return outputs(std::move(y));
  };
}

// fxc.QLinearLookup of an 8-bit value in a oneDNN layout without padding or blocks, in that
// layout: an element's table row is its index along the axis, which a dense layout's strides
// give as (offset / stride) mod rows. The table is narrowed to bytes once when it is a constant.
struct LookupPlan {
  std::vector<uint8_t> table;  // rows × 256 result bytes, indexed by the input's byte
  // The rows as integer affine maps, when every row is one (a BatchNorm and ReLU's table):
  // computed with vector arithmetic instead of a byte gather per element.
  std::optional<AffineRows> affine;
};

// (a·v + b) >> 16 clamped to [lo, hi], v an 8-bit input value: AffineRows' map, in int32 as
// affineRows checked it. kPerRow: element k on row k; else one map (the first) for the run.
// (The run's map in locals: y's bytes may alias anything, which would reload it per element.)
template <typename In, bool kPerRow>
inline void affineLoop(const In* x, uint8_t* y, size_t n, const int32_t* a, const int32_t* b,
                       const int32_t* lo, const int32_t* hi) {
  if constexpr (!kPerRow) {
    const int32_t a0 = *a, b0 = *b, lo0 = *lo, hi0 = *hi;
    for (size_t k = 0; k < n; ++k) {
      int32_t t = (a0 * static_cast<int32_t>(x[k]) + b0) >> 16;
      y[k] = static_cast<uint8_t>(std::min(std::max(t, lo0), hi0));
    }
  } else {
    for (size_t k = 0; k < n; ++k) {
      int32_t t = (a[k] * static_cast<int32_t>(x[k]) + b[k]) >> 16;
      y[k] = static_cast<uint8_t>(std::min(std::max(t, lo[k]), hi[k]));
    }
  }
}
// per_row: element k on row k (a channels-last pixel, or part of one); else all on the first.
FXC_VECTOR_CLONES void affineRange(const uint8_t* x, uint8_t* y, size_t n, bool per_row,
                                   const int32_t* a, const int32_t* b, const int32_t* lo,
                                   const int32_t* hi) {
  per_row ? affineLoop<uint8_t, true>(x, y, n, a, b, lo, hi)
          : affineLoop<uint8_t, false>(x, y, n, a, b, lo, hi);
}
FXC_VECTOR_CLONES void affineRange(const int8_t* x, uint8_t* y, size_t n, bool per_row,
                                   const int32_t* a, const int32_t* b, const int32_t* lo,
                                   const int32_t* hi) {
  per_row ? affineLoop<int8_t, true>(x, y, n, a, b, lo, hi)
          : affineLoop<int8_t, false>(x, y, n, a, b, lo, hi);
}

// What the plan does for the elements [begin, end) of run `row`, or (per_row) for elements whose
// rows start at `row` and go up by one each: the affine maps, or the table's bytes.
struct LookupRun {
  const LookupPlan& plan;
  bool is_signed;
  const uint8_t* x;
  uint8_t* y;
  void operator()(size_t begin, size_t end, size_t row, bool per_row) const {
    if (end <= begin) return;
    if (const AffineRows* f = plan.affine ? &*plan.affine : nullptr) {
      const int32_t *a = f->a.data() + row, *b = f->b.data() + row, *lo = f->lo.data() + row,
                    *hi = f->hi.data() + row;
      size_t n = end - begin;
      if (is_signed)
        return affineRange(reinterpret_cast<const int8_t*>(x) + begin, y + begin, n, per_row, a, b,
                           lo, hi);
      return affineRange(x + begin, y + begin, n, per_row, a, b, lo, hi);
    }
    const uint8_t* table = plan.table.data() + row * 256;
    if (per_row) {
      for (size_t k = begin, r = 0; k < end; ++k, ++r) y[k] = table[r * 256 + x[k]];
    } else {
      for (size_t k = begin; k < end; ++k) y[k] = table[x[k]];
    }
  }
};
Kernel lookupInt8(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() != 2) return onPlainInputs(reference, c);
    const Value &x = c.input(0), &table = c.input(1);
    if (!x.native || !isInt8(x.dtype) || table.native || !isInt8(table.dtype) ||
        table.shape.size() != 1 || table.numel() == 0 || table.numel() % 256 != 0)
      return onPlainInputs(reference, c);
    memory in = memoryOf(x);
    const memory::desc& desc = in.get_desc();
    size_t n = static_cast<size_t>(x.numel());
    if (!unpadded(desc) || desc.get_size() != n) return onPlainInputs(reference, c);
    size_t rows = static_cast<size_t>(table.numel() / 256), stride = 1;
    if (rows > 1) {
      int64_t axis = c.intAttribute("axis", 1);
      int64_t rank = static_cast<int64_t>(x.shape.size());
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank || x.shape[static_cast<size_t>(axis)] != table.numel() / 256 ||
          desc.data.format_desc.blocking.inner_nblks != 0)
        return onPlainInputs(reference, c);  // the reference's error, or a blocked layout
      stride = static_cast<size_t>(desc.data.format_desc.blocking.strides[axis]);
    }
    auto narrow = [&] {
      auto p = std::make_shared<LookupPlan>();
      p->table.resize(table.i.size());
      // Row r's entry for the input byte b: the table's element for the value b stands for.
      int64_t offset = x.dtype == ir::DType::kInt8 ? 128 : 0;
      for (size_t r = 0; r < rows; ++r) {
        for (int64_t b = 0; b < 256; ++b) {
          int64_t value = x.dtype == ir::DType::kInt8 ? static_cast<int8_t>(b) : b;
          p->table[r * 256 + static_cast<size_t>(b)] =
              static_cast<uint8_t>(table.i[r * 256 + static_cast<size_t>(value + offset)]);
        }
      }
      if (c.constantInput(1)) p->affine = affineRows(table.i, rows, -offset);  // fitted once
      return p;
    };
    std::shared_ptr<LookupPlan> fresh;
    const LookupPlan& plan =
        c.constantInput(1) ? c.plan<LookupPlan>([](const LookupPlan&) { return true; }, narrow)
                           : *(fresh = narrow());
    memory y(retyped(desc, dnnlType(table.dtype)), engine());
    const auto* from = static_cast<const uint8_t*>(in.get_data_handle());
    auto* to = static_cast<uint8_t*>(y.get_data_handle());
    LookupRun lookup{plan, x.dtype == ir::DType::kInt8, from, to};
    inBlocks(n, [&](size_t begin, size_t end) {
      if (rows == 1) return lookup(begin, end, 0, false);
      if (stride == 1) {  // the rest of a pixel, whole pixels, the start of one
        size_t row = begin % rows, head = std::min(end - begin, (rows - row) % rows);
        lookup(begin, begin + head, row, true);
        size_t k = begin + head;
        for (; k + rows <= end; k += rows) lookup(k, k + rows, 0, true);
        return lookup(k, end, 0, true);
      }
      // Runs of `stride` elements share a row; the row advances (cyclically) run by run.
      size_t row = (begin / stride) % rows, left = stride - begin % stride;
      for (size_t k = begin; k < end;) {
        size_t run = std::min(left, end - k);
        lookup(k, k + run, row, false);
        k += run;
        left = stride;
        row = row + 1 == rows ? 0 : row + 1;
      }
    });
    return outputs(valueOf(std::move(y), x.shape, {}, table.dtype));
  };
}

// com.microsoft.QLinearGlobalAveragePool of an 8-bit [N, C, H, W] in a plain or channels-last
// oneDNN layout: the integer plane sums (vectorized: along the pixel in NCHW, across the
// channels in NHWC), then the reference's arithmetic per plane (meanOfQuantized, QuantizeLinear).
template <typename T>
FXC_VECTOR_CLONES void sumPlanes(const T* x, int64_t* sums, size_t n, size_t c, size_t inner,
                                 bool channels_last) {
  std::vector<int32_t> acc(c);  // |sum| < 2^31: inner below 2^23 (checked)
  for (size_t b = 0; b < n; ++b) {
    const T* at = x + b * c * inner;
    if (channels_last) {
      std::fill(acc.begin(), acc.end(), 0);
      for (size_t p = 0; p < inner; ++p, at += c)
        for (size_t k = 0; k < c; ++k) acc[k] += at[k];
      for (size_t k = 0; k < c; ++k) sums[b * c + k] = acc[k];
    } else {
      for (size_t k = 0; k < c; ++k, at += inner) {
        int32_t sum = 0;
        for (size_t p = 0; p < inner; ++p) sum += at[p];
        sums[b * c + k] = sum;
      }
    }
  }
}

Kernel quantizedGlobalAveragePool(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() < 4) return onPlainInputs(reference, c);
    const Value& x = c.input(0);
    const Value *zx = c.optionalInput(2), *zy = c.optionalInput(4);
    if (!x.native || !isInt8(x.dtype) || x.shape.size() != 4 || !scalarOf(&c.input(1), true) ||
        !scalarOf(&c.input(3), true) || (zx && (!scalarOf(zx, false) || zx->dtype != x.dtype)) ||
        (zy && (!scalarOf(zy, false) || !isInt8(zy->dtype))) ||
        c.intAttribute("channels_last", 0) != 0)
      return onPlainInputs(reference, c);
    memory in = memoryOf(x);
    const memory::desc& desc = in.get_desc();
    const auto& blocking = desc.data.format_desc.blocking;
    auto [n, ch, h, w] = std::array<int64_t, 4>{x.shape[0], x.shape[1], x.shape[2], x.shape[3]};
    int64_t inner = h * w;
    if (!unpadded(desc) || blocking.inner_nblks != 0 || inner == 0 || inner >= (1 << 23))
      return onPlainInputs(reference, c);
    const auto* st = blocking.strides;
    bool nchw = st[3] == 1 && st[2] == w && st[1] == inner && st[0] == ch * inner;
    bool nhwc = st[1] == 1 && st[3] == ch && st[2] == w * ch && st[0] == ch * inner;
    if (!nchw && !nhwc) return onPlainInputs(reference, c);
    std::vector<int64_t> sums(static_cast<size_t>(n * ch));
    auto [sn, sc, si] = std::array<size_t, 3>{static_cast<size_t>(n), static_cast<size_t>(ch),
                                              static_cast<size_t>(inner)};
    if (x.dtype == ir::DType::kUInt8)
      sumPlanes(static_cast<const uint8_t*>(in.get_data_handle()), sums.data(), sn, sc, si, nhwc);
    else
      sumPlanes(static_cast<const int8_t*>(in.get_data_handle()), sums.data(), sn, sc, si, nhwc);
    ir::DType dtype = zy ? zy->dtype : ir::DType::kUInt8;
    QuantRange range = dtype == ir::DType::kUInt8 ? QuantRange{0, 255} : QuantRange{-128, 127};
    QuantParams out{c.input(3).f[0], zy ? zy->i[0] : 0};
    int64_t z = zx ? zx->i[0] : 0;
    Value y = Value::ints({n, ch, 1, 1}, std::vector<int64_t>(sums.size()), dtype);
    for (size_t k = 0; k < sums.size(); ++k)
      y.i[k] =
          quantizeValue(meanOfQuantized(sums[k] - inner * z, inner, c.input(1).f[0]), out, range);
    return outputs(std::move(y));
  };
}

// Replaces the kernels under `keys` by `make(reference)`.
template <typename Make>
void wrap(KernelTable& t, std::initializer_list<const char*> keys, Make make) {
  for (const char* key : keys) t[key] = make(t.at(key));
}

}  // namespace

void addFastKernels(KernelTable& t) {
  auto conv = [](Fused fused, bool transposed = false) {
    return [fused, transposed](const Kernel& reference) {
      return convolution(reference, fused, transposed);
    };
  };
  wrap(t, {"module:Conv2d", "torch.nn.functional.conv2d"}, conv(Fused::kNone));
  wrap(t, {"module:ConvReLU2d"}, conv(Fused::kRelu));
  wrap(t, {"module:ConvAddReLU2d"}, conv(Fused::kAddRelu));
  wrap(t, {"module:ConvAct2d"}, conv(Fused::kActivation));
  wrap(t, {"module:ConvTranspose2d", "torch.nn.functional.conv_transpose2d"},
       conv(Fused::kNone, true));
  wrap(t, {"module:MaxPool2d", "torch.nn.functional.max_pool2d"}, pooling<true>);
  for (auto [key, out] : {std::pair{"onnx.QLinearConv", QConvOut::kInt8},
                          std::pair{"fxc.QLinearConvToFloat", QConvOut::kFloat},
                          std::pair{"fxc.QLinearConvAct", QConvOut::kInt8Activation}})
    wrap(t, {key}, [out = out](const Kernel& r) { return quantizedConvolution(r, out); });
  wrap(t, {"fxc.QLinearConvTranspose"},
       [](const Kernel& r) { return quantizedConvolution(r, QConvOut::kInt8, true); });
  wrap(t, {"onnx.QuantizeLinear"}, quantizeToInt8);
  wrap(t, {"onnx.DequantizeLinear"}, dequantizeFromInt8);
  wrap(t, {"com.microsoft.QLinearAdd"}, quantizedBinary<false>);
  wrap(t, {"com.microsoft.QLinearMul"}, quantizedBinary<true>);
  wrap(t, {"com.microsoft.MatMulIntegerToFloat"}, matmulIntegerToFloat);
  wrap(t, {"torch.maximum"}, int8Bound<true>);
  wrap(t, {"torch.minimum"}, int8Bound<false>);
  wrap(t, {"fxc.QLinearLookup"}, lookupInt8);
  wrap(t, {"com.microsoft.QLinearGlobalAveragePool"}, quantizedGlobalAveragePool);
  wrap(t, {"module:AvgPool2d", "torch.nn.functional.avg_pool2d"}, pooling<false>);
  // 1-D ops through the fast 2-D kernels.
  for (auto [one_d, two_d] :
       {std::pair{"module:Conv1d", "module:Conv2d"},
        std::pair{"torch.nn.functional.conv1d", "torch.nn.functional.conv2d"},
        std::pair{"module:MaxPool1d", "module:MaxPool2d"},
        std::pair{"torch.nn.functional.max_pool1d", "torch.nn.functional.max_pool2d"},
        std::pair{"module:AvgPool1d", "module:AvgPool2d"},
        std::pair{"torch.nn.functional.avg_pool1d", "torch.nn.functional.avg_pool2d"}})
    t[one_d] = liftTo2d(t.at(two_d));
  wrap(t, {"torch.softmax", "module:Softmax"}, softmax);
  wrap(t, {"torch.nn.functional.layer_norm", "module:LayerNorm"}, layerNorm);
  wrap(t, {"torch.nn.functional.gelu", "module:GELU"}, eltwise<dnnl::algorithm::eltwise_gelu_erf>);
  wrap(t, {"module:SiLU"}, eltwise<dnnl::algorithm::eltwise_swish, 1>);
  wrap(t, {"torch.sum"}, reduction<dnnl::algorithm::reduction_sum>);
  wrap(t, {"torch.mean"}, reduction<dnnl::algorithm::reduction_mean>);
  wrap(t, {"torch.amax"}, reduction<dnnl::algorithm::reduction_max>);
  wrap(t, {"torch.amin"}, reduction<dnnl::algorithm::reduction_min>);
  add(t, {"module:Linear", "onnx.Gemm"}, gemmKernel(dnnlProduct));
  wrap(t, {"module:Linear", "onnx.Gemm"}, [](const Kernel& r) { return linear(r, false); });
  wrap(t, {"module:LinearAct"}, [](const Kernel& r) { return linear(r, true); });
  add(t, {"operator.matmul"}, matmulKernel(dnnlProduct, true));
  add(t, {"fxc.Attention"}, attentionKernel(dnnlProduct, dnnlSoftmaxRows, true));
  wrap(t, {"torch.nn.functional.pad", "module:ConstantPad2d"}, constantPadByRows);
  wrap(t, {"onnx.Gather"}, gatherByBlocks);
  onednn::addLayoutKernels(t);  // last: they wrap the kernels above (the plain eltwise ones too)
}

const std::vector<std::string>& nativeKernelKeys() {
  // Convolution: module calls only (their parameters are module tensors, never native; the
  // functional forms may take a weight as an input). The pooling and quantization kernels check
  // what they get and hand anything else to the reference kernels on plain copies.
  static const std::vector<std::string> keys = {"module:Conv2d",
                                                "module:ConvReLU2d",
                                                "module:ConvAddReLU2d",
                                                "module:ConvAct2d",
                                                "module:ConvTranspose2d",
                                                "module:MaxPool2d",
                                                "module:AvgPool2d",
                                                "torch.nn.functional.max_pool2d",
                                                "torch.nn.functional.avg_pool2d",
                                                "onnx.QLinearConv",
                                                "fxc.QLinearConvToFloat",
                                                "fxc.QLinearConvAct",
                                                "fxc.QLinearConvTranspose",
                                                "onnx.QuantizeLinear",
                                                "onnx.DequantizeLinear",
                                                "com.microsoft.QLinearAdd",
                                                "com.microsoft.QLinearMul",
                                                "com.microsoft.MatMulIntegerToFloat",
                                                "torch.maximum",
                                                "torch.minimum",
                                                "fxc.QLinearLookup",
                                                "com.microsoft.QLinearGlobalAveragePool"};
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out = keys;
    for (const std::string& key : onednn::layoutKernelKeys()) out.push_back(key);
    return out;
  }();
  return all;
}

void setThreads(int threads) { omp_set_num_threads(std::max(threads, 1)); }

int maxThreads() { return omp_get_max_threads(); }

}  // namespace fxc::exec
