// The interface between fxc and its cuDNN backend, which is a shared library of its own
// (libfxc_cudnn.so) so that the CUDA libraries — hundreds of megabytes — are loaded only by a run
// that asks for the GPU, never by `fxc trace` in a pipeline. The library resolves fxc's own
// symbols (the CPU kernels it falls back to) from the executable that loads it.
#pragma once

#include <string>
#include <unordered_map>

#include "exec/cudnn/backend.h"

namespace fxc::exec::cudnn {

struct Plugin {
  bool (*device_usable)(std::string* why);
  void (*set_precision)(Precision precision);
  const std::unordered_map<std::string, Kernel>* (*kernels)();
};

}  // namespace fxc::exec::cudnn

// The one symbol fxc looks up in libfxc_cudnn.so.
extern "C" const fxc::exec::cudnn::Plugin* fxc_cudnn_plugin();
