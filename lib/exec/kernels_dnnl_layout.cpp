// Kernels on a value in oneDNN's layout (a convolution's output; see dnnl_common.h): the
// activations, the global average pool, BatchNorm, Concat, Transpose and a broadcast add or mul run
// on the blocked memory itself (oneDNN's eltwise, pooling, batch normalization and binary
// primitives, or a loop over the blocks), so a mobile block's conv → ReLU6 → conv, a residual add
// of two convolutions or a squeeze-excitation's x · s[N, C, 1, 1] keep the layout instead of going
// to NCHW and back around every op. Padded channels of a blocked layout stay zero, as oneDNN keeps
// them. Plain inputs, and anything these do not cover, go to the kernel each wraps, on plain
// copies.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "exec/dnnl_common.h"

namespace fxc::exec::onednn {
namespace {

bool nativeFloat(const Value& x) {
  return x.native && x.dtype == ir::DType::kFloat32 &&
         dynamic_cast<const DnnlData*>(x.native.get()) != nullptr;
}

// A primitive kept in a node's plan; made and run on the calling thread when `serial`
// (SerialScope: below kParallelElements elements, the team costs more than it saves).
struct PlannedPrimitive {
  dnnl::primitive primitive;
  bool serial = false;

  void run(const std::unordered_map<int, memory>& args) const {
    SerialScope scope(serial);
    primitive.execute(stream(), args);
    stream().wait();
  }
};

struct NativePlan : PlannedPrimitive {
  memory::desc src, src1;  // the input layouts the primitive was made for
  Eltwise activation;
  memory::desc dst;
  bool use_fallback = false;
};

// A plan kept in the node's state, made again when `fits` fails; one oneDNN declines falls back.
// Its primitive is made and run on the calling thread when every input is small (a broadcast
// operand may come first: the largest decides).
template <typename Fits, typename Make>
NativePlan& nativePlan(const KernelContext& c, Fits fits, Make make) {
  return c.plan<NativePlan>(fits, [&] {
    auto plan = std::make_shared<NativePlan>();
    int64_t largest = 0;
    for (size_t k = 0; k < c.inputCount(); ++k) {
      if (const Value* v = c.optionalInput(k)) largest = std::max(largest, v->numel());
    }
    plan->serial = largest < kParallelElements;
    SerialScope scope(plan->serial);
    try {
      make(*plan);
    } catch (const dnnl::error&) {
      plan->use_fallback = true;
    }
    return plan;
  });
}

Kernel nativeUnary(Kernel previous, std::string type) {
  return [previous, type](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    std::optional<Eltwise> activation;
    if (!nativeFloat(x) || !c.state() || !(activation = eltwiseOf(type, c)) ||
        activation->then != dnnl::algorithm::undef)  // one eltwise primitive: one step
      return onPlainInputs(previous, c);
    memory src = memoryOf(x);
    NativePlan& plan = nativePlan(
        c,
        [&](const NativePlan& p) { return p.src == src.get_desc() && p.activation == *activation; },
        [&](NativePlan& p) {
          p.src = p.dst = src.get_desc();
          p.activation = *activation;
          dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference,
                                           activation->algorithm, p.src, activation->alpha,
                                           activation->beta);
          p.primitive =
              dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(desc, engine()));
        });
    if (plan.use_fallback) return onPlainInputs(previous, c);
    memory dst(plan.dst, engine());
    plan.run({{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    return outputs(valueOf(std::move(dst), x.shape, {}));
  };
}

// The layout of a native [N, C, H, W] that the per-channel loop addresses: channels in blocks
// of 16, 8 or 4 (nChw16c, ...; the last block padded with zeros), or channels last (block 0).
std::optional<int64_t> channelBlock(const memory::desc& desc, const std::vector<int64_t>& shape) {
  if (shape.size() != 4) return std::nullopt;
  memory::dims dims(shape.begin(), shape.end());
  for (auto [tag, block] :
       {std::pair{Tag::nChw16c, int64_t{16}}, std::pair{Tag::nChw8c, int64_t{8}},
        std::pair{Tag::nChw4c, int64_t{4}}, std::pair{Tag::nhwc, int64_t{0}}}) {
    if (desc == memory::desc(dims, kF32, tag)) return block;
  }
  return std::nullopt;
}

// y = op(x, s[n, c]) over a native [N, C, H, W] laid out as `block` says; padded channels stay 0.
template <typename Op>
void perChannel(const float* x, float* y, const std::vector<float>& s,
                const std::vector<int64_t>& shape, int64_t block, Op op) {
  int64_t n_count = shape[0], channels = shape[1], plane = shape[2] * shape[3];
  if (block == 0) {
#pragma omp parallel for if (n_count * plane * channels > 32768)
    for (int64_t point = 0; point < n_count * plane; ++point) {
      const float* table = s.data() + (point / plane) * channels;
      for (int64_t c = 0; c < channels; ++c)
        y[point * channels + c] = op(x[point * channels + c], table[c]);
    }
    return;
  }
  int64_t blocks = (channels + block - 1) / block;
#pragma omp parallel for if (n_count * plane * channels > 32768)
  for (int64_t nb = 0; nb < n_count * blocks; ++nb) {
    int64_t n = nb / blocks, first = (nb % blocks) * block;
    int64_t valid = std::min(block, channels - first);
    const float* table = s.data() + n * channels + first;
    const float* in = x + nb * plane * block;
    float* out = y + nb * plane * block;
    for (int64_t p = 0; p < plane; ++p) {
      for (int64_t b = 0; b < valid; ++b) out[p * block + b] = op(in[p * block + b], table[b]);
      for (int64_t b = valid; b < block; ++b) out[p * block + b] = 0.0f;
    }
  }
}

// a + b or a · b where one operand is native: the other of its shape (oneDNN's binary, the
// other reordered to its layout where it differs), or one value per batch entry and channel or
// fewer ([N, C, 1, 1], [C, 1, 1], a scalar: a loop over the blocked memory). The result has the
// native operand's shape and layout.
Kernel nativeBinary(Kernel previous, dnnl::algorithm algorithm) {
  return [previous, algorithm](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() != 2 || !c.state()) return onPlainInputs(previous, c);
    const Value* a = &c.input(0);
    const Value* b = &c.input(1);
    if (!nativeFloat(*a)) std::swap(a, b);  // a + b is b + a, a · b is b · a, bit for bit
    if (!nativeFloat(*a) || !b->isFloat() || b->shape.size() > a->shape.size())
      return onPlainInputs(previous, c);
    std::vector<int64_t> dims(a->shape.size(), 1);
    size_t offset = a->shape.size() - b->shape.size();
    for (size_t d = 0; d < b->shape.size(); ++d) {
      if (b->shape[d] != 1 && b->shape[d] != a->shape[offset + d])
        return onPlainInputs(previous, c);
      dims[offset + d] = b->shape[d];
    }
    memory src0 = memoryOf(*a);
    if (dims != a->shape) {
      std::optional<int64_t> block = channelBlock(src0.get_desc(), a->shape);
      if (!block || dims[2] != 1 || dims[3] != 1) return onPlainInputs(previous, c);
      std::vector<float> small = b->native ? b->native->plain() : b->f;
      int64_t n_count = a->shape[0], channels = a->shape[1];
      std::vector<float> table(static_cast<size_t>(n_count * channels));
      for (int64_t n = 0; n < n_count; ++n)
        for (int64_t ch = 0; ch < channels; ++ch)
          table[static_cast<size_t>(n * channels + ch)] = small[static_cast<size_t>(
              (dims[0] == 1 ? 0 : n) * dims[1] + (dims[1] == 1 ? 0 : ch))];
      memory dst(src0.get_desc(), engine());
      const auto* x = static_cast<const float*>(src0.get_data_handle());
      auto* y = static_cast<float*>(dst.get_data_handle());
      if (algorithm == dnnl::algorithm::binary_mul) {
        perChannel(x, y, table, a->shape, *block, [](float u, float v) { return u * v; });
      } else {
        perChannel(x, y, table, a->shape, *block, [](float u, float v) { return u + v; });
      }
      return outputs(valueOf(std::move(dst), a->shape, {}));
    }
    // The other operand at the native one's rank (a [C, H, W] for an [N, C, H, W] with N = 1 is
    // the same elements).
    if (b->shape.size() != a->shape.size() && b->native) return onPlainInputs(previous, c);
    memory other = b->shape.size() == a->shape.size()
                       ? memoryOf(*b)
                       : memory(plainDesc(dims), engine(), const_cast<float*>(b->f.data()));
    memory src1 = other;
    if (other.get_desc() != src0.get_desc()) {
      src1 = memory(src0.get_desc(), engine());
      dnnl::reorder(other, src1).execute(stream(), other, src1);
    }
    NativePlan& plan = nativePlan(
        c, [&](const NativePlan& p) { return p.src == src0.get_desc(); },
        [&](NativePlan& p) {
          p.src = p.dst = p.src1 = src0.get_desc();
          dnnl::binary::desc desc(algorithm, p.src, p.src1, p.dst);
          p.primitive = dnnl::binary(dnnl::binary::primitive_desc(desc, engine()));
        });
    if (plan.use_fallback) return onPlainInputs(previous, c);
    memory dst(plan.dst, engine());
    plan.run({{DNNL_ARG_SRC_0, src0}, {DNNL_ARG_SRC_1, src1}, {DNNL_ARG_DST, dst}});
    return outputs(valueOf(std::move(dst), a->shape, {}));
  };
}

// GlobalAveragePool of a native [N, C, H, W] as oneDNN's average pooling over H × W, into
// [N, C, 1, 1] in the input's layout (oneDNN's fast pooling keeps it; plain when that is plain).
Kernel nativeGlobalAveragePool(Kernel previous) {
  return [previous](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!nativeFloat(x) || x.shape.size() != 4 || !c.state()) return onPlainInputs(previous, c);
    memory src = memoryOf(x);
    std::vector<int64_t> out_shape = {x.shape[0], x.shape[1], 1, 1};
    NativePlan& plan = nativePlan(
        c, [&](const NativePlan& p) { return p.src == src.get_desc(); },
        [&](NativePlan& p) {
          p.src = src.get_desc();
          memory::desc dst_any(dimsOf({x.shape[0], x.shape[1], 1, 1}), kF32, Tag::any);
          dnnl::pooling_forward::desc desc(
              dnnl::prop_kind::forward_inference, dnnl::algorithm::pooling_avg_exclude_padding,
              p.src, dst_any, dimsOf({1, 1}), dimsOf({x.shape[2], x.shape[3]}), dimsOf({0, 0}),
              dimsOf({0, 0}));
          dnnl::pooling_forward::primitive_desc pd(desc, engine());
          p.primitive = dnnl::pooling_forward(pd);
          p.dst = pd.dst_desc();
        });
    if (plan.use_fallback) return onPlainInputs(previous, c);
    std::vector<float> plain;
    if (plan.dst == plainDesc(out_shape))
      plain.resize(static_cast<size_t>(x.shape[0] * x.shape[1]));
    memory dst =
        plain.empty() ? memory(plan.dst, engine()) : memory(plan.dst, engine(), plain.data());
    plan.run({{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    return outputs(valueOf(std::move(dst), out_shape, std::move(plain)));
  };
}

// BatchNormalization in inference mode as oneDNN's (global statistics, scale and shift) on the
// input's own layout: plain, or native (the output keeps it); with `relu` (BNReLU2d), the ReLU
// in the same pass (oneDNN's fuse_norm_relu) where oneDNN's implementation is a jit one: those
// take max(v, 0), which gives 0 for a NaN as fxc's ReLU does (`v > 0 ? v : 0`), while its C++
// ones (a plain NCHW input: ncsp_bnorm) keep a NaN; there the ReLU is a second loop over the
// output. Training mode, and parameters other than one float32 per channel, go to the
// reference kernel.
struct BatchNormPlan : PlannedPrimitive {
  memory::desc src;
  float eps = 0;
  memory mean, variance, scale, shift;
  bool relu_after = false;  // the ReLU not fused: a loop over the output after the primitive
  bool use_fallback = false;
};

Kernel batchNormalization(Kernel reference, bool relu) {
  return [reference, relu](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    bool training = c.intAttribute("training_mode", 0) != 0 || c.intAttribute("is_test", 1) == 0;
    if (training || c.intAttribute("spatial", 1) == 0 || !x.isFloat() || x.shape.size() < 2 ||
        x.shape.size() > 5 || (x.native ? !nativeFloat(x) : x.f.empty()) || !c.state())
      return onPlainInputs(reference, c);
    const Value* params[] = {parameter(c, "running_mean", 3), parameter(c, "running_var", 4),
                             parameter(c, "weight", 1), parameter(c, "bias", 2)};
    for (const Value* p : params) {
      if (!p || !p->isFloat() || p->native || p->numel() != x.shape[1])
        return onPlainInputs(reference, c);
    }
    float eps = c.floatAttribute("epsilon", 1e-5f);
    memory src = memoryOf(x);
    BatchNormPlan& plan = c.plan<BatchNormPlan>(
        [&](const BatchNormPlan& p) { return p.src == src.get_desc() && p.eps == eps; },
        [&] {
          auto p = std::make_shared<BatchNormPlan>();
          p->src = src.get_desc();
          p->eps = eps;
          p->serial = x.numel() < kParallelElements;
          SerialScope scope(p->serial);
          try {
            using Desc = dnnl::batch_normalization_forward::desc;
            using PrimitiveDesc = dnnl::batch_normalization_forward::primitive_desc;
            auto flags = dnnl::normalization_flags::use_global_stats |
                         dnnl::normalization_flags::use_scale |
                         dnnl::normalization_flags::use_shift;
            auto made = [&](dnnl::normalization_flags f) {
              return PrimitiveDesc(Desc(dnnl::prop_kind::forward_inference, p->src, eps, f),
                                   engine());
            };
            PrimitiveDesc pd =
                made(relu ? flags | dnnl::normalization_flags::fuse_norm_relu : flags);
            if (relu && std::string(pd.impl_info_str()).find("jit") == std::string::npos) {
              pd = made(flags);
              p->relu_after = true;
            }
            p->primitive = dnnl::batch_normalization_forward(pd);
            for (memory* m : {&p->mean, &p->variance, &p->scale, &p->shift})
              *m = memory(plainDesc({x.shape[1]}), engine());
          } catch (const dnnl::error&) {
            p->use_fallback = true;
          }
          return p;
        });
    if (plan.use_fallback) return onPlainInputs(reference, c);
    memory* kept[] = {&plan.mean, &plan.variance, &plan.scale, &plan.shift};
    for (size_t k = 0; k < 4; ++k)
      std::memcpy(kept[k]->get_data_handle(), params[k]->f.data(), params[k]->f.size() * 4);
    std::vector<float> plain_storage;
    memory dst;
    if (x.native) {
      dst = memory(plan.src, engine());
    } else {
      plain_storage.resize(x.f.size());
      dst = memory(plan.src, engine(), plain_storage.data());
    }
    plan.run({{DNNL_ARG_SRC, src},
              {DNNL_ARG_MEAN, plan.mean},
              {DNNL_ARG_VARIANCE, plan.variance},
              {DNNL_ARG_SCALE, plan.scale},
              {DNNL_ARG_SHIFT, plan.shift},
              {DNNL_ARG_DST, dst}});
    if (plan.relu_after) {  // every float of the buffer: a layout's padding is 0 and stays 0
      float* y = static_cast<float*>(dst.get_data_handle());
      size_t n = dst.get_desc().get_size() / sizeof(float);
      for (size_t k = 0; k < n; ++k) y[k] = y[k] > 0 ? y[k] : 0.0f;
    }
    return outputs(valueOf(std::move(dst), x.shape, std::move(plain_storage)));
  };
}

constexpr const char* kBatchNorms[] = {"module:BatchNorm1d", "module:BatchNorm2d",
                                       "module:BatchNorm3d", "torch.nn.functional.batch_norm"};
constexpr const char* kBatchNormRelus[] = {"module:BNReLU2d"};

// The strides of a native value's layout when it has no inner blocks, padding or offset (a plain
// or channels-last order of its dims: what the convolutions produce here), else nothing.
std::optional<std::vector<int64_t>> stridesOfLayout(const memory::desc& desc) {
  const auto& data = desc.data;
  if (data.format_kind != dnnl_blocked || data.format_desc.blocking.inner_nblks != 0 ||
      data.offset0 != 0)
    return std::nullopt;
  for (int d = 0; d < data.ndims; ++d) {
    if (data.padded_dims[d] != data.dims[d] || data.padded_offsets[d] != 0) return std::nullopt;
  }
  return std::vector<int64_t>(data.format_desc.blocking.strides,
                              data.format_desc.blocking.strides + data.ndims);
}

// Dense strides for `shape` that order its dims as `like` does (outermost: largest stride; ties
// keep the dims' order): the same layout, channels-last stays channels-last.
std::vector<int64_t> denseLike(const std::vector<int64_t>& like,
                               const std::vector<int64_t>& shape) {
  std::vector<size_t> order(shape.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return like[a] > like[b]; });
  std::vector<int64_t> strides(shape.size());
  int64_t step = 1;
  for (size_t k = order.size(); k-- > 0;) {
    strides[order[k]] = step;
    step *= shape[order[k]];
  }
  return strides;
}

// Concat where an input is native: oneDNN's concat into the layout it picks (blocked when the
// inputs are), so the Fire, Inception and dense blocks' outputs reach the next convolution as
// they are. Every input float32 of one rank (plain ones read in place), or all 8-bit integers
// of one type (a lowered quantized model's: its result stays native).
Kernel nativeConcat(Kernel previous) {
  return [previous](const KernelContext& c) -> std::vector<Value> {
    if (c.inputCount() < 2 || !c.state()) return onPlainInputs(previous, c);
    const Value& first = c.input(0);
    size_t rank = first.shape.size();
    bool any_native = false;
    // float32, or 8-bit integers of one type (a quantized model's concatenation, lowered).
    bool int8 = isInt8(first.dtype);
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      bool native_ok = !v.native || (int8 ? dynamic_cast<const DnnlData*>(v.native.get()) != nullptr
                                          : nativeFloat(v));
      if (!(int8 ? v.dtype == first.dtype : v.isFloat()) || v.shape.size() != rank || rank < 1 ||
          rank > 6 || v.numel() == 0 || !native_ok)
        return onPlainInputs(previous, c);
      any_native = any_native || v.native;
    }
    if (!any_native) return onPlainInputs(previous, c);
    int64_t axis_attribute = c.intAttribute("axis", 0);
    if (axis_attribute < -static_cast<int64_t>(rank) ||
        axis_attribute >= static_cast<int64_t>(rank))
      return onPlainInputs(previous, c);  // the reference's error
    int axis = static_cast<int>(axis_attribute < 0 ? axis_attribute + static_cast<int64_t>(rank)
                                                   : axis_attribute);
    std::vector<int64_t> shape = first.shape;
    shape[static_cast<size_t>(axis)] = 0;
    std::vector<memory> sources;
    std::vector<memory::desc> descs;
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value& v = c.input(k);
      for (size_t d = 0; d < rank; ++d) {
        if (d != static_cast<size_t>(axis) && v.shape[d] != first.shape[d])
          return onPlainInputs(previous, c);
      }
      shape[static_cast<size_t>(axis)] += v.shape[static_cast<size_t>(axis)];
      sources.push_back(memoryOf(v));
      descs.push_back(sources.back().get_desc());
    }
    struct ConcatPlan : PlannedPrimitive {
      std::vector<memory::desc> sources;
      int axis = 0;
      memory::desc dst;
      // Rows instead of the primitive: every source a dense, unblocked layout of one order of the
      // dims (channels-last convolution outputs), so that each source's part of an output row
      // is one contiguous run of its elements: `rows` runs of `run_bytes[k]` bytes from source k,
      // each at `offsets[k]` in an output row of `row_bytes`.
      std::vector<size_t> run_bytes, offsets;
      size_t row_bytes = 0;
      int64_t rows = 0;
      bool use_fallback = false;
    };
    int64_t elements = 1;
    for (int64_t d : shape) elements *= d;
    ConcatPlan& plan = c.plan<ConcatPlan>(
        [&](const ConcatPlan& p) { return p.sources == descs && p.axis == axis; },
        [&] {
          auto p = std::make_shared<ConcatPlan>();
          p->sources = descs;
          p->axis = axis;
          p->serial = elements < kParallelElements;
          if (auto order = stridesOfLayout(descs[0])) {
            size_t bytes = int8 ? 1 : sizeof(float);
            for (size_t k = 0; k < descs.size(); ++k) {
              const std::vector<int64_t>& dims = c.input(k).shape;
              std::vector<int64_t> dense = denseLike(*order, dims);
              if (stridesOfLayout(descs[k]) != dense) {
                p->run_bytes.clear();
                break;
              }
              int64_t inner = dense[static_cast<size_t>(axis)] * dims[static_cast<size_t>(axis)];
              p->offsets.push_back(p->row_bytes);
              p->run_bytes.push_back(static_cast<size_t>(inner) * bytes);
              p->row_bytes += p->run_bytes.back();
              p->rows = c.input(k).numel() / inner;
            }
            if (!p->run_bytes.empty()) {
              memory::dims dims(shape.begin(), shape.end());
              p->dst = memory::desc(dims, descs[0].data_type(), denseLike(*order, shape));
              return p;
            }
          }
          SerialScope scope(p->serial);
          try {
            dnnl::concat::primitive_desc pd(axis, descs, engine());
            p->primitive = dnnl::concat(pd);
            p->dst = pd.dst_desc();
          } catch (const dnnl::error&) {
            p->use_fallback = true;
          }
          return p;
        });
    if (plan.use_fallback) return onPlainInputs(previous, c);
    std::vector<float> plain;  // float32 only: 8-bit results stay native
    if (!int8 && plan.dst == plainDesc(shape))
      plain.resize(static_cast<size_t>(plan.dst.get_size() / 4));
    memory dst =
        plain.empty() ? memory(plan.dst, engine()) : memory(plan.dst, engine(), plain.data());
    if (!plan.run_bytes.empty()) {
      auto* out = static_cast<char*>(dst.get_data_handle());
      std::vector<const char*> from;
      for (const memory& m : sources) from.push_back(static_cast<const char*>(m.get_data_handle()));
      // One task per (row, source) pair: a plain layout has a row per batch entry only.
      int64_t parts = static_cast<int64_t>(sources.size());
      forEachIndex(elements >= kParallelElements, plan.rows * parts, [&](int64_t task) {
        size_t r = static_cast<size_t>(task / parts), k = static_cast<size_t>(task % parts);
        std::memcpy(out + r * plan.row_bytes + plan.offsets[k], from[k] + r * plan.run_bytes[k],
                    plan.run_bytes[k]);
      });
      return outputs(valueOf(std::move(dst), shape, std::move(plain), first.dtype));
    }
    std::unordered_map<int, memory> args = {{DNNL_ARG_DST, dst}};
    for (size_t k = 0; k < sources.size(); ++k)
      args[DNNL_ARG_MULTIPLE_SRC + static_cast<int>(k)] = sources[k];
    plan.run(args);
    return outputs(valueOf(std::move(dst), shape, std::move(plain), first.dtype));
  };
}

constexpr const char* kConcats[] = {"torch.cat"};

// Transpose (torch.permute) where oneDNN's layouts save a copy:
// - of a value in oneDNN's layout: one reorder from that layout straight into the permuted
//   row-major output (a destination described over the input's dims, with the output's strides
//   permuted back), instead of a reorder to the plain layout and then a strided copy. A
//   channels-last [N, C, H, W] (a depthwise convolution's output) under (0, 2, 3, 1) is the
//   output's bytes already: ConvNeXt's blocks, convolution → permute → LayerNorm;
// - of a plain [N, H, W, C] under (0, 3, 1, 2): the result is those bytes read as a channels-last
//   [N, C, H, W], kept in that layout for the convolution, add or mul that reads it next (a
//   reader that wants it plain converts it once, the copy this saved).
// Anything else (other types, a malformed perm: the kernel's error) goes to the wrapped kernel.
Kernel nativePermute(Kernel previous) {
  return [previous](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    size_t rank = x.shape.size();
    std::vector<int64_t> perm = c.intsAttribute("perm", {});
    if (perm.empty()) {
      for (size_t d = rank; d-- > 0;) perm.push_back(static_cast<int64_t>(d));
    }
    std::vector<bool> seen(rank);
    bool valid = perm.size() == rank && c.state() && x.dtype == ir::DType::kFloat32 &&
                 x.numel() > 0 && rank >= 1 && rank <= 6;
    for (size_t d = 0; valid && d < rank; ++d) {
      valid = perm[d] >= 0 && perm[d] < static_cast<int64_t>(rank) &&
              !seen[static_cast<size_t>(perm[d])];
      if (valid) seen[static_cast<size_t>(perm[d])] = true;
    }
    if (!valid) return onPlainInputs(previous, c);
    std::vector<int64_t> shape(rank);
    for (size_t d = 0; d < rank; ++d) shape[d] = x.shape[static_cast<size_t>(perm[d])];
    if (nativeFloat(x)) {
      memory src = memoryOf(x);
      std::vector<int64_t> out_strides = stridesOf(shape);
      memory::dims strides(rank);
      for (size_t d = 0; d < rank; ++d) strides[static_cast<size_t>(perm[d])] = out_strides[d];
      memory::desc dst_desc(memory::dims(x.shape.begin(), x.shape.end()), kF32, strides);
      NativePlan& plan = nativePlan(
          c, [&](const NativePlan& p) { return p.src == src.get_desc() && p.dst == dst_desc; },
          [&](NativePlan& p) {
            p.src = src.get_desc();
            p.dst = dst_desc;
            p.primitive =
                dnnl::reorder(dnnl::reorder::primitive_desc(engine(), p.src, engine(), p.dst));
          });
      if (plan.use_fallback) return onPlainInputs(previous, c);
      Value y = Value::floats(shape, std::vector<float>(static_cast<size_t>(x.numel())));
      memory dst(dst_desc, engine(), y.f.data());
      plan.run({{DNNL_ARG_FROM, src}, {DNNL_ARG_TO, dst}});
      return outputs(std::move(y));
    }
    if (!x.native && rank == 4 && perm == std::vector<int64_t>{0, 3, 1, 2}) {
      memory dst(memory::desc(memory::dims(shape.begin(), shape.end()), kF32, Tag::acdb), engine());
      std::memcpy(dst.get_data_handle(), x.f.data(), x.f.size() * sizeof(float));
      return outputs(valueOf(std::move(dst), shape, {}));
    }
    return previous(c);
  };
}

constexpr const char* kPermutes[] = {"torch.permute"};

// Whether `strides` lay out [N, C, H, W] channels-last, densely (a convolution's output here).
bool channelsLast(const std::vector<int64_t>& strides, const std::vector<int64_t>& shape) {
  return shape.size() == 4 && strides[1] == 1 && strides[3] == shape[1] &&
         strides[2] == shape[3] * shape[1] && strides[0] == shape[2] * shape[3] * shape[1];
}

// body(pixel) for each of `pixels` pixels of `channels` values: on the thread pool when the
// value is large.
template <typename Body>
void forEachPixel(int64_t pixels, int64_t channels, const Body& body) {
  forEachIndex(pixels * channels >= kParallelElements, pixels, body);
}

// One reorder of a native value's elements from the view `from` (of its memory) into a new
// memory of layout `to` viewed as `to_view` (the same logical dims as `from`); the result is
// the new memory under `to`, a value of `shape`.
Value reorderView(const KernelContext& c, const memory& src, const memory::desc& from,
                  const memory::desc& to, const memory::desc& to_view,
                  const std::vector<int64_t>& shape, const Kernel& previous) {
  NativePlan& plan = nativePlan(
      c, [&](const NativePlan& p) { return p.src == from && p.dst == to_view; },
      [&](NativePlan& p) {
        p.src = from;
        p.dst = to_view;
        p.primitive =
            dnnl::reorder(dnnl::reorder::primitive_desc(engine(), from, engine(), to_view));
      });
  if (plan.use_fallback) return onPlainInputs(previous, c).at(0);
  memory dst(to, engine());
  memory in(from, engine(), src.get_data_handle());
  memory out(to_view, engine(), dst.get_data_handle());
  plan.run({{DNNL_ARG_FROM, in}, {DNNL_ARG_TO, out}});
  return valueOf(std::move(dst), shape, {});
}

// Slice (steps of 1) of a value in a oneDNN layout without inner blocks (a convolution's
// channels-last output: ShuffleNet's chunk of the shuffled channels): one reorder from the
// window of its memory into a new memory of the same layout, kept native for the convolution
// that reads it next. The window is the reference's (sliceWindow); anything else, and an empty
// result, goes to the wrapped kernel.
Kernel nativeSlice(Kernel previous) {
  return [previous](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    if (!nativeFloat(x) || !c.state() || x.shape.empty() || x.shape.size() > 6)
      return onPlainInputs(previous, c);
    for (size_t k = 1; k < c.inputCount(); ++k) {  // starts, ends, axes, steps: read plain
      if (c.optionalInput(k) && c.optionalInput(k)->native) return onPlainInputs(previous, c);
    }
    memory src = memoryOf(x);
    auto strides = stridesOfLayout(src.get_desc());
    if (!strides) return onPlainInputs(previous, c);
    SliceWindow window = sliceWindow(c, x.shape);
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (window.step[d] != 1 || window.shape[d] == 0) return onPlainInputs(previous, c);
    }
    if (channelsLast(*strides, x.shape) && window.shape[0] == x.shape[0] &&
        window.shape[2] == x.shape[2] && window.shape[3] == x.shape[3]) {
      // A range of channels: one short copy per pixel (a reorder's driver costs more here).
      int64_t channels = x.shape[1], kept = window.shape[1], first = window.begin[1];
      memory dst(
          memory::desc(memory::dims(window.shape.begin(), window.shape.end()), kF32, Tag::acdb),
          engine());
      const float* in = static_cast<const float*>(src.get_data_handle()) + first;
      float* out = static_cast<float*>(dst.get_data_handle());
      forEachPixel(x.shape[0] * x.shape[2] * x.shape[3], kept, [&](int64_t p) {
        std::memcpy(out + p * kept, in + p * channels, static_cast<size_t>(kept) * sizeof(float));
      });
      return outputs(valueOf(std::move(dst), window.shape, {}));
    }
    memory::dims dims(window.shape.begin(), window.shape.end());
    memory::desc from =
        src.get_desc().submemory_desc(dims, memory::dims(window.begin.begin(), window.begin.end()));
    memory::desc to(dims, kF32, denseLike(*strides, window.shape));
    return outputs(reorderView(c, src, from, to, to, window.shape, previous));
  };
}

