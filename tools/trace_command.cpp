// fxc trace [MODEL] [--print-tabular] [--code] [--graph] [--format text|json] [--shapes]
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ir/printers.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct TraceFlags {
  std::string model;
  ViewFlags views;
  onnx::TraceOptions trace;  // --inline-functions, --no-recognize
  std::string format = "text";
  OutputFlags output;
  std::vector<std::string> shapes;  // --shape NAME=D0,D1,... for the inference
  int64_t batch = 0;
};

int runTrace(const TraceFlags& flags) {
  std::string path = resolveModelPath(flags.model);
  bool views = flags.views.any() || flags.format == "json";
  validateOutputFlags(flags.output, path, views);
  onnx::TraceOptions options = flags.trace;
  options.infer_shapes = flags.views.shapes;
  if ((!flags.shapes.empty() || flags.batch > 0) && !flags.views.shapes)
    throw UsageError{"--shape and --batch apply to --shapes (the inferred shapes)"};
  options.input_shapes = parseShapes(flags.shapes);
  options.batch = flags.batch;
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  const ir::GraphModule& gm = *traced.value();
  if (wantsOutput(flags.output)) {
    auto written = writeOutput(gm, flags.output, path);
    if (!written) {
      printError(written.error());
      return kExitFailure;
    }
    if (!views) {
      bury(std::move(traced.value()));
      return kExitOk;
    }
  }
  if (flags.format == "json") {
    nlohmann::json out = ir::toJson(gm);
    out["tabular"] = ir::printTabular(gm.graph(), flags.views.shapes);
    out["graph"] = ir::formatGraph(gm.graph());
    std::cout << out.dump(2) << "\n";
    bury(std::move(traced.value()));
    return kExitOk;
  }
  Stopwatch watch;
  std::string text = renderViews(gm.graph(), flags.views, /*default_tabular=*/true);
  std::fwrite(text.data(), 1, text.size(), stdout);
  spdlog::debug("printed in {:.3f} s", watch.lap());
  bury(std::move(traced.value()));
  return kExitOk;
}

}  // namespace

Runner addTraceCommand(CLI::App& app) {
  auto flags = std::make_shared<TraceFlags>();
  CLI::App* cmd =
      app.add_subcommand("trace", "Trace an ONNX model into the FX graph IR and print it");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  addViewFlags(*cmd, flags->views);
  cmd->add_option("--shape", flags->shapes,
                  "with --shapes: NAME=D0,D1,... of an input, by ONNX name")
      ->allow_extra_args(false);
  cmd->add_option("--batch", flags->batch, "with --shapes: the first dimension of every input")
      ->option_text("N")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  addTraceFlags(*cmd, flags->trace);
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addOutputFlags(*cmd, flags->output);
  return [cmd, flags]() { return cmd->parsed() ? runTrace(*flags) : -1; };
}

}  // namespace fxc::tools
