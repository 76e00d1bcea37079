// Fast CPU kernels through oneDNN: 2-D convolution, alone or fused with ReLU (ConvReLU2d) or with
// a residual add and ReLU (ConvAddReLU2d); max/average pooling; and the matrix products behind
// Gemm/Linear/MatMul. A convolution is planned once per input shape and layout: the primitive,
// the weights reordered once into the layout oneDNN picks, the reorders it needs. Its output
// stays in that layout (NativeData) for the next convolution or pooling; the interpreter converts
// it for any other kernel. Each kernel falls back to the reference one for what it does not cover.
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

memory::desc plainDesc(const std::vector<int64_t>& shape) {
  return memory::desc(memory::dims(shape.begin(), shape.end()), kF32, Tag::nchw);
}

// A value in one of oneDNN's layouts.
class DnnlData : public NativeData {
 public:
  explicit DnnlData(memory data) : data_(std::move(data)) {}
  const memory& data() const { return data_; }
  std::vector<float> plain() const override {
    memory::desc desc = data_.get_desc();
    memory::dims dims = desc.dims();
    size_t n = 1;
    for (auto d : dims) n *= static_cast<size_t>(d);
    std::vector<float> out(n);
    memory plain(memory::desc(dims, kF32, Tag::nchw), engine(), out.data());
    dnnl::reorder(data_, plain).execute(stream(), const_cast<memory&>(data_), plain);
    stream().wait();
    return out;
  }

 private:
  memory data_;
};

// The input as oneDNN memory: its native memory, or a view of its plain elements.
memory memoryOf(const Value& x) {
  if (x.native) {
    if (const auto* data = dynamic_cast<const DnnlData*>(x.native.get())) return data->data();
    throw ExecError("a value in a layout oneDNN does not know");
  }
  return memory(plainDesc(x.shape), engine(), const_cast<float*>(x.f.data()));
}

// A value for memory `data` of `shape`: plain elements when its layout is plain, else native.
Value valueOf(memory data, const std::vector<int64_t>& shape, std::vector<float> plain_storage) {
  Value y;
  y.shape = shape;
  if (plain_storage.empty()) {
    y.native = std::make_shared<DnnlData>(std::move(data));
  } else {
    y.f = std::move(plain_storage);
  }
  return y;
}

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

// Fused activation and residual add after a convolution.
enum class Fused { kNone, kRelu, kAddRelu };

// What a convolution node keeps between runs.
struct ConvPlan {
  std::vector<int64_t> src_shape;
  bool use_reference = false;  // oneDNN has no implementation for this case
  dnnl::convolution_forward conv;
  memory::desc dst;
  bool dst_plain = false;
  memory::desc user_weights;
  memory weights, bias;
  Relayout src;
};

std::shared_ptr<ConvPlan> planConvolution(const ConvGeometry& g, const Value* b, Fused fused) {
  auto plan = std::make_shared<ConvPlan>();
  const Window& win = g.win;
  memory::dims src_dims = dimsOf({g.n, g.cin, g.h, g.w});
  memory::dims dst_dims = dimsOf({g.n, g.cout, g.oh, g.ow});
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
  dnnl::post_ops ops;
  if (fused == Fused::kAddRelu) ops.append_sum(1.0f);  // dst holds the residual before the run
  if (fused != Fused::kNone) ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  dnnl::convolution_forward::primitive_desc pd(desc, attr, engine());
  plan->conv = dnnl::convolution_forward(pd);
  plan->dst = pd.dst_desc();
  plan->dst_plain = plan->dst == plainDesc({g.n, g.cout, g.oh, g.ow});
  plan->src.to = pd.src_desc();
  plan->user_weights = memory::desc(weight_dims, kF32, g.groups == 1 ? Tag::oihw : Tag::goihw);
  plan->weights = memory(pd.weights_desc(), engine());
  if (b) {
    plan->bias = memory(pd.bias_desc(), engine());
    std::memcpy(plan->bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));
  }
  return plan;
}

void reorderWeights(ConvPlan& plan, const Value& w) {
  memory user(plan.user_weights, engine(), const_cast<float*>(w.f.data()));
  dnnl::reorder(user, plan.weights).execute(stream(), user, plan.weights);
  stream().wait();
}

