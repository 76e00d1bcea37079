// Model bytes → parse → trace → lint → every view (tabular with shapes, code, str(graph), JSON,
// DOT). The last byte picks the trace options, so that one corpus reaches all of them.
#include <nlohmann/json.hpp>

#include "ir/printers.h"
#include "test/fuzz/fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  fxc::onnx::TraceOptions options;
  if (size > 0) {
    uint8_t flags = data[size - 1];
    options.infer_shapes = flags & 1;
    options.inline_functions = flags & 2;
    options.recognize = !(flags & 4);
  }
  auto gm = fxc::fuzz::traceBytes(data, size, options);
  if (!gm) return 0;
  const fxc::ir::Graph& graph = gm->graph();
  std::string text = fxc::ir::printTabular(graph, options.infer_shapes);
  text += fxc::ir::pythonCode(graph);
  text += fxc::ir::formatGraph(graph);
  text += fxc::ir::toJson(*gm).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  text += fxc::ir::printDot(*gm, "fuzz", options.infer_shapes);
  return text.empty() ? 1 : 0;
}
