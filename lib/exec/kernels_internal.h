// Shared by the kernel files: registration entry points and helpers.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/kernel.h"

namespace fxc::exec {

// The 8-bit integer types the integer kernels (oneDNN's, cuDNN's) compute with.
inline bool isInt8(ir::DType dtype) {
  return dtype == ir::DType::kInt8 || dtype == ir::DType::kUInt8;
}
// A scalar parameter of a quantized op: one plain element, float or integer as asked.
inline bool scalarOf(const Value* v, bool is_float) {
  return v && !v->native && v->numel() == 1 && v->isFloat() == is_float;
}

using KernelTable = std::unordered_map<std::string, Kernel>;
void addElementwiseKernels(KernelTable& table);  // unary, binary with broadcasting, comparisons
void addTensorKernels(KernelTable& table);       // shape, reshape, concat, transpose, gather, ...
void addNeuralNetKernels(KernelTable& table);    // conv, batchnorm, gemm, matmul, pooling, softmax
void addReductionKernels(KernelTable& table);    // ReduceX, ArgMax/ArgMin
void addLossKernels(KernelTable& table);
void addResizeKernels(KernelTable& table);
void addRecurrentKernels(KernelTable& table);      // LSTM, GRU, RNN
void addScatterKernels(KernelTable& table);        // GatherND, ScatterND, ScatterElements
void addSelectionKernels(KernelTable& table);      // OneHot, Compress, Unique, DepthToSpace, ...
void addNormalizationKernels(KernelTable& table);  // InstanceNorm, LRN, MeanVarianceNorm
void addPoolingKernels(KernelTable& table);        // GlobalMaxPool, MaxUnpool
void addLinearAlgebraKernels(KernelTable& table);  // Det, Einsum
void addSignalKernels(KernelTable& table);         // windows, DFT, STFT, mel filters
void addSpatialKernels(KernelTable& table);        // 3-D convolution and pooling
void addDetectionKernels(KernelTable& table);      // NonMaxSuppression, RoiAlign
void addControlFlowKernels(KernelTable& table);    // If, Loop, Scan (their subgraphs)
void addQuantizationKernels(
    KernelTable& table);  // QuantizeLinear, DequantizeLinear, fake-quant       // Resize, Upsample
// oneDNN in place of the reference convolution, pooling and matrix products (kernels_dnnl.cpp).
void addFastKernels(KernelTable& table);
// The keys of the fast kernels that read NativeData inputs (kernels_dnnl.cpp).
const std::vector<std::string>&
nativeKernelKeys();  // NegativeLogLikelihoodLoss, SoftmaxCrossEntropy

// Loops over this many elements or more are split over the threads; below it, a parallel
// region's start and end cost more than the split saves. The oneDNN primitives follow the same
// line (dnnl_common.h's SerialScope).
constexpr int64_t kParallelElements = 1 << 16;
// Likewise for work counted in floating-point operations (multiply-adds × 2: convolutions,
// products): below this, on the calling thread.
constexpr double kSerialFlops = 1e6;

// body(i) for i in [0, n): on the thread pool when `parallel`. A body that can throw (the integer
// ops: division by zero) must run with `parallel` false, outside any OpenMP region: an exception
// cannot leave one, and `omp parallel for if (false)` is a region all the same (std::terminate:
// the quantization fuzzer's uint8 Mod on random data).
template <typename Body>
void forEachIndex(bool parallel, int64_t n, const Body& body) {
#ifdef _OPENMP
  if (parallel) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) body(i);
    return;
  }
#endif
  for (int64_t i = 0; i < n; ++i) body(i);
}

// ONNX Slice's window over a value of `shape` (its starts, ends, axes and steps from the
// inputs, or the attributes before opset 10, clamped as ONNX says): per axis the first index, the
// step and the output's extent. Throws ExecError for a malformed slice.
struct SliceWindow {
  std::vector<int64_t> begin, step, shape;
};
SliceWindow sliceWindow(const KernelContext& c, const std::vector<int64_t>& shape);

// Registers `kernel` under every key.
void add(KernelTable& table, std::initializer_list<const char*> keys, const Kernel& kernel);
// A negative axis counts from the end; throws when out of range.
size_t normalizeAxis(int64_t axis, size_t rank);
// Row-major strides of a shape.
std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape);
const Value& requireFloat(const Value& value, const char* what);
// A fused module's activation (ConvAct2d, LinearAct): its module type, and in `attributes` its own
// attributes (the module's activation_* ones, the prefix dropped). activationContext is the
// node seen as that activation over `inputs`, its tensors the module's activation_* ones.
const std::string& fusedActivation(const KernelContext& c, ir::Kwargs& attributes);
KernelContext activationContext(const KernelContext& c, std::vector<const Value*> inputs,
                                const ir::Kwargs& attributes);
