#include "exec/cudnn/device.h"

#include <map>
#include <string>

namespace fxc::exec::cudnn {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw ExecError(std::string(what) + ": " + cudaGetErrorString(status));
}

void check(cudnnStatus_t status, const char* what) {
  if (status != CUDNN_STATUS_SUCCESS)
    throw ExecError(std::string(what) + ": " + cudnnGetErrorString(status));
}

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw ExecError(std::string(what) + ": cuBLAS status " +
                    std::to_string(static_cast<int>(status)));
}

bool usable(std::string* why) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (why) *why = cudaGetErrorString(status);
    cudaGetLastError();  // clear it
    return false;
  }
  if (count == 0) {
    if (why) *why = "the driver reports no device";
    return false;
  }
  return true;
}

namespace {
Precision& precisionSetting() {
  static Precision precision = Precision::kFp32;  // no tensor-core rounding unless asked
  return precision;
}
}  // namespace

void choosePrecision(Precision precision) { precisionSetting() = precision; }

Context& context() {
  static Context* made = [] {
    std::string why;
    if (!usable(&why)) throw ExecError("no CUDA device: " + why);
    auto* c = new Context;  // lives to the end of the process, as the driver's own state does
    check(cudaStreamCreate(&c->stream), "cudaStreamCreate");
    check(cudnnCreate(&c->cudnn), "cudnnCreate");
    check(cudnnSetStream(c->cudnn, c->stream), "cudnnSetStream");
    check(cublasCreate(&c->cublas), "cublasCreate");
    check(cublasSetStream(c->cublas, c->stream), "cublasSetStream");
    return c;
  }();
  made->precision = precisionSetting();
  check(cublasSetMathMode(made->cublas, made->precision == Precision::kFp32
                                            ? CUBLAS_PEDANTIC_MATH
                                            : CUBLAS_TF32_TENSOR_OP_MATH),
        "cublasSetMathMode");
  return *made;
}

namespace {

// Freed blocks by size (rounded up to 512 bytes), reused before asking the driver again.
std::multimap<size_t, void*>& pool() {
  static auto* blocks = new std::multimap<size_t, void*>;
  return *blocks;
}

size_t rounded(size_t bytes) { return (std::max<size_t>(bytes, 1) + 511) / 512 * 512; }

}  // namespace

Buffer::Buffer(size_t bytes) : bytes_(rounded(bytes)) {
  auto& blocks = pool();
  auto it = blocks.find(bytes_);
  if (it != blocks.end()) {
    data_ = it->second;
    blocks.erase(it);
    return;
  }
  if (cudaMalloc(&data_, bytes_) != cudaSuccess) {
    // Give the cached blocks back and try once more before failing.
    cudaGetLastError();
    check(cudaStreamSynchronize(context().stream), "cudaStreamSynchronize");
    for (auto& [size, block] : blocks) cudaFree(block);
    blocks.clear();
    check(cudaMalloc(&data_, bytes_), "cudaMalloc");
  }
}

Buffer::~Buffer() {
  if (data_) pool().emplace(bytes_, data_);
}

size_t elementCount(const std::vector<int64_t>& shape) {
  size_t n = 1;
  for (int64_t d : shape) n *= static_cast<size_t>(d);
  return n;
}

std::vector<float> DeviceData::plain() const {
  std::vector<float> out(elementCount(shape_));
  Context& c = context();
  check(cudaMemcpyAsync(out.data(), buffer_->data(), out.size() * sizeof(float),
                        cudaMemcpyDeviceToHost, c.stream),
        "copy to the host");
  check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
  return out;
}

std::vector<float> DeviceBytes::plain() const {
  size_t count = elementCount(shape_);
  std::vector<int8_t> bytes(count);
  Context& c = context();
  check(cudaMemcpyAsync(bytes.data(), buffer_->data(), count, cudaMemcpyDeviceToHost, c.stream),
        "copy to the host");
  check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize");
  std::vector<float> out(count);
  int64_t n = shape_[0], ch = shape_[1], hw = shape_[2] * shape_[3];
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < ch; ++k)
      for (int64_t p = 0; p < hw; ++p)
        out[static_cast<size_t>((b * ch + k) * hw + p)] =
            static_cast<float>(bytes[static_cast<size_t>((b * hw + p) * ch + k)] + offset_);
  return out;
}

std::shared_ptr<Buffer> uploadBytes(const void* data, size_t bytes) {
  auto buffer = std::make_shared<Buffer>(bytes);
  check(cudaMemcpyAsync(buffer->data(), data, bytes, cudaMemcpyHostToDevice, context().stream),
        "copy to the device");
  // The host memory may die before the copy runs: wait for it.
  check(cudaStreamSynchronize(context().stream), "cudaStreamSynchronize");
  return buffer;
}

std::shared_ptr<Buffer> upload(const std::vector<float>& values) {
  return uploadBytes(values.data(), values.size() * sizeof(float));
}

std::shared_ptr<Buffer> onDevice(const Value& value) {
  if (!value.isFloat()) throw ExecError("the cuDNN backend holds float32 values only");
  if (value.native) {
    if (const auto* device = dynamic_cast<const DeviceData*>(value.native.get()))
      return device->buffer();
    return upload(value.native->plain());  // another backend's layout
  }
  return upload(value.f);
}

Value deviceValue(std::shared_ptr<Buffer> buffer, std::vector<int64_t> shape) {
  Value v;
  v.shape = shape;
  v.native = std::make_shared<DeviceData>(std::move(buffer), std::move(shape));
  return v;
}

}  // namespace fxc::exec::cudnn