constexpr const char* kSlices[] = {"onnx.Slice"};

// channel_shuffle of a value in a oneDNN layout without inner blocks: one reorder between two
// views of rank + 1, [N, g, C/g, …] over the input (channel i·(C/g) + j) and over a new memory
// of the same layout (channel j·g + i): the result stays in the convolutions' layout.
Kernel nativeChannelShuffle(Kernel previous) {
  return [previous](const KernelContext& c) -> std::vector<Value> {
    const Value& x = c.input(0);
    int64_t groups = c.intAttribute("groups", 0);
    if (!nativeFloat(x) || !c.state() || x.shape.size() < 2 || x.shape.size() > 5 || groups < 1 ||
        x.shape[1] % groups != 0 || x.numel() == 0)
      return onPlainInputs(previous, c);  // the reference's result or error
    memory src = memoryOf(x);
    auto in = stridesOfLayout(src.get_desc());
    if (!in) return onPlainInputs(previous, c);
    std::vector<int64_t> out = denseLike(*in, x.shape);
    int64_t per_group = x.shape[1] / groups;
    if (channelsLast(*in, x.shape)) {
      // Each pixel's channels permuted: output j·g + i from input i·(C/g) + j.
      int64_t channels = x.shape[1];
      memory dst(memory::desc(memory::dims(x.shape.begin(), x.shape.end()), kF32, Tag::acdb),
                 engine());
      const float* from = static_cast<const float*>(src.get_data_handle());
      float* to = static_cast<float*>(dst.get_data_handle());
      forEachPixel(x.shape[0] * x.shape[2] * x.shape[3], channels, [&](int64_t p) {
        const float* a = from + p * channels;
        float* b = to + p * channels;
        if (groups == 2) {  // ShuffleNet's: two halves interleaved
          const float* second = a + per_group;
          for (int64_t j = 0; j < per_group; ++j) {
            b[2 * j] = a[j];
            b[2 * j + 1] = second[j];
          }
          return;
        }
        for (int64_t j = 0; j < per_group; ++j)
          for (int64_t i = 0; i < groups; ++i) b[j * groups + i] = a[i * per_group + j];
      });
      return outputs(valueOf(std::move(dst), x.shape, {}));
    }
    memory::dims dims = {x.shape[0], groups, per_group};
    memory::dims from_strides = {(*in)[0], (*in)[1] * per_group, (*in)[1]};
    memory::dims to_strides = {out[0], out[1], out[1] * groups};
    for (size_t d = 2; d < x.shape.size(); ++d) {
      dims.push_back(x.shape[d]);
      from_strides.push_back((*in)[d]);
      to_strides.push_back(out[d]);
    }
    memory::desc to(memory::dims(x.shape.begin(), x.shape.end()), kF32, out);
    return outputs(reorderView(c, src, memory::desc(dims, kF32, from_strides), to,
                               memory::desc(dims, kF32, to_strides), x.shape, previous));
  };
}

