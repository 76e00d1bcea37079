// The cuDNN backend as fxc sees it: loaded on first use from libfxc_cudnn.so (next to the
// executable, or $FXC_CUDNN_LIBRARY); when it is absent or cannot load, the backend is simply
// unavailable and says why.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <vector>

#include "exec/cudnn/plugin.h"

namespace fxc::exec::cudnn {
namespace {

struct Loaded {
  const Plugin* plugin = nullptr;
  std::string error;
};

const Loaded& loaded() {
  static const Loaded result = [] {
    Loaded r;
#ifndef FXC_CUDNN_BUILT
    r.error = "fxc was built without CUDA (configure where the CUDA toolkit and cuDNN are found)";
    return r;
#else
    std::vector<std::string> candidates;
    if (const char* path = std::getenv("FXC_CUDNN_LIBRARY")) candidates.emplace_back(path);
    char exe[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
      std::string dir(exe, static_cast<size_t>(n));
      dir = dir.substr(0, dir.rfind('/'));
      candidates.push_back(dir + "/libfxc_cudnn.so");
      candidates.push_back(dir + "/../libfxc_cudnn.so");  // test binaries one folder down
    }
    for (const auto& path : candidates) {
      if (::access(path.c_str(), F_OK) != 0) continue;
      void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!handle) {
        r.error = std::string("cannot load the cuDNN backend: ") + ::dlerror();
        return r;
      }
      auto entry = reinterpret_cast<const Plugin* (*)()>(::dlsym(handle, "fxc_cudnn_plugin"));
      if (!entry) {
        r.error = path + " is not fxc's cuDNN backend";
        return r;
      }
      r.plugin = entry();
      return r;
    }
    r.error = "the cuDNN backend (libfxc_cudnn.so) is not next to the fxc executable";
    return r;
#endif
  }();
  return result;
}

}  // namespace

bool compiled() { return loaded().plugin != nullptr; }

bool deviceUsable(std::string* why) {
  if (!loaded().plugin) {
    if (why) *why = loaded().error;
    return false;
  }
  return loaded().plugin->device_usable(why);
}

void setPrecision(Precision precision) {
  if (loaded().plugin) loaded().plugin->set_precision(precision);
}

const std::unordered_map<std::string, Kernel>& kernels() {
  static const std::unordered_map<std::string, Kernel> none;
  return loaded().plugin ? *loaded().plugin->kernels() : none;
}

}  // namespace fxc::exec::cudnn
