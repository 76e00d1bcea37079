// What cuDNN's int8 convolutions give on this device, against its fp32 one: for resnet-like
// shapes, each configuration's fastest algorithm (cudnnGetConvolutionForwardAlgorithm_v7's
// candidates, each timed over 50 calls after 5) and, for the int8 one with a float result that
// the cuDNN backend uses, whether its outputs equal an int32 reference on the host. The
// configurations: int8 NHWC → float (default math, and tensor-op math), INT8x32 (NCHW_VECT_C,
// tensor-op math), fp32 NCHW (FMA). Exit 1 if the int8 → float result is not exact.
//   fxc-cudnn-int8-probe
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace {

struct Shape {
  int n, c, hw, k, r, stride, pad;
};
enum class Config { kInt8Float, kInt8FloatTensorOp, kInt8x32TensorOp, kFloat };
const char* nameOf(Config config) {
  switch (config) {
    case Config::kInt8Float:
      return "int8 NHWC -> float";
    case Config::kInt8FloatTensorOp:
      return "int8 NHWC -> float, tensor-op math";
    case Config::kInt8x32TensorOp:
      return "INT8x32, tensor-op math";
    case Config::kFloat:
      return "fp32 NCHW, FMA";
  }
  return "";
}

cudnnHandle_t handle;

float timed(cudnnConvolutionFwdAlgo_t algo, cudnnTensorDescriptor_t xd, void* x,
            cudnnFilterDescriptor_t wd, void* w, cudnnConvolutionDescriptor_t cd,
            cudnnTensorDescriptor_t yd, void* y, void* ws, size_t bytes) {
  const float one = 1, zero = 0;
  auto call = [&] {
    return cudnnConvolutionForward(handle, &one, xd, x, wd, w, cd, algo, ws, bytes, &zero, yd, y);
  };
  if (call() != CUDNN_STATUS_SUCCESS) return -1;
  for (int k = 0; k < 4; ++k) call();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  for (int k = 0; k < 50; ++k) call();
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / 50;
}

// Prints the configuration's best time; returns false if its result (int8 -> float) is not the
// int32 reference's.
bool probe(const Shape& s, Config config) {
  bool int8 = config != Config::kFloat, vect = config == Config::kInt8x32TensorOp;
  int oh = (s.hw + 2 * s.pad - s.r) / s.stride + 1;
  cudnnTensorDescriptor_t xd, yd;
  cudnnFilterDescriptor_t wd;
  cudnnConvolutionDescriptor_t cd;
  cudnnCreateTensorDescriptor(&xd);
  cudnnCreateTensorDescriptor(&yd);
  cudnnCreateFilterDescriptor(&wd);
  cudnnCreateConvolutionDescriptor(&cd);
  cudnnTensorFormat_t format = !int8  ? CUDNN_TENSOR_NCHW
                               : vect ? CUDNN_TENSOR_NCHW_VECT_C
                                      : CUDNN_TENSOR_NHWC;
  cudnnDataType_t type = !int8 ? CUDNN_DATA_FLOAT : vect ? CUDNN_DATA_INT8x32 : CUDNN_DATA_INT8;
  cudnnDataType_t out = vect ? CUDNN_DATA_INT8x32 : CUDNN_DATA_FLOAT;
  bool ok =
      cudnnSetTensor4dDescriptor(xd, format, type, s.n, s.c, s.hw, s.hw) == 0 &&
      cudnnSetFilter4dDescriptor(wd, type, format, s.k, s.c, s.r, s.r) == 0 &&
      cudnnSetTensor4dDescriptor(yd,
                                 vect   ? format
                                 : int8 ? CUDNN_TENSOR_NHWC
                                        : format,
                                 out, s.n, s.k, oh, oh) == 0 &&
      cudnnSetConvolution2dDescriptor(cd, s.pad, s.pad, s.stride, s.stride, 1, 1,
                                      CUDNN_CROSS_CORRELATION,
                                      int8 ? CUDNN_DATA_INT32 : CUDNN_DATA_FLOAT) == 0 &&
      cudnnSetConvolutionMathType(cd, config == Config::kFloat       ? CUDNN_FMA_MATH
                                      : config == Config::kInt8Float ? CUDNN_DEFAULT_MATH
                                                                     : CUDNN_TENSOR_OP_MATH) == 0;
  size_t xn = size_t(s.n) * s.c * s.hw * s.hw, wn = size_t(s.k) * s.c * s.r * s.r,
         yn = size_t(s.n) * s.k * oh * oh;
  std::vector<int8_t> hx(xn), hw(wn);
  std::mt19937 rng(1);
  for (auto& v : hx) v = static_cast<int8_t>(static_cast<int>(rng() % 256) - 128);
  for (auto& v : hw) v = static_cast<int8_t>(static_cast<int>(rng() % 255) - 127);
  size_t element = int8 ? 1 : 4, out_element = vect ? 1 : 4;
  void *x = nullptr, *w = nullptr, *y = nullptr;
  cudaMalloc(&x, xn * element);
  cudaMalloc(&w, wn * element);
  cudaMalloc(&y, yn * out_element);
  if (int8) {
    cudaMemcpy(x, hx.data(), xn, cudaMemcpyHostToDevice);
    cudaMemcpy(w, hw.data(), wn, cudaMemcpyHostToDevice);
  } else {
    std::vector<float> fx(hx.begin(), hx.end()), fw(hw.begin(), hw.end());
    cudaMemcpy(x, fx.data(), xn * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(w, fw.data(), wn * 4, cudaMemcpyHostToDevice);
  }
  float best = -1;
  cudnnConvolutionFwdAlgo_t best_algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  int count = 0;
  cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
  if (ok && cudnnGetConvolutionForwardAlgorithm_v7(
                handle, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &count, perf) == 0) {
    for (int k = 0; k < count; ++k) {
      size_t bytes = 0;
      if (perf[k].status != CUDNN_STATUS_SUCCESS ||
          cudnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd, perf[k].algo, &bytes))
        continue;
      void* ws = nullptr;
      if (bytes) cudaMalloc(&ws, bytes);
      float ms = timed(perf[k].algo, xd, x, wd, w, cd, yd, y, ws, bytes);
      if (ms >= 0 && (best < 0 || ms < best)) {
        best = ms;
        best_algo = perf[k].algo;
      }
      cudaFree(ws);
    }
  }
  std::printf("  %-36s", nameOf(config));
  if (best < 0) {
    std::printf(" no algorithm\n");
  } else {
    std::printf(" %8.4f ms (algorithm %d)\n", best, static_cast<int>(best_algo));
  }
  bool exact = true;
  if (best >= 0 && config == Config::kInt8Float) {
    // The fastest algorithm's result (it ran last among the timed calls or again here) against
    // int32 sums on the host, at every 7th channel and 3rd position.
    size_t bytes = 0;
    cudnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd, best_algo, &bytes);
    void* ws = nullptr;
    if (bytes) cudaMalloc(&ws, bytes);
    timed(best_algo, xd, x, wd, w, cd, yd, y, ws, bytes);
    cudaFree(ws);
    std::vector<float> hy(yn);
    cudaMemcpy(hy.data(), y, yn * 4, cudaMemcpyDeviceToHost);
    long checked = 0, differ = 0;
    for (int n = 0; n < s.n && n < 2; ++n)
      for (int k = 0; k < s.k; k += 7)
        for (int oy = 0; oy < oh; oy += 3)
          for (int ox = 0; ox < oh; ox += 3) {
            int64_t acc = 0;
            for (int ry = 0; ry < s.r; ++ry)
              for (int rx = 0; rx < s.r; ++rx) {
                int iy = oy * s.stride - s.pad + ry, ix = ox * s.stride - s.pad + rx;
                if (iy < 0 || ix < 0 || iy >= s.hw || ix >= s.hw) continue;
                for (int c = 0; c < s.c; ++c)
                  acc += int64_t(hx[((size_t(n) * s.hw + iy) * s.hw + ix) * s.c + c]) *
                         hw[((size_t(k) * s.r + ry) * s.r + rx) * s.c + c];
              }
            ++checked;
            differ += hy[((size_t(n) * oh + oy) * oh + ox) * s.k + k] != static_cast<float>(acc);
          }
    std::printf("  %-36s %ld of %ld outputs differ from int32 sums\n", "", differ, checked);
    exact = differ == 0;
  }
  cudaFree(x);
  cudaFree(w);
  cudaFree(y);
  cudnnDestroyTensorDescriptor(xd);
  cudnnDestroyTensorDescriptor(yd);
  cudnnDestroyFilterDescriptor(wd);
  cudnnDestroyConvolutionDescriptor(cd);
  return exact;
}

}  // namespace

int main() {
  if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) {
    std::fprintf(stderr, "fxc-cudnn-int8-probe: no usable CUDA device or cuDNN\n");
    return 1;
  }
  std::printf("cuDNN %zu\n", cudnnGetVersion());
  const Shape shapes[] = {{1, 64, 56, 64, 3, 1, 1},  {1, 256, 14, 256, 3, 1, 1},
                          {1, 512, 7, 512, 3, 1, 1}, {1, 3, 224, 64, 7, 2, 3},
                          {32, 64, 56, 64, 3, 1, 1}, {32, 256, 14, 256, 3, 1, 1}};
  bool exact = true;
  for (const Shape& s : shapes) {
    std::printf("batch %d, %d -> %d channels, %dx%d, %dx%d kernel, stride %d\n", s.n, s.c, s.k,
                s.hw, s.hw, s.r, s.r, s.stride);
    for (Config config :
         {Config::kInt8Float, Config::kInt8FloatTensorOp, Config::kInt8x32TensorOp, Config::kFloat})
      exact = probe(s, config) && exact;
  }
  cudnnDestroy(handle);
  return exact ? 0 : 1;
}
