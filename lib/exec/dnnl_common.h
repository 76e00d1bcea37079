// oneDNN as fxc's CPU kernels use it: one engine and stream, plain and native (DnnlData) memory
// of Values. Included by the kernels_dnnl*.cpp files only (it brings in oneDNN's header).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <oneapi/dnnl/dnnl.hpp>
#include <optional>
#include <string>
#include <vector>

#include "exec/kernels_internal.h"

namespace fxc::exec::onednn {

using dnnl::memory;
using Tag = memory::format_tag;
constexpr auto kF32 = memory::data_type::f32;

dnnl::engine& engine();
dnnl::stream& stream();
memory::dims dimsOf(std::initializer_list<int64_t> dims);
// Row-major layout of a rank-1 to rank-6 tensor.
Tag plainTag(size_t rank);
memory::desc plainDesc(const std::vector<int64_t>& shape,
                       memory::data_type type = memory::data_type::f32);
// oneDNN's type for int8/uint8 (isInt8, kernels_internal.h); f32 for anything else.
memory::data_type dnnlType(ir::DType dtype);

// A primitive whose work is below kSerialFlops (kernels_internal.h: convolutions, products) or
// below kParallelElements (softmax, reductions, concatenations) runs on the calling thread, made
// and run inside a SerialScope: on a team of threads, the parallel region's start and end barrier
// (several microseconds on a small VM) cost more than splitting the work saves. At two threads a
// 1×1 convolution of ShuffleNet or a PyTorch encoder layer's Linear ran slower than at one.

// The calling thread's OpenMP team is one thread while this lives, when `serial`. oneDNN sizes a
// primitive's scratchpad and splits its work by the thread count it is made with: make and run
// a primitive under the same scope.
class SerialScope {
 public:
  explicit SerialScope(bool serial);
  ~SerialScope();
  SerialScope(const SerialScope&) = delete;
  SerialScope& operator=(const SerialScope&) = delete;

 private:
  int restore_ = 0;  // the team size to restore; 0: nothing changed
};

// A value in one of oneDNN's layouts.
class DnnlData : public NativeData {
 public:
  explicit DnnlData(memory data) : data_(std::move(data)) {}
  const memory& data() const { return data_; }
  std::vector<float> plain() const override;

 private:
  memory data_;
};

// The input as oneDNN memory: its native memory, or a view of its plain elements (float32), or
// a copy of them narrowed to 8 bits (int8/uint8, which a Value holds widened).
memory memoryOf(const Value& x);
// A value for memory `data` of `shape`: plain elements when `plain_storage` holds them (the
// memory's layout is plain), else native (always native for 8-bit integers).
Value valueOf(memory data, const std::vector<int64_t>& shape, std::vector<float> plain_storage,
              ir::DType dtype = ir::DType::kFloat32);

// The eltwise primitive (or post-op) that computes activation `type` (a module type: ReLU,
// Hardtanh, LeakyReLU, Hardswish, Hardsigmoid, SiLU, Sigmoid, Tanh, GELU) with the parameters
// `c` holds;
// nullopt where none does (Hardtanh with unbounded ends, another GELU approximation).
// Hardsigmoid is two: oneDNN 2.6 has no hardsigmoid, so α·x + β (linear), then clip to [0, 1].
struct Eltwise {
  dnnl::algorithm algorithm = dnnl::algorithm::undef;
  float alpha = 0, beta = 0;
  dnnl::algorithm then = dnnl::algorithm::undef;  // a second step, or undef
  float then_alpha = 0, then_beta = 0;
  bool operator==(const Eltwise& o) const {
    return algorithm == o.algorithm && alpha == o.alpha && beta == o.beta && then == o.then &&
           then_alpha == o.then_alpha && then_beta == o.then_beta;
  }
  // Appends the step(s) as eltwise post-ops.
  void appendTo(dnnl::post_ops& ops) const {
    ops.append_eltwise(1.0f, algorithm, alpha, beta);
    if (then != dnnl::algorithm::undef) ops.append_eltwise(1.0f, then, then_alpha, then_beta);
  }
};
std::optional<Eltwise> eltwiseOf(const std::string& type, const KernelContext& c);

// kernels_dnnl_layout.cpp: the kernels that run on a convolution's output in oneDNN's layout
// (activations, broadcast add/mul, global pooling, BatchNorm), each wrapping the kernel under its
// key; and those keys (their kernels accept native values).
void addLayoutKernels(KernelTable& t);
const std::vector<std::string>& layoutKernelKeys();

}  // namespace fxc::exec::onednn
