// Option strings → their parsers: the bytes are split at newlines into a pass spec, --shape
// values, an --input value and a --calibration spec. Parsers answer with a value or a usage error
// (UsageError), nothing else; a pass spec that parses runs on a small model (passes that run
// the model excepted), where its options may make it refuse, not crash.
#include <sstream>
#include <string>
#include <vector>

#include "onnx/load.h"
#include "passes/registry.h"
#include "test/fuzz/fuzz.h"
#include "tools/common.h"

namespace {

// The model is traced afresh for each pass, with ONNX's shape inference only for a pass that
// needs shapes: the inference runs in a child process, and forking an ASan process for every
// input held this harness to a few hundred inputs a second.
std::unique_ptr<fxc::ir::GraphModule> model(bool shapes) {
  auto loaded = fxc::onnx::loadModel(fxc::fuzz::sourcePath("testdata/models/conv_bn_cases.onnx"));
  if (!loaded) std::abort();
  fxc::onnx::TraceOptions options;
  options.infer_shapes = shapes;
  auto traced = fxc::onnx::trace(loaded.take(), options);
  if (!traced) std::abort();
  return traced.take();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  std::vector<std::string> lines;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(in, line) && lines.size() < 8;) lines.push_back(line);
  if (lines.empty()) return 0;
  try {
    auto requests = fxc::tools::parsePasses({lines[0]});
    const auto* pass = requests.at(0).pass;
    if (pass->name != "quant-calibrate" && pass->name != "shape-prop") {
      auto gm = model(pass->needs_shapes);
      auto result = pass->run(*gm, requests.at(0).options);
      fxc::fuzz::requireLint(*gm, "after " + lines[0]);
    }
  } catch (const fxc::tools::UsageError&) {
  }
  try {
    fxc::tools::parseShapes(std::vector<std::string>(lines.begin() + 1, lines.end()));
  } catch (const fxc::tools::UsageError&) {
  }
  for (const auto& line : lines) {
    try {
      fxc::tools::splitAssignment(line, "--input");
    } catch (const fxc::tools::UsageError&) {
    }
  }
  return 0;
}
