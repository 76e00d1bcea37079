#include "test/fuzz/fuzz.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "exec/interpreter.h"
#include "exec/value.h"
#include "ir/lint.h"
#include "onnx/load.h"
#include "onnx/shape_inference.h"
#include "passes/registry.h"

namespace fxc::fuzz {

void setUp() {
  static const bool done = [] {
    spdlog::set_level(spdlog::level::off);
    exec::setMemoryLimit(8e6);
    onnx::setShapeInferenceLimit(std::chrono::milliseconds(500));
    return true;
  }();
  static_cast<void>(done);
  // Each input may run 20,000 nodes in all (loop iterations included): ONNX's node tests, the
  // seeds, run a few dozen; a Loop of 786,435 trips over a 2 x 3 add took 45 s under ASan.
  exec::setNodeLimit(20000);
}

void requireLint(const ir::GraphModule& gm, const std::string& what) {
  std::string problem = ir::lintGraph(gm.graph(), &gm);
  if (problem.empty()) return;
  std::fprintf(stderr, "fxc fuzz: the graph fails lint %s: %s\n", what.c_str(), problem.c_str());
  std::abort();
}

std::unique_ptr<ir::GraphModule> traceBytes(const uint8_t* data, size_t size,
                                            const onnx::TraceOptions& options) {
  // The bytes are handed over as a mapped file would be (the scanner that leaves large tensors
  // in place runs too); external data is looked up in a directory that does not exist.
  auto file = std::make_shared<std::string>(reinterpret_cast<const char*>(data), size);
  auto loaded = onnx::parseModel(file->data(), file->size(), "/nonexistent", file);
  if (!loaded) return nullptr;
  auto traced = onnx::trace(loaded.take(), options);
  if (!traced) return nullptr;
  requireLint(*traced.value(), "after trace");
  return traced.take();
}

bool runPassSpecs(ir::GraphModule& gm, const std::vector<std::string>& specs) {
  for (const std::string& spec : specs) {
    auto request = passes::parsePassSpec(spec);
    if (!request) std::abort();
    auto result = request.value().pass->run(gm, request.value().options);
    requireLint(gm, "after " + spec);
    if (!result) return false;
  }
  return true;
}

std::string sourcePath(const std::string& relative) {
  const char* root = std::getenv("FXC_SOURCE_DIR");
  return std::string(root && *root ? root : FXC_SOURCE_DIR) + "/" + relative;
}

}  // namespace fxc::fuzz