Kernel convolution(Kernel reference, Fused fused) {
  return [reference, fused](const KernelContext& c) -> std::vector<Value> {
    const Value& x = requireFloat(c.input(0), "the input");
    const Value* module_weight = c.tensor("weight");
    const Value* w = module_weight ? module_weight : c.optionalInput(1);
    const Value* b = c.tensor("bias") ? c.tensor("bias") : c.optionalInput(2);
    const Value* residual = fused == Fused::kAddRelu ? &c.input(1) : nullptr;
    if (!w || !w->isFloat() || w->native || x.shape.size() != 4 || w->shape.size() != 4 ||
        (b && (!b->isFloat() || b->native || b->numel() != w->shape[0])) || !c.state())
      return onPlainInputs(reference, c);
    ConvGeometry g = convGeometry(c, x, *w);
    std::vector<int64_t> out_shape = {g.n, g.cout, g.oh, g.ow};
    if (residual && (!residual->isFloat() || residual->shape != out_shape))
      return onPlainInputs(reference, c);  // the reference's error
    ConvPlan& plan =
        c.plan<ConvPlan>([&](const ConvPlan& kept) { return kept.src_shape == x.shape; },
                         [&] {
                           std::shared_ptr<ConvPlan> made;
                           try {
                             made = planConvolution(g, b, fused);
                             if (module_weight) reorderWeights(*made, *w);
                           } catch (const dnnl::error&) {
                             made = std::make_shared<ConvPlan>();
                             made->use_reference = true;
                           }
                           made->src_shape = x.shape;
                           return made;
                         });
    if (plan.use_reference) return onPlainInputs(reference, c);
    if (!module_weight) reorderWeights(plan, *w);  // a weight computed at run time
    if (b && !c.tensor("bias"))                    // likewise a bias
      std::memcpy(plan.bias.get_data_handle(), b->f.data(), b->f.size() * sizeof(float));

    std::vector<float> plain_storage;
    memory dst;
    if (plan.dst_plain) {
      plain_storage.resize(static_cast<size_t>(g.n * g.cout * g.oh * g.ow));
      dst = memory(plan.dst, engine(), plain_storage.data());
    } else {
      dst = memory(plan.dst, engine());
    }
    if (residual) {
      // The sum post-op adds what dst holds: the residual, in dst's layout.
      memory r = memoryOf(*residual);
      if (r.get_desc() == plan.dst) {
        std::memcpy(dst.get_data_handle(), r.get_data_handle(), plan.dst.get_size());
      } else {
        dnnl::reorder(r, dst).execute(stream(), r, dst);
      }
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_SRC, plan.src.apply(memoryOf(x))},
                                            {DNNL_ARG_WEIGHTS, plan.weights},
                                            {DNNL_ARG_DST, dst}};
    if (b) args[DNNL_ARG_BIAS] = plan.bias;
    plan.conv.execute(stream(), args);
    stream().wait();
    return {valueOf(std::move(dst), out_shape, std::move(plain_storage))};
  };
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
  // The end padding that makes oneDNN's output size ONNX's (ceil_mode adds windows).
  int64_t pad_bottom = (g.oh - 1) * win.strides[0] + win.kernel[0] - g.h - win.pads[0];
  int64_t pad_right = (g.ow - 1) * win.strides[1] + win.kernel[1] - g.w - win.pads[1];
  bool same_padding = pad_bottom == win.pads[2] && pad_right == win.pads[3];
  plan->use_reference = win.dilations[0] != 1 || win.dilations[1] != 1 ||
                        (!max && g.include_pad && !same_padding) || pad_bottom < 0 || pad_right < 0;
  if (!plan->use_reference) {
    auto algorithm = max             ? dnnl::algorithm::pooling_max
                     : g.include_pad ? dnnl::algorithm::pooling_avg_include_padding
                                     : dnnl::algorithm::pooling_avg_exclude_padding;
    // The output in the input's layout (blocked stays blocked).
    memory::desc dst_any(dimsOf({g.n, g.ch, g.oh, g.ow}), kF32, Tag::any);
    try {
      dnnl::pooling_forward::desc desc(
          dnnl::prop_kind::forward_inference, algorithm, plan->src, dst_any,
          dimsOf({win.strides[0], win.strides[1]}), dimsOf({win.kernel[0], win.kernel[1]}),
          dimsOf({win.pads[0], win.pads[1]}), dimsOf({pad_bottom, pad_right}));
      dnnl::pooling_forward::primitive_desc pd(desc, engine());
      plan->pool = dnnl::pooling_forward(pd);
      plan->dst = pd.dst_desc();
      plan->dst_plain = plan->dst == plainDesc({g.n, g.ch, g.oh, g.ow});
    } catch (const dnnl::error&) {
      plan->use_reference = true;
    }
  }
  return plan;
}

template <bool kMax>
Kernel pooling(Kernel reference) {
  return [reference](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!x.isFloat() || x.shape.size() != 4 || !c.state() || (kMax && c.outputUsed(1)))
      return onPlainInputs(reference, c);
    PoolGeometry g = poolGeometry(c, x);
    memory src = memoryOf(x);
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
    return {valueOf(std::move(dst), {g.n, g.ch, g.oh, g.ow}, std::move(plain_storage))};
  };
}

// Replaces the kernels under `keys` by `make(reference)`.
template <typename Make>
void wrap(KernelTable& t, std::initializer_list<const char*> keys, Make make) {
  for (const char* key : keys) t[key] = make(t.at(key));
}

}  // namespace

void addFastKernels(KernelTable& t) {
  auto conv = [](Fused fused) {
    return [fused](const Kernel& reference) { return convolution(reference, fused); };
  };
  wrap(t, {"module:Conv2d", "torch.nn.functional.conv2d"}, conv(Fused::kNone));
  wrap(t, {"module:ConvReLU2d"}, conv(Fused::kRelu));
  wrap(t, {"module:ConvAddReLU2d"}, conv(Fused::kAddRelu));
  wrap(t, {"module:MaxPool2d", "torch.nn.functional.max_pool2d"}, pooling<true>);
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
  add(t, {"module:Linear", "onnx.Gemm"}, gemmKernel(dnnlProduct));
  add(t, {"operator.matmul"}, matmulKernel(dnnlProduct));
}

const std::vector<std::string>& nativeKernelKeys() {
  // Module calls only: their parameters are module tensors, never native; the functional forms
  // may take a weight as an input.
  static const std::vector<std::string> keys = {"module:Conv2d", "module:ConvReLU2d",
                                                "module:ConvAddReLU2d", "module:MaxPool2d",
                                                "module:AvgPool2d"};
  return keys;
}

void setThreads(int threads) { omp_set_num_threads(std::max(threads, 1)); }

int maxThreads() { return omp_get_max_threads(); }

}  // namespace fxc::exec
