// fxc trace [MODEL] [--print-tabular] [--code] [--graph] [--format text|json] [--shapes]
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ir/printers.h"
#include "passes/shape_prop.h"
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

// Where ONNX's shape inference stopped, the shapes a run of the model proves (ShapeProp): only
// when every input dimension is known and the model runs; otherwise the shapes stay as inferred,
// and -v says why.
void completeShapes(ir::GraphModule& gm, const std::vector<std::string>& shapes, int64_t batch) {
  size_t unknown = 0;
  for (const ir::Node* node : gm.graph()) {
    bool value = node->op() != ir::Opcode::kOutput && node->op() != ir::Opcode::kGetAttr;
    if (value && (!node->meta.shape || std::any_of(node->meta.shape->begin(),
                                                   node->meta.shape->end(), ir::isSymbolicDim)))
      ++unknown;
  }
  if (unknown == 0) return;
  ExecFlags exec;
  exec.shapes = shapes;
  exec.batch = batch;
  auto inputs = modelInputs(gm, exec);
  if (!inputs) {
    spdlog::debug("{} values keep the shape ONNX's inference gave (or none): {}", unknown,
                  inputs.error());
    return;
  }
  auto report = passes::propagateShapes(gm, inputs.take());
  if (!report) {
    spdlog::debug(
        "{} values keep the shape ONNX's inference gave (or none): the model did not "
        "run: {}",
        unknown, report.error());
    return;
  }
  spdlog::debug(
      "shapes: {} found by running the model, {} depend on the input's values (left "
      "unknown)",
      report.value().filled, report.value().unproven);
  for (const std::string& line : report.value().disagreements)
    spdlog::warn("shape inference and the run disagree: {}", line);
}

int runTrace(const TraceFlags& flags) {
  std::string path = resolveModelPath(flags.model);
  bool views = flags.views.any() || flags.format == "json";
  validateOutputFlags(flags.output, path, views, flags.views.svg);
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
  ir::GraphModule& gm = *traced.value();
  std::string names;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kPlaceholder)
      names += (names.empty() ? "" : ", ") + node->meta.value_name;
  }
  for (const auto& [name, dims] : options.input_shapes) {
    bool known = false;
    for (const ir::Node* node : gm.graph())
      known = known || (node->op() == ir::Opcode::kPlaceholder && node->meta.value_name == name);
    if (!known) throw UsageError{"--shape " + name + ": the model's inputs are " + names};
  }
  if (flags.views.shapes) completeShapes(gm, flags.shapes, flags.batch);
  if (wantsOutput(flags.output)) {
    auto written = writeOutput(gm, flags.output, path);
    if (!written) {
      printError(written.error());
      return kExitFailure;
    }
  }
  if (!flags.views.svg.empty()) {
    auto drawn = writeSvg(gm, viewName(path), flags.views.shapes, flags.views.svg, path);
    if (!drawn) {
      printError(drawn.error());
      return kExitFailure;
    }
  }
  if (!views && (wantsOutput(flags.output) || !flags.views.svg.empty())) {
    bury(std::move(traced.value()));
    return kExitOk;
  }
  if (flags.format == "json") {
    nlohmann::json out = ir::toJson(gm);
    if (flags.views.dot) out["dot"] = ir::printDot(gm, viewName(path), flags.views.shapes);
    out["tabular"] = ir::printTabular(gm.graph(), flags.views.shapes);
    out["graph"] = ir::formatGraph(gm.graph());
    printJson(out);
    bury(std::move(traced.value()));
    return kExitOk;
  }
  Stopwatch watch;
  std::string text = renderViews(gm, flags.views, /*default_tabular=*/true, viewName(path));
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