// A parameter: the module's tensor `name`, or the call's input `index` (the functional form).
const Value* parameter(const KernelContext& c, const char* name, size_t index);
// An integer result as `dtype` holds it: wrapped to its width as C casts do (uint8 5 - 10 is
// 251), bool as nonzero; a uint64 outside int64's range is refused, since `i` cannot hold it.
int64_t wrapTo(int64_t value, ir::DType dtype);
// Whether values of `dtype` live in Value::i (the integer types and bool).
bool heldAsInteger(ir::DType dtype);
// numpy broadcasting: the output shape (throws where the shapes do not broadcast), and the
// strides to read an operand of `shape` with over the output `out` (0 along its broadcast axes).
std::vector<int64_t> broadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b);
std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape,
                                      const std::vector<int64_t>& out);
// Calls fn(out_index, a_index, b_index) over the broadcast output, in row-major order; returns
// the output's shape.
template <typename F>
std::vector<int64_t> forEachBroadcast(const Value& a, const Value& b, F fn) {
  std::vector<int64_t> shape = broadcastShape(a.shape, b.shape);
  std::vector<int64_t> sa = broadcastStrides(a.shape, shape), sb = broadcastStrides(b.shape, shape);
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  std::vector<int64_t> index(shape.size(), 0);
  int64_t ia = 0, ib = 0;
  for (int64_t o = 0; o < total; ++o) {
    fn(o, ia, ib);
    for (size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) {
        ia += sa[k];
        ib += sb[k];
        break;
      }
      ia -= sa[k] * (shape[k] - 1);
      ib -= sb[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
  return shape;
}
// Copies elements of `x` into `y` (already shaped) reading through `source_index`.
template <typename F>
void gatherElements(const Value& x, Value& y, F source_index) {
  int64_t n = checkedNumel(y.shape, y.dtype);
  if (x.isFloat()) {
    y.f.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k)
      y.f[static_cast<size_t>(k)] = x.f[static_cast<size_t>(source_index(k))];
  } else {
    y.i.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k)
      y.i[static_cast<size_t>(k)] = x.i[static_cast<size_t>(source_index(k))];
  }
}

// Copies into `y` (already shaped) the elements of `x` at offset + Σ index[d]·strides[d] for
// every index of y's shape, in row-major order: Transpose, Slice and Expand as strides over x.
// Walks an odometer (no division per element); the innermost dimension is one loop.
void stridedCopy(const Value& x, Value& y, const std::vector<int64_t>& strides, int64_t offset);

// Runs `kernel` on plain copies of any inputs held as NativeData (a fast kernel's fallback).
std::vector<Value> onPlainInputs(const Kernel& kernel, const KernelContext& c);
// Softmax and friends: the [outer, extent, inner] view of the input around the normalized axis
// (opset < 13: the input flattened to 2-D at `axis`, inner 1).
// The axes a ReduceX node reduces: input 1 (ReduceSum 13+, the others 18+) or the attribute; all
// when empty, or none (`noop`) with noop_with_empty_axes.
std::vector<bool> reducedAxes(const KernelContext& c, size_t rank, bool& noop);
struct NormalizedExtent {
  int64_t outer = 1, extent = 1, inner = 1;
};
NormalizedExtent normalizedExtent(const KernelContext& c, const Value& x);
// Pad's amounts (input 1, the module's `pads` tensor or the attribute: begins, then ends) and
// its constant (input 2, `constant_value`, or the attribute `value`).
std::vector<int64_t> padAmounts(const KernelContext& c);
double padValue(const KernelContext& c);
// The fast table's constant Pad (float32, no negative pads), wrapping the reference.
Kernel constantPadByRows(Kernel reference);
// The fast table's Gather of float32 (a block copied per index), wrapping the reference.
Kernel gatherByBlocks(Kernel reference);
// Clip's bounds (torch.clamp, module Hardtanh): inputs 1 and 2 (opset 11+), else the module's
// tensors `min`/`max` (constant bounds folded into the module), else the min/max attributes.
std::pair<float, float> clipBounds(const KernelContext& c);

