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

// The value's elements on the device: its own buffer when it is there already, else one upload.
std::shared_ptr<Buffer> onDevice(const Value& value);
// Uploads host floats (weights, once per model).
std::shared_ptr<Buffer> upload(const std::vector<float>& values);
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
// Concatenation: copies `x` [outer, extent, inner] into y [outer, total, inner] at `offset`.
void launchConcatPart(const float* x, float* y, int64_t outer, int64_t extent, int64_t inner,
                      int64_t total, int64_t offset, cudaStream_t s);

}  // namespace fxc::exec::cudnn
