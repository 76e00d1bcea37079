// The CUDA side of the cuDNN backend: error checks, the stream and library handles, a device
// memory pool, and values that live on the device (DeviceData, a NativeData: the interpreter
// copies it to the host only for a CPU kernel or a graph output).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <memory>
#include <vector>

#include "exec/cudnn/backend.h"
#include "exec/cudnn/plugin.h"
#include "exec/value.h"

namespace fxc::exec::cudnn {

// The plugin's side of backend.h (named apart: fxc's loader defines the backend.h names, and the
// executable's symbols win over this library's).
bool usable(std::string* why);
void choosePrecision(Precision precision);
const std::unordered_map<std::string, Kernel>& table();

void check(cudaError_t status, const char* what);
void check(cudnnStatus_t status, const char* what);
void check(cublasStatus_t status, const char* what);

struct Context {
  cudaStream_t stream = nullptr;
  cudnnHandle_t cudnn = nullptr;
  cublasHandle_t cublas = nullptr;
  Precision precision = Precision::kTf32;
};
// Created on first use; throws ExecError when no device is usable.
Context& context();

// Device memory from a pool: freed blocks are kept by size and handed out again, so that the
// activations of one run reuse the memory of the previous one.
class Buffer {
 public:
  explicit Buffer(size_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const { return data_; }
  float* floats() const { return static_cast<float*>(data_); }
  size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// A float32 value on the device.
class DeviceData : public NativeData {
 public:
  DeviceData(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape)
      : buffer_(std::move(buffer)), shape_(std::move(shape)) {}
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  std::vector<float> plain() const override;  // one device-to-host copy

 private:
  std::shared_ptr<Buffer> buffer_;
  std::vector<int64_t> shape_;
};

// An 8-bit value (int8 or uint8, rank 4) on the device as the integer convolutions take and
// write it: NHWC, each element stored as the int8 value − offset (offset 128 for uint8, else 0).
class DeviceBytes : public NativeData {
 public:
  DeviceBytes(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape, int offset)
      : buffer_(std::move(buffer)), shape_(std::move(shape)), offset_(offset) {}
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  int offset() const { return offset_; }
  std::vector<float> plain() const override;  // one device-to-host copy, back to NCHW

 private:
  std::shared_ptr<Buffer> buffer_;
  std::vector<int64_t> shape_;
  int offset_;
};

// The value's elements on the device: its own buffer when it is there already, else one upload.
std::shared_ptr<Buffer> onDevice(const Value& value);
// Uploads host floats (weights, once per model), or any host bytes.
std::shared_ptr<Buffer> upload(const std::vector<float>& values);
std::shared_ptr<Buffer> uploadBytes(const void* data, size_t bytes);
// A value whose elements are `buffer` on the device.
Value deviceValue(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape);
size_t elementCount(const std::vector<int64_t>& shape);

// Elementwise CUDA kernels (elementwise.cu), all on the context's stream.
enum class Unary {
  kRelu,
  kSigmoid,
  kTanh,
  kHardSigmoid,
  kHardSwish,
  kLeakyRelu,
  kClip,
  kErf,
  kGelu,
  kGeluTanh
};
void launchUnary(Unary op, const float* x, float* y, size_t n, float a, float b, cudaStream_t s);
enum class Binary { kAdd, kSub, kMul, kDiv };
// y[i] = a[ia] ∘ b[ib] over `shape` (rank ≤ 6), reading a and b with broadcast strides.
void launchBinary(Binary op, const float* a, const float* b, float* y,
                  const std::vector<int64_t>& shape, const std::vector<int64_t>& a_strides,
                  const std::vector<int64_t>& b_strides, cudaStream_t s);
// y[i] = x[ix] over `shape` (rank ≤ 6), reading x with `x_strides` (a transpose).
void launchStridedCopy(const float* x, float* y, const std::vector<int64_t>& shape,
                       const std::vector<int64_t>& x_strides, cudaStream_t s);
// LayerNorm over rows of `inner` elements; also each row's mean and 1/sqrt(var + eps).
void launchLayerNorm(const float* x, float* y, float* means, float* inv_stds, int64_t rows,
                     int64_t inner, const float* scale, int64_t scale_count, const float* bias,
                     int64_t bias_count, float eps, cudaStream_t s);
// y = relu?(y + bias[channel] + z) over [n, c, inner] (the epilogue of an fp16 convolution).
void launchEpilogue(float* y, const float* bias, const float* z, int64_t n, int64_t c,
                    int64_t inner, bool relu, cudaStream_t s);
void launchToHalf(const float* x, void* y, size_t n, cudaStream_t s);
void launchFromHalf(const void* x, float* y, size_t n, cudaStream_t s);
// The rest of an integer convolution after cuDNN's int8 one (quant-lower's ops, the CPU kernels'
// arithmetic): `acc` is the accumulator [n, hw, k] (NHWC, float: exact up to 2^24, rounded once
// beyond, as oneDNN's), to which `shift`·correction[p, c] (correction [hw, k]: the weights'
// sum over the taps inside the input; null when shift is 0) and int_bias[c] are added. Then by
// mode, into `out` [n, k, hw] (NCHW):
//   kInt8:   saturate(rint(acc · multiplier[c]) + y_zp), 8-bit          (QLinearConv)
//   kFloat:  float(acc · s_x · s_w[c] + real_bias[c]) + addend, ReLU?   (QLinearConvToFloat)
//   kInt8Activation: the same float, + (z − z_zp)·z_scale, the activation (none, ReLU, clamp
//            to [lo, hi]), then QuantizeLinear with y_scale, y_zp       (QLinearConvAct)
// A float result is written NCHW; an 8-bit one, and the 8-bit addend z, are DeviceBytes' (NHWC,
// value − offset).
struct QuantizedEpilogue {
  enum class Mode { kInt8, kFloat, kInt8Activation } mode = Mode::kInt8;
  enum class Activation { kNone, kRelu, kClip } activation = Activation::kNone;
  const float* acc = nullptr;
  const float* correction = nullptr;
  double shift = 0;
  const double* multiplier = nullptr;  // kInt8: s_x·s_w[c]/s_y; else s_w[c]
  double x_scale = 1;
  const double* int_bias = nullptr;      // [k] or null
  const double* real_bias = nullptr;     // [k] or null
  const float* addend = nullptr;         // kFloat: [n, k, hw] or null
  const signed char* addend8 = nullptr;  // kInt8Activation: DeviceBytes' [n, hw, k] or null
  int addend_offset = 0;
  float addend_scale = 1;
  int addend_zp = 0;
  float lo = 0, hi = 0;  // kClip's bounds
  float y_scale = 1;
  int y_zp = 0, y_min = -128, y_max = 127;  // y_min 0: uint8 output
  int y_offset = 0;                         // 128 for uint8
  void* out = nullptr;
  long long n = 0, hw = 0, k = 0;
};
void launchQuantizedEpilogue(const QuantizedEpilogue& e, cudaStream_t s);
// Concatenation: copies `x` [outer, extent, inner] into y [outer, total, inner] at `offset`.
void launchConcatPart(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner,
                      int64_t total, int64_t offset, cudaStream_t s);

}  // namespace fxc::exec::cudnn
