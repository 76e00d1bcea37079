// The cuDNN backend's own CUDA kernels: activations cuDNN lacks, broadcasting arithmetic, the
// fp16 convolution epilogue, float<->half conversion, concatenation, the rest of an integer
// convolution after cuDNN's. Grid-stride loops.
#include <cuda_fp16.h>

#include "exec/cudnn/device.h"

namespace fxc::exec::cudnn {
namespace {

constexpr int kThreads = 256;

unsigned blocksFor(size_t n) {
  size_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 65535 ? (blocks ? blocks : 1) : 65535);
}

__global__ void unaryKernel(Unary op, const float* x, float* y, size_t n, float a, float b) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float v = x[i];
    switch (op) {
      case Unary::kRelu: v = v > 0.f ? v : 0.f; break;
      case Unary::kSigmoid: v = 1.f / (1.f + expf(-v)); break;
      case Unary::kTanh: v = tanhf(v); break;
      case Unary::kHardSigmoid: v = fminf(fmaxf(a * v + b, 0.f), 1.f); break;
      case Unary::kHardSwish: v = v * fminf(fmaxf(v / 6.f + 0.5f, 0.f), 1.f); break;
      case Unary::kLeakyRelu: v = v >= 0.f ? v : a * v; break;
      case Unary::kClip: v = fminf(fmaxf(v, a), b); break;
      case Unary::kErf: v = erff(v); break;
      case Unary::kGelu: v = 0.5f * v * (1.f + erff(v * 0.70710678118654752f)); break;
      case Unary::kGeluTanh:
        v = 0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
        break;
    }
    y[i] = v;
  }
}

struct Strides {
  int rank;
  long long shape[6], a[6], b[6];
};

__global__ void binaryKernel(Binary op, const float* a, const float* b, float* y, size_t n,
                             Strides s) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    long long rest = static_cast<long long>(i), ia = 0, ib = 0;
    for (int d = s.rank - 1; d >= 0; --d) {
      long long index = rest % s.shape[d];
      rest /= s.shape[d];
      ia += index * s.a[d];
      ib += index * s.b[d];
    }
    float u = a[ia], v = b[ib];
    switch (op) {
      case Binary::kAdd: y[i] = u + v; break;
      case Binary::kSub: y[i] = u - v; break;
      case Binary::kMul: y[i] = u * v; break;
      case Binary::kDiv: y[i] = u / v; break;
    }
  }
}

__global__ void stridedCopyKernel(const float* x, float* y, size_t n, Strides s) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    long long rest = static_cast<long long>(i), ix = 0;
    for (int d = s.rank - 1; d >= 0; --d) {
      ix += rest % s.shape[d] * s.a[d];
      rest /= s.shape[d];
    }
    y[i] = x[ix];
  }
}

__global__ void epilogueKernel(float* y, const float* bias, const float* z, long long c,
                               long long inner, size_t n, bool relu) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float v = y[i];
    if (bias) v += bias[(static_cast<long long>(i) / inner) % c];
    if (z) v += z[i];
    y[i] = relu && v < 0.f ? 0.f : v;
  }
}

__global__ void toHalfKernel(const float* x, __half* y, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = __float2half(x[i]);
}

__global__ void fromHalfKernel(const __half* x, float* y, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = __half2float(x[i]);
}

__global__ void concatKernel(const float* x, float* y, long long extent, long long inner,
                             long long total, long long offset, size_t n) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    long long k = static_cast<long long>(i);
    long long o = k / (extent * inner), e = (k / inner) % extent, r = k % inner;
    y[(o * total + offset + e) * inner + r] = x[k];
  }
}

