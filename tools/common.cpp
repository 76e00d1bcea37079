#include "tools/common.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdio>

#include "ir/lint.h"

namespace fxc::tools {

std::string resolveModelPath(const std::string& model) {
  if (!model.empty()) return model;
  if (!::isatty(STDIN_FILENO)) return "-";
  throw UsageError{"no MODEL given (name a file, or pipe a model to stdin)"};
}

std::string modelLabel(const std::string& path) { return path == "-" ? "<stdin>" : path; }

Expected<std::unique_ptr<ir::GraphModule>> loadGraphModule(const std::string& path,
                                                           const onnx::TraceOptions& options) {
  std::string label = modelLabel(path);
  Stopwatch watch;
  auto loaded = onnx::loadModel(path);
  if (!loaded) return Error{label + ": " + loaded.error()};
  spdlog::debug("{}: parsed in {:.3f} s", label, watch.lap());
  auto traced = onnx::trace(loaded.take(), options);
  if (!traced) return Error{label + ": " + traced.error()};
  spdlog::debug("{}: traced {} nodes in {:.3f} s", label, traced.value()->graph().size(),
                watch.lap());
  std::string problem = ir::lintGraph(traced.value()->graph(), traced.value().get());
  if (!problem.empty())
    return Error{label + ": internal error, the traced graph fails lint: " + problem};
  spdlog::debug("{}: linted in {:.3f} s", label, watch.lap());
  return traced;
}

void printError(const std::string& message) {
  std::string line = message;
  for (char& c : line) {
    if (c == '\n') c = ' ';  // one line, whatever a library put in the message
  }
  std::fprintf(stderr, "fxc: error: %s\n", line.c_str());
}

}  // namespace fxc::tools
