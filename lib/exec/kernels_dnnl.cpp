// Fast CPU kernels through oneDNN: 2-D convolution (the primitive planned once per input shape,
// the weights reordered once per model into the layout the chosen implementation wants, the
// activation buffers of that layout reused between runs), pooling, and the matrix products
// behind Gemm/Linear/MatMul. Each falls back to the reference kernel for what it does not cover.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <oneapi/dnnl/dnnl.hpp>

#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

dnnl::engine& engine() {
  static dnnl::engine cpu(dnnl::engine::kind::cpu, 0);
  return cpu;
}

dnnl::stream& stream() {
  static dnnl::stream s(engine());
  return s;
}

memory::dims dimsOf(std::initializer_list<int64_t> dims) { return memory::dims(dims); }

// A reorder from one layout to another, or nothing when they are the same.
struct Relayout {
  bool needed = false;
  dnnl::reorder reorder;
  memory buffer;  // the memory in the primitive's layout, allocated once

  Relayout() = default;
  Relayout(const memory::desc& user, const memory::desc& wanted, bool into_wanted) {
    needed = user != wanted;
    if (!needed) return;
    buffer = memory(wanted, engine());
    reorder = into_wanted
                  ? dnnl::reorder(dnnl::reorder::primitive_desc(engine(), user, engine(), wanted))
                  : dnnl::reorder(dnnl::reorder::primitive_desc(engine(), wanted, engine(), user));
  }
};

void dnnlProduct(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a,
                 const float* b, float* y) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(y, y + m * n, 0.0f);
    return;
  }
  // oneDNN's sgemm takes row-major matrices.
  if (dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, 1.0f, a, trans_a ? m : k, b,
                 trans_b ? k : n, 0.0f, y, n) != dnnl_success)
    throw ExecError("oneDNN's sgemm failed");
}

// What a convolution node keeps between runs.
struct ConvPlan {
  std::vector<int64_t> src_shape;
  bool use_reference = false;  // oneDNN has no implementation for this case
  dnnl::convolution_forward conv;
  memory::desc user_src, user_dst, user_weights;
  memory weights, bias;
  Relayout src, dst;
};

std::shared_ptr<ConvPlan> planConvolution(const ConvGeometry& g, const Value& x, const Value* b) {
  auto plan = std::make_shared<ConvPlan>();
  plan->src_shape = x.shape;
  const Window& win = g.win;
  memory::dims src_dims = dimsOf({g.n, g.cin, g.h, g.w}),
               dst_dims = dimsOf({g.n, g.cout, g.oh, g.ow});
  memory::dims weight_dims = g.groups == 1
                                 ? dimsOf({g.cout, g.cin_g, g.kh, g.kw})
                                 : dimsOf({g.groups, g.cout / g.groups, g.cin_g, g.kh, g.kw});
  auto any = [](const memory::dims& dims) { return memory::desc(dims, kF32, Tag::any); };
  memory::desc bias_md = b ? memory::desc(dimsOf({g.cout}), kF32, Tag::x) : memory::desc();
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, any(src_dims),
      any(weight_dims), bias_md, any(dst_dims), dimsOf({win.strides[0], win.strides[1]}),
      dimsOf({win.dilations[0] - 1, win.dilations[1] - 1}), dimsOf({win.pads[0], win.pads[1]}),
      dimsOf({win.pads[2], win.pads[3]}));
  dnnl::convolution_forward::primitive_desc pd(desc, engine());
  plan->conv = dnnl::convolution_forward(pd);
  plan->user_src = memory::desc(src_dims, kF32, Tag::nchw);
  plan->user_dst = memory::desc(dst_dims, kF32, Tag::nchw);
  plan->user_weights = memory::desc(weight_dims, kF32, g.groups == 1 ? Tag::oihw : Tag::goihw);
  plan->weights = memory(pd.weights_desc(), engine());
  if (b) {
    plan->bias = memory(pd.bias_desc(), engine());
    std::memcpy(plan->bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));
  }
  plan->src = Relayout(plan->user_src, pd.src_desc(), true);
  plan->dst = Relayout(plan->user_dst, pd.dst_desc(), false);
  return plan;
}

void reorderWeights(ConvPlan& plan, const Value& w) {
  memory user(plan.user_weights, engine(), const_cast<float*>(w.f.data()));
  dnnl::reorder(user, plan.weights).execute(stream(), user, plan.weights);
  stream().wait();
}