// Convolution and pooling windows (2-D), validated; shared by the reference and fast kernels.
struct Window {
  std::vector<int64_t> kernel, strides, pads, dilations;  // pads: begins then ends
};
// The window of a convolution or pooling over `input`'s spatial dimensions; auto_pad SAME_UPPER /
// SAME_LOWER / VALID become explicit pads (not on a transposed convolution).
Window windowOf(const KernelContext& c, std::vector<int64_t> kernel,
                const std::vector<int64_t>& input, bool transposed = false);
int64_t outputSize(int64_t in, int64_t k, int64_t stride, int64_t pad_begin, int64_t pad_end,
                   int64_t dilation, bool ceil_mode);
struct ConvGeometry {
  int64_t groups, n, cin, h, w, cout, cin_g, kh, kw, oh, ow;
  Window win;
};
ConvGeometry convGeometry(const KernelContext& c, const Value& x, const Value& w);
// The reference convolution over NCHW `x` and OIHW `w` (bias per output channel, may be null):
// float for Conv, int64 for the integer convolutions (inputs with their zero points removed).
template <typename T>
void convolve(const ConvGeometry& g, const T* x, const T* w, const T* bias, T* y);
// A 2-D transposed convolution (ConvTranspose: W is [C_in, C_out / group, kh, kw]) in the same
// terms: cout = W's dim 1 · group, cin_g = cin / group, oh = stride·(h − 1) + output_padding +
// (kh − 1)·dilation + 1 − pads. Throws on inconsistent shapes; nullopt for what only the N-d
// kernel handles (output_shape, SAME pads, another rank).
std::optional<ConvGeometry> transposedGeometry(const KernelContext& c,
                                               const std::vector<int64_t>& x,
                                               const std::vector<int64_t>& w);
// The reference transposed convolution over NCHW `x` and W (bias may be null): float, or int64
// for the integer one.
template <typename T>
void transposedConvolve(const ConvGeometry& g, const T* x, const T* w, const T* bias, T* y);
struct PoolGeometry {
  int64_t n, ch, h, w, oh, ow;
  bool ceil_mode, include_pad;
  Window win;
};
PoolGeometry poolGeometry(const KernelContext& c, const Value& x);

// Reference convolution, transposed convolution and pooling over any spatial rank
// (kernels_nd.cpp): what the 2-D kernels hand over for other ranks, ConvTranspose's
// output_shape and auto_pad, MaxPool's Indices and integer inputs.
std::vector<Value> convolutionNd(const KernelContext& c);
std::vector<Value> transposedConvolutionNd(const KernelContext& c);
template <bool kMax>
std::vector<Value> poolingNd(const KernelContext& c);

// y[m×n] = op(a)·op(b) over row-major matrices (op: transposed when asked); y is overwritten.
using Product = void (*)(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k,
                         const float* a, const float* b, float* y);
void referenceProduct(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, const float* a,
                      const float* b, float* y);
// A 1-D convolution or pooling run as the 2-D kernel `two_d` on a unit height: the input (and a
// rank-3 weight) gain an axis, the window attributes a leading 1 (pads a leading 0 on each side).
Kernel liftTo2d(Kernel two_d);

Kernel gemmKernel(Product product);  // Gemm and Linear
// MatMul with batch broadcasting; with `parallel_batches` (a `product` that may run on several
// threads at once), the batch's products on the thread pool when there are many.
Kernel matmulKernel(Product product, bool parallel_batches = false);

// Softmax along each of `rows` rows of `n` floats, in place: the reference's arithmetic
// (softmaxRows), or a faster one on the CPU backend, which may decline (false: x is then
// garbage, and the caller makes the rows again for softmaxRows).
using RowSoftmax = bool (*)(float* x, int64_t rows, int64_t n);
bool softmaxRows(float* x, int64_t rows, int64_t n);
// fxc.Attention (the attention pass's): matmul(softmax(matmul(a, b) [+ mask], axis = -1), v),
// one block of a head's score rows at a time; `parallel` as matmulKernel's.
Kernel attentionKernel(Product product, RowSoftmax softmax, bool parallel = false);

// max and min where a NaN operand is the answer, as numpy, PyTorch and ONNX Runtime take it
// (std::max and std::min keep their first operand against a NaN second one).
template <typename T>
T nanMax(T x, T y) {
  return x != x ? x : y != y ? y : std::max(x, y);
}
template <typename T>
T nanMin(T x, T y) {
  return x != x ? x : y != y ? y : std::min(x, y);
}

// log(1 + eˣ), without its overflow: above 15 as x + log1p(e⁻ˣ) (log1p(exp(x)) was inf past 88.7,
// where the answer is x).
inline float softplus(float x) {
  return x > 15.0f ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

}  // namespace fxc::exec