constexpr const char* kChannelShuffles[] = {"torch.nn.functional.channel_shuffle"};

// The activations run natively, by the keys of their kernels and their module type.
const std::vector<std::pair<std::vector<const char*>, std::string>>& nativeActivations() {
  static const std::vector<std::pair<std::vector<const char*>, std::string>> table = {
      {{"torch.relu", "module:ReLU"}, "ReLU"},
      {{"torch.clamp", "module:Hardtanh"}, "Hardtanh"},
      {{"torch.nn.functional.leaky_relu", "module:LeakyReLU"}, "LeakyReLU"},
      {{"torch.nn.functional.hardswish", "module:Hardswish"}, "Hardswish"},
      {{"module:SiLU"}, "SiLU"},
      {{"torch.sigmoid", "module:Sigmoid"}, "Sigmoid"},
      {{"torch.tanh", "module:Tanh"}, "Tanh"},
      {{"torch.nn.functional.gelu", "module:GELU"}, "GELU"},
  };
  return table;
}

const std::vector<std::pair<const char*, dnnl::algorithm>>& nativeBinaries() {
  static const std::vector<std::pair<const char*, dnnl::algorithm>> table = {
      {"operator.add", dnnl::algorithm::binary_add},
      {"torch.add", dnnl::algorithm::binary_add},
      {"operator.mul", dnnl::algorithm::binary_mul},
      {"torch.mul", dnnl::algorithm::binary_mul}};
  return table;
}