Kernel convolution(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = requireFloat(c.input(0), "the input");
    const Value* module_weight = c.tensor("weight");
    const Value* w = module_weight ? module_weight : c.optionalInput(1);
    const Value* b = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    if (!w || !w->isFloat() || x.shape.size() != 4 || w->shape.size() != 4 ||
        (b && (!b->isFloat() || b->numel() != w->shape[0])) || !c.state())
      return reference(c);
    ConvGeometry g = convGeometry(c, x, *w);
    std::any& state = *c.state();
    auto* kept = std::any_cast<std::shared_ptr<ConvPlan>>(&state);
    if (!kept || (*kept)->src_shape != x.shape) {
      std::shared_ptr<ConvPlan> plan;
      try {
        plan = planConvolution(g, x, b);
        if (module_weight) reorderWeights(*plan, *w);
      } catch (const dnnl::error&) {
        plan = std::make_shared<ConvPlan>();
        plan->src_shape = x.shape;
        plan->use_reference = true;
      }
      state = plan;
      kept = std::any_cast<std::shared_ptr<ConvPlan>>(&state);
    }
    ConvPlan& plan = **kept;
    if (plan.use_reference) return reference(c);
    if (!module_weight) reorderWeights(plan, *w);  // a weight computed at run time

    Value y = Value::floats({g.n, g.cout, g.oh, g.ow},
                            std::vector<float>(static_cast<size_t>(g.n * g.cout * g.oh * g.ow)));
    memory user_src(plan.user_src, engine(), const_cast<float*>(x.f.data()));
    memory user_dst(plan.user_dst, engine(), y.f.data());
    if (plan.src.needed) plan.src.reorder.execute(stream(), user_src, plan.src.buffer);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, plan.src.needed ? plan.src.buffer : user_src},
        {DNNL_ARG_WEIGHTS, plan.weights},
        {DNNL_ARG_DST, plan.dst.needed ? plan.dst.buffer : user_dst}};
    if (b) args[DNNL_ARG_BIAS] = plan.bias;
    plan.conv.execute(stream(), args);
    if (plan.dst.needed) plan.dst.reorder.execute(stream(), plan.dst.buffer, user_dst);
    stream().wait();
    return {std::move(y)};
  };
}

struct PoolPlan {
  std::vector<int64_t> src_shape;
  bool use_reference = false;
  dnnl::pooling_forward pool;
  memory::desc src, dst;
};

template <bool kMax>
Kernel pooling(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = requireFloat(c.input(0), "the input");
    if (x.shape.size() != 4 || !c.state()) return reference(c);
    PoolGeometry g = poolGeometry(c, x, kMax);
    std::any& state = *c.state();
    auto* kept = std::any_cast<std::shared_ptr<PoolPlan>>(&state);
    if (!kept || (*kept)->src_shape != x.shape) {
      auto plan = std::make_shared<PoolPlan>();
      plan->src_shape = x.shape;
      const Window& win = g.win;
      // The end padding that makes oneDNN's output size ONNX's (ceil_mode adds windows).
      int64_t pad_bottom = (g.oh - 1) * win.strides[0] + win.kernel[0] - g.h - win.pads[0];
      int64_t pad_right = (g.ow - 1) * win.strides[1] + win.kernel[1] - g.w - win.pads[1];
      bool same_padding = pad_bottom == win.pads[2] && pad_right == win.pads[3];
      plan->use_reference = win.dilations[0] != 1 || win.dilations[1] != 1 ||
                            (!kMax && g.include_pad && !same_padding) || pad_bottom < 0 ||
                            pad_right < 0;
      if (!plan->use_reference) {
        plan->src = memory::desc(dimsOf({g.n, g.ch, g.h, g.w}), kF32, Tag::nchw);
        plan->dst = memory::desc(dimsOf({g.n, g.ch, g.oh, g.ow}), kF32, Tag::nchw);
        auto algorithm = kMax            ? dnnl::algorithm::pooling_max
                         : g.include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                         : dnnl::algorithm::pooling_avg_exclude_padding;
        try {
          dnnl::pooling_forward::desc desc(
              dnnl::prop_kind::forward_inference, algorithm, plan->src, plan->dst,
              dimsOf({win.strides[0], win.strides[1]}), dimsOf({win.kernel[0], win.kernel[1]}),
              dimsOf({win.pads[0], win.pads[1]}), dimsOf({pad_bottom, pad_right}));
          plan->pool = dnnl::pooling_forward(dnnl::pooling_forward::primitive_desc(desc, engine()));
        } catch (const dnnl::error&) {
          plan->use_reference = true;
        }
      }
      state = plan;
      kept = std::any_cast<std::shared_ptr<PoolPlan>>(&state);
    }
    PoolPlan& plan = **kept;
    if (plan.use_reference) return reference(c);
    Value y = Value::floats({g.n, g.ch, g.oh, g.ow},
                            std::vector<float>(static_cast<size_t>(g.n * g.ch * g.oh * g.ow)));
    memory src(plan.src, engine(), const_cast<float*>(x.f.data()));
    memory dst(plan.dst, engine(), y.f.data());
    plan.pool.execute(stream(), {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    stream().wait();
    return {std::move(y)};
  };
}

// Replaces the kernels under `keys` by `make(reference)`.
template <typename Make>
void wrap(KernelTable& t, std::initializer_list<const char*> keys, Make make) {
  for (const char* key : keys) t[key] = make(t.at(key));
}

}  // namespace

void addFastKernels(KernelTable& t) {
  wrap(t, {"module:Conv2d", "torch.nn.functional.conv2d"}, convolution);
  wrap(t, {"module:MaxPool2d", "torch.nn.functional.max_pool2d"}, pooling<true>);
  wrap(t, {"module:AvgPool2d", "torch.nn.functional.avg_pool2d"}, pooling<false>);
  add(t, {"module:Linear", "onnx.Gemm"}, gemmKernel(dnnlProduct));
  add(t, {"operator.matmul"}, matmulKernel(dnnlProduct));
}

void setThreads(int threads) { omp_set_num_threads(std::max(threads, 1)); }

int maxThreads() { return omp_get_max_threads(); }

}  // namespace fxc::exec