// One block per row of `inner` elements: mean and variance in double (as the CPU kernel), then
// y = (x - mean) / sqrt(var + eps) · scale + bias (scale/bias: one element or one per element).
__global__ void layerNormKernel(const float* x, float* y, float* means, float* inv_stds,
                                long long inner, const float* scale, long long scale_count,
                                const float* bias, long long bias_count, float eps) {
  __shared__ double partial[kThreads];
  const float* in = x + blockIdx.x * inner;
  float* out = y + blockIdx.x * inner;
  double sum = 0;
  for (long long k = threadIdx.x; k < inner; k += blockDim.x) sum += in[k];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  double mean = partial[0] / static_cast<double>(inner);
  __syncthreads();
  double squares = 0;
  for (long long k = threadIdx.x; k < inner; k += blockDim.x) {
    double d = in[k] - mean;
    squares += d * d;
  }
  partial[threadIdx.x] = squares;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  double inv = 1.0 / sqrt(partial[0] / static_cast<double>(inner) + eps);
  if (threadIdx.x == 0) {
    means[blockIdx.x] = static_cast<float>(mean);
    inv_stds[blockIdx.x] = static_cast<float>(inv);
  }
  for (long long k = threadIdx.x; k < inner; k += blockDim.x) {
    double v = (in[k] - mean) * inv;
    if (scale) v *= scale[scale_count == 1 ? 0 : k];
    if (bias) v += bias[bias_count == 1 ? 0 : k];
    out[k] = static_cast<float>(v);
  }
}

void launched(const char* what) { check(cudaGetLastError(), what); }

// The kernels' view of `shape` (rank <= 6) read with strides `a` and `b`; `n`: its element count.
Strides stridesOf(const std::vector<int64_t>& shape, const std::vector<int64_t>& a,
                  const std::vector<int64_t>& b, size_t& n) {
  Strides strides{};
  strides.rank = static_cast<int>(shape.size());
  n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    strides.shape[d] = shape[d];
    strides.a[d] = a[d];
    strides.b[d] = b[d];
    n *= static_cast<size_t>(shape[d]);
  }
  return strides;
}

__global__ void quantizedEpilogueKernel(QuantizedEpilogue e) {
  using Mode = QuantizedEpilogue::Mode;
  using Activation = QuantizedEpilogue::Activation;
  size_t total = static_cast<size_t>(e.n * e.k * e.hw);
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < total; i += blockDim.x * gridDim.x) {
    long long p = static_cast<long long>(i % e.hw), c = static_cast<long long>((i / e.hw) % e.k),
              n = static_cast<long long>(i / (e.hw * e.k));
    long long nhwc = (n * e.hw + p) * e.k + c;
    double acc = e.acc[nhwc];
    if (e.correction) acc += e.shift * e.correction[p * e.k + c];
    if (e.int_bias) acc += e.int_bias[c];
    signed char* out8 = static_cast<signed char*>(e.out);
    if (e.mode == Mode::kInt8) {
      double q = fmin(fmax(rint(acc * e.multiplier[c]) + e.y_zp, double(e.y_min)), double(e.y_max));
      out8[nhwc] = static_cast<signed char>(static_cast<int>(q) - e.y_offset);
      continue;
    }
    double real = acc * e.x_scale * e.multiplier[c];
    if (e.real_bias) real += e.real_bias[c];
    float v = static_cast<float>(real);
    if (e.mode == Mode::kFloat) {
      if (e.addend) v += e.addend[i];
      if (e.activation == Activation::kRelu) v = v > 0.0f ? v : (v == v ? 0.0f : v);
      static_cast<float*>(e.out)[i] = v;
      continue;
    }
    if (e.addend8) {
      int z = e.addend8[nhwc] + e.addend_offset;
      v += static_cast<float>(z - e.addend_zp) * e.addend_scale;
    }
    if (e.activation == Activation::kRelu) v = v > 0.0f ? v : 0.0f;
    if (e.activation == Activation::kClip) {
      float m = e.lo < v ? v : e.lo;  // std::max(lo, v), std::min(hi, ...) as the CPU kernel
      v = m < e.hi ? m : e.hi;
    }
    float scaled = rintf(v / e.y_scale);
    // NaN: the type's minimum, as quantizeValue.
    double q = scaled != scaled ? e.y_min
                                : fmin(fmax(static_cast<double>(scaled) + e.y_zp, double(e.y_min)),
                                       double(e.y_max));
    out8[nhwc] = static_cast<signed char>(static_cast<int>(q) - e.y_offset);
  }
}

}  // namespace

