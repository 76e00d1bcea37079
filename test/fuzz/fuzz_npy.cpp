// .npy bytes → the reader → (1) written again by npyBytes and read back: the same value, bit for
// bit; (2) as both inputs of seed_three_adds (x + y, three times) when it is a float32 [2, 3]:
// every output is exactly 2·x.
#include <cstring>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "onnx/load.h"
#include "test/fuzz/fuzz.h"

namespace {

const fxc::ir::GraphModule& model() {
  static std::unique_ptr<fxc::ir::GraphModule> gm = [] {
    auto loaded =
        fxc::onnx::loadModel(fxc::fuzz::sourcePath("testdata/models/seed_three_adds.onnx"));
    if (!loaded) std::abort();
    auto traced = fxc::onnx::trace(loaded.take(), {});
    if (!traced) std::abort();
    return traced.take();
  }();
  return *gm;
}

bool same(const fxc::exec::Value& a, const fxc::exec::Value& b) {
  if (a.dtype != b.dtype || a.shape != b.shape || a.f.size() != b.f.size() || a.i != b.i ||
      a.d.size() != b.d.size())
    return false;
  return (a.f.empty() || std::memcmp(a.f.data(), b.f.data(), a.f.size() * sizeof(float)) == 0) &&
         (a.d.empty() || std::memcmp(a.d.data(), b.d.data(), a.d.size() * sizeof(double)) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  std::string bytes(reinterpret_cast<const char*>(data), size);
  auto value = fxc::exec::parseNpy(bytes, "fuzz.npy");
  if (!value) return 0;
  auto again = fxc::exec::parseNpy(fxc::exec::npyBytes(value.value()), "again.npy");
  if (!again || !same(value.value(), again.value())) {
    std::fprintf(stderr, "fxc fuzz: a .npy written and read back differs\n");
    std::abort();
  }
  const fxc::exec::Value& x = value.value();
  if (x.dtype != fxc::ir::DType::kFloat32 || x.shape != std::vector<int64_t>{2, 3}) return 0;
  fxc::exec::Interpreter interpreter(model(), fxc::exec::Backend::kReference);
  auto outputs = interpreter.run({x, x});
  if (!outputs) std::abort();
  for (const auto& out : outputs.value()) {
    for (size_t k = 0; k < 6; ++k) {
      float want = x.f[k] + x.f[k];
      if (std::memcmp(&out.f[k], &want, sizeof want) != 0 &&
          !(want != want && out.f[k] != out.f[k]))
        std::abort();
    }
  }
  return 0;
}