constexpr const char* kGlobalAveragePools[] = {"module:AdaptiveAvgPool2d",
                                               "torch.nn.functional.adaptive_avg_pool2d"};

}  // namespace

std::optional<Eltwise> eltwiseOf(const std::string& type, const KernelContext& c) {
  using A = dnnl::algorithm;
  if (type == "ReLU") return Eltwise{A::eltwise_relu};
  if (type == "Hardtanh") {
    auto [lo, hi] = clipBounds(c);
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) return std::nullopt;
    return Eltwise{A::eltwise_clip_v2, lo, hi};
  }
  if (type == "LeakyReLU") {
    // oneDNN's relu with a slope is x > 0 ? x : α·x, and a plain max(x, 0) at α = 0 (a NaN
    // became 0 where the reference's α·NaN is NaN); a non-finite α makes α·0 a NaN where the
    // reference answers 0. Those α run the reference.
    float alpha = c.floatAttribute("alpha", 0.01f);
    if (alpha == 0.0f || !std::isfinite(alpha)) return std::nullopt;
    return Eltwise{A::eltwise_relu, alpha};
  }
  if (type == "Hardswish") return Eltwise{A::eltwise_hardswish};
  if (type == "Hardsigmoid")  // the reference kernel's defaults: ONNX's
    return Eltwise{A::eltwise_linear,
                   c.floatAttribute("alpha", 0.2f),
                   c.floatAttribute("beta", 0.5f),
                   A::eltwise_clip_v2,
                   0.0f,
                   1.0f};
  if (type == "SiLU") return Eltwise{A::eltwise_swish, 1.0f};
  if (type == "Sigmoid") return Eltwise{A::eltwise_logistic};
  if (type == "Tanh") return Eltwise{A::eltwise_tanh};
  if (type == "GELU") {
    std::string approximate = c.stringAttribute("approximate", "none");
    if (approximate == "none") return Eltwise{A::eltwise_gelu_erf};
    if (approximate == "tanh") return Eltwise{A::eltwise_gelu_tanh};
  }
  return std::nullopt;
}