void launchUnary(Unary op, const float* x, float* y, size_t n, float a, float b, cudaStream_t s) {
  unaryKernel<<<blocksFor(n), kThreads, 0, s>>>(op, x, y, n, a, b);
  launched("unary kernel");
}

void launchBinary(Binary op, const float* a, const float* b, float* y,
                  const std::vector<int64_t>& shape, const std::vector<int64_t>& a_strides,
                  const std::vector<int64_t>& b_strides, cudaStream_t s) {
  if (shape.size() > 6) throw ExecError("unsupported: broadcasting over more than 6 dimensions");
  size_t n = 0;
  Strides strides = stridesOf(shape, a_strides, b_strides, n);
  if (n == 0) return;
  binaryKernel<<<blocksFor(n), kThreads, 0, s>>>(op, a, b, y, n, strides);
  launched("binary kernel");
}

void launchStridedCopy(const float* x, float* y, const std::vector<int64_t>& shape,
                       const std::vector<int64_t>& x_strides, cudaStream_t s) {
  if (shape.size() > 6) throw ExecError("unsupported: a copy over more than 6 dimensions");
  size_t n = 0;
  Strides strides = stridesOf(shape, x_strides, x_strides, n);  // b unused by the copy
  if (n == 0) return;
  stridedCopyKernel<<<blocksFor(n), kThreads, 0, s>>>(x, y, n, strides);
  launched("strided copy kernel");
}

void launchLayerNorm(const float* x, float* y, float* means, float* inv_stds, int64_t rows,
                     int64_t inner, const float* scale, int64_t scale_count, const float* bias,
                     int64_t bias_count, float eps, cudaStream_t s) {
  if (rows == 0) return;
  if (rows > 0x7fffffff) throw ExecError("unsupported: LayerNorm over more than 2^31 rows");
  layerNormKernel<<<static_cast<unsigned>(rows), kThreads, 0, s>>>(
      x, y, means, inv_stds, inner, scale, scale_count, bias, bias_count, eps);
  launched("layer norm kernel");
}

void launchEpilogue(float* y, const float* bias, const float* z, int64_t n, int64_t c, int64_t inner,
                    bool relu, cudaStream_t s) {
  size_t count = static_cast<size_t>(n * c * inner);
  if (count == 0) return;
  epilogueKernel<<<blocksFor(count), kThreads, 0, s>>>(y, bias, z, c, inner, count, relu);
  launched("convolution epilogue");
}

void launchToHalf(const float* x, void* y, size_t n, cudaStream_t s) {
  if (n == 0) return;
  toHalfKernel<<<blocksFor(n), kThreads, 0, s>>>(x, static_cast<__half*>(y), n);
  launched("float to half");
}

void launchFromHalf(const void* x, float* y, size_t n, cudaStream_t s) {
  if (n == 0) return;
  fromHalfKernel<<<blocksFor(n), kThreads, 0, s>>>(static_cast<const __half*>(x), y, n);
  launched("half to float");
}

void launchConcatPart(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner,
                      int64_t total, int64_t offset, cudaStream_t s) {
  size_t n = static_cast<size_t>(outer * extent * inner);
  if (n == 0) return;
  concatKernel<<<blocksFor(n), kThreads, 0, s>>>(x, y, extent, inner, total, offset, n);
  launched("concat kernel");
}

void launchQuantizedEpilogue(const QuantizedEpilogue& e, cudaStream_t s) {
  size_t total = static_cast<size_t>(e.n * e.k * e.hw);
  if (total == 0) return;
  quantizedEpilogueKernel<<<blocksFor(total), kThreads, 0, s>>>(e);
  launched("integer convolution epilogue");
}

}  // namespace fxc::exec::cudnn
