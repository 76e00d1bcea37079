// fxc lint MODEL|DIR... [--runnable]: trace each model (a directory: the .onnx files in it, sorted)
// and run the IR verifier; with --runnable, also say which nodes no CPU kernel runs. One line per
// model.
#include <dirent.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "exec/interpreter.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct LintFlags {
  std::vector<std::string> models;
  onnx::TraceOptions trace;  // --inline-functions, --no-recognize
  bool runnable = false;
  std::string format = "text";
};

// The models named: files as given, directories as the .onnx files directly in them.
std::vector<std::string> expand(const std::vector<std::string>& paths) {
  std::vector<std::string> models;
  for (const std::string& path : paths) {
    struct stat info;
    DIR* dir = ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode) ? ::opendir(path.c_str())
                                                                         : nullptr;
    if (!dir) {
      models.push_back(path);
      continue;
    }
    std::vector<std::string> inside;
    while (dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".onnx") == 0)
        inside.push_back((path.back() == '/' ? path : path + "/") + name);
    }
    ::closedir(dir);
    std::sort(inside.begin(), inside.end());
    if (inside.empty()) throw UsageError{"lint " + path + ": the directory holds no .onnx files"};
    models.insert(models.end(), inside.begin(), inside.end());
  }
  return models;
}

int runLint(const LintFlags& flags) {
  std::vector<std::string> models = expand(flags.models);
  if (models.empty()) models.push_back(resolveModelPath(""));
  onnx::TraceOptions options = flags.trace;
  int failures = 0;
  bool json = flags.format == "json";
  nlohmann::json report = nlohmann::json::array();
  for (const std::string& path : models) {
    auto traced = loadGraphModule(path, options);
    if (!traced) {
      if (json)
        report.push_back({{"model", modelLabel(path)}, {"ok", false}, {"error", traced.error()}});
      else
        printError(traced.error());
      ++failures;
      continue;
    }
    if (flags.runnable) {
      // The nodes no CPU kernel runs: `fxc run` would refuse the model.
      exec::Interpreter interpreter(*traced.value(), exec::Backend::kCpu);
      std::vector<std::string> missing = interpreter.unsupported();
      if (!missing.empty()) {
        std::string names;
        for (size_t k = 0; k < missing.size() && k < 5; ++k) names += (k ? ", " : "") + missing[k];
        if (missing.size() > 5) names += ", ...";
        if (json)
          report.push_back({{"model", modelLabel(path)},
                            {"ok", false},
                            {"nodes", traced.value()->graph().size()},
                            {"without_kernel", missing}});
        else
          printError(modelLabel(path) + ": not runnable: " + std::to_string(missing.size()) +
                     " node(s) without a CPU kernel: " + names);
        ++failures;
        continue;
      }
    }
    if (json) {
      report.push_back(
          {{"model", modelLabel(path)}, {"ok", true}, {"nodes", traced.value()->graph().size()}});
      continue;
    }
    std::printf("%s: ok (%zu nodes%s)\n", modelLabel(path).c_str(), traced.value()->graph().size(),
                flags.runnable ? ", runnable" : "");
    if (models.size() == 1) bury(std::move(traced.value()));
  }
  if (json) printJson(nlohmann::json{{"models", report}});
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
  cmd->add_option("models", flags->models,
                  "ONNX files, or directories of them (default: stdin when piped)");
  cmd->add_flag("--runnable", flags->runnable,
                "also check that every node has a CPU kernel (that fxc run can run the model)");
  addTraceFlags(*cmd, flags->trace);
  cmd->add_option("--format", flags->format, "text or json (one document for all models)")
      ->check(CLI::IsMember({"text", "json"}));
  return [cmd, flags]() { return cmd->parsed() ? runLint(*flags) : -1; };
}

}  // namespace fxc::tools