void addLayoutKernels(KernelTable& t) {
  for (const auto& [keys, type] : nativeActivations())
    for (const char* key : keys) t[key] = nativeUnary(t.at(key), type);
  for (const auto& [key, algorithm] : nativeBinaries()) t[key] = nativeBinary(t.at(key), algorithm);
  for (const char* key : kGlobalAveragePools) t[key] = nativeGlobalAveragePool(t.at(key));
  for (const char* key : kBatchNorms) t[key] = batchNormalization(t.at(key), false);
  for (const char* key : kBatchNormRelus) t[key] = batchNormalization(t.at(key), true);
  for (const char* key : kConcats) t[key] = nativeConcat(t.at(key));
  for (const char* key : kPermutes) t[key] = nativePermute(t.at(key));
  for (const char* key : kSlices) t[key] = nativeSlice(t.at(key));
  for (const char* key : kChannelShuffles) t[key] = nativeChannelShuffle(t.at(key));
}

const std::vector<std::string>& layoutKernelKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& entry : nativeActivations())
      out.insert(out.end(), entry.first.begin(), entry.first.end());
    for (const auto& entry : nativeBinaries()) out.push_back(entry.first);
    for (const char* key : kGlobalAveragePools) out.push_back(key);
    for (const char* key : kBatchNorms) out.push_back(key);
    for (const char* key : kBatchNormRelus) out.push_back(key);
    for (const char* key : kConcats) out.push_back(key);
    for (const char* key : kPermutes) out.push_back(key);
    for (const char* key : kSlices) out.push_back(key);
    for (const char* key : kChannelShuffles) out.push_back(key);
    return out;
  }();
  return keys;
}

}  // namespace fxc::exec::onednn
