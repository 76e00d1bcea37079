// The cuDNN backend's public face: whether a CUDA device is usable, the precision, and the
// kernel table the interpreter merges over the CPU kernels. No CUDA header is included here; the
// CUDA code lives in lib/exec/cudnn and is built into libfxc_cudnn.so when FXC_CUDNN finds CUDA
// and cuDNN; loader.cpp loads it on first use (see plugin.h).
#pragma once

#include <string>
#include <unordered_map>

#include "exec/kernel.h"

namespace fxc::exec::cudnn {

// Whether the cuDNN backend is built and loads (it is loaded by this call, and by the others).
bool compiled();
// Whether a CUDA device can run the backend now; when not, `why` gets the driver's reason.
bool deviceUsable(std::string* why);

enum class Precision {
  kFp32,  // float32 everywhere, no tensor-core rounding
  kTf32,  // float32 storage, TF32 tensor-core math in convolutions and matrix products
  kFp16,  // float16 convolutions with float32 accumulation; everything else float32
};
void setPrecision(Precision precision);

// Kernels that read and write values on the device (NativeData), keyed as the CPU table. A
// kernel that meets a case it does not cover runs the CPU kernel on host copies.
const std::unordered_map<std::string, Kernel>& kernels();

}  // namespace fxc::exec::cudnn
