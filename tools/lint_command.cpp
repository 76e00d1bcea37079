// fxc lint MODEL... : trace each model and run the IR verifier; one line per model.
#include <spdlog/spdlog.h>

#include <cstdio>

#include "tools/common.h"

namespace fxc::tools {
namespace {

struct LintFlags {
  std::vector<std::string> models;
  onnx::TraceOptions trace;  // --inline-functions, --no-recognize
};

int runLint(const LintFlags& flags) {
  std::vector<std::string> models = flags.models;
  if (models.empty()) models.push_back(resolveModelPath(""));
  onnx::TraceOptions options = flags.trace;
  int failures = 0;
  for (const std::string& path : models) {
    auto traced = loadGraphModule(path, options);
    if (!traced) {
      printError(traced.error());
      ++failures;
      continue;
    }
    std::printf("%s: ok (%zu nodes)\n", modelLabel(path).c_str(), traced.value()->graph().size());
    if (models.size() == 1) bury(std::move(traced.value()));
  }
  if (models.size() > 1) {
    spdlog::info("{} of {} models passed lint", models.size() - static_cast<size_t>(failures),
                 models.size());
  }
  return failures ? kExitFailure : kExitOk;
}

}  // namespace

Runner addLintCommand(CLI::App& app) {
  auto flags = std::make_shared<LintFlags>();
  CLI::App* cmd = app.add_subcommand("lint", "Trace models and check the graph invariants");
  cmd->add_option("models", flags->models, "ONNX files (default: stdin when piped)");
  addTraceFlags(*cmd, flags->trace);
  return [cmd, flags]() { return cmd->parsed() ? runLint(*flags) : -1; };
}

}  // namespace fxc::tools
