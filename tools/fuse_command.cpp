// fxc fuse [MODEL] --pass NAME[:key=value,...] ... [-o OUT] [views] [--print-ir-after NAME|all]
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "ir/lint.h"
#include "ir/printers.h"
#include "passes/registry.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct FuseFlags {
  std::string model;
  std::vector<std::string> passes;
  std::vector<std::string> print_ir_after;
  ViewFlags views;
  bool inline_functions = false;
  std::string format = "text";
  OutputFlags output;
};

std::string countsText(const passes::PassResult& result) {
  if (result.counts.empty()) return "nothing matched";
  std::string text;
  for (const auto& [what, n] : result.counts)
    text += (text.empty() ? "" : ", ") + what + " " + std::to_string(n);
  return result.changed() ? text : text + " (no change)";
}

int runFuse(const FuseFlags& flags) {
  std::vector<passes::PassRequest> requests;
  for (const auto& spec : flags.passes) {
    auto request = passes::parsePassSpec(spec);
    if (!request) throw UsageError{request.error()};
    requests.push_back(request.take());
  }
  for (const auto& name : flags.print_ir_after) {
    bool known = name == "all";
    for (const auto& r : requests) known = known || r.pass->name == name;
    if (!known) throw UsageError{"--print-ir-after " + name + ": no such pass in this run"};
  }
  std::string path = resolveModelPath(flags.model);
  bool json = flags.format == "json";
  bool views = flags.views.any() || json || !flags.print_ir_after.empty();
  validateOutputFlags(flags.output, path, views);

  onnx::TraceOptions options;
  options.inline_functions = flags.inline_functions;
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  nlohmann::json report = nlohmann::json::array();
  for (const auto& request : requests) {
    Stopwatch watch;
    auto result = request.pass->run(gm, request.options);
    if (!result) {
      printError(label + ": pass " + request.pass->name + ": " + result.error());
      return kExitFailure;
    }
    std::string problem = ir::lintGraph(gm.graph(), &gm);
    if (!problem.empty()) {
      printError(label + ": pass " + request.pass->name + " broke the graph: " + problem);
      return kExitFailure;
    }
    double seconds = watch.lap();
    spdlog::info("{}: {}", request.pass->name, countsText(result.value()));
    nlohmann::json counts = nlohmann::json::object();
    for (const auto& [what, n] : result.value().counts) counts[what] = n;
    report.push_back({{"pass", request.pass->name},
                      {"options", request.options.values()},
                      {"changed", result.value().changed()},
                      {"counts", counts}});
    spdlog::debug("{}: {:.3f} s", request.pass->name, seconds);
    for (const auto& name : flags.print_ir_after) {
      if (name == "all" || name == request.pass->name) {
        std::printf("# after %s\n%s", request.pass->name.c_str(),
                    ir::printTabular(gm.graph()).c_str());
      }
    }
  }
  if (wantsOutput(flags.output)) {
    auto written = writeOutput(gm, flags.output, path);
    if (!written) {
      printError(written.error());
      return kExitFailure;
    }
  }
  if (json) {
    nlohmann::json out = {{"passes", report}};
    if (flags.views.tabular) out["tabular"] = ir::printTabular(gm.graph());
    if (flags.views.code) out["code"] = ir::pythonCode(gm.graph());
    if (flags.views.graph) out["graph"] = ir::formatGraph(gm.graph());
    std::cout << out.dump(2) << "\n";
  } else if (!wantsOutput(flags.output) || flags.views.any()) {
    // Without -o the result is shown: the tabular view unless another (or --print-ir-after) was
    // asked.
    std::string text = renderViews(gm.graph(), flags.views, flags.print_ir_after.empty());
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  bury(std::move(traced.value()));
  return kExitOk;
}

}  // namespace

Runner addFuseCommand(CLI::App& app) {
  auto flags = std::make_shared<FuseFlags>();
  CLI::App* cmd = app.add_subcommand("fuse", "Run passes over a model (see fxc passes)");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("-p,--pass", flags->passes,
                  "NAME[:key=value,...]; repeat to run several, in order")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--print-ir-after", flags->print_ir_after,
                  "print the tabular view after pass NAME (or all)")
      ->allow_extra_args(false);
  addViewFlags(*cmd, flags->views);
  cmd->add_flag("--inline-functions", flags->inline_functions,
                "trace through ONNX local functions");
  cmd->add_option("--format", flags->format, "text or json (a report of every pass)")
      ->check(CLI::IsMember({"text", "json"}));
  addOutputFlags(*cmd, flags->output);
  return [cmd, flags]() { return cmd->parsed() ? runFuse(*flags) : -1; };
}

}  // namespace fxc::tools
