// fxc fuse [MODEL] --pass NAME[:key=value,...] ... [-o OUT] [views] [--print-ir-after NAME|all]
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "exec/interpreter.h"
#include "exec/io.h"
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
  onnx::TraceOptions trace;  // --inline-functions, --no-recognize
  std::string format = "text";
  std::string verify;           // "" off; "default" or "ATOL,RTOL"
  double atol = -1, rtol = -1;  // --atol / --rtol (imply --verify); -1: not given
  OutputFlags output;
  ExecFlags exec;  // how --verify runs the model
};

struct Tolerance {
  double atol = 1e-5;
  double rtol = 1e-4;
};

Tolerance parseTolerance(const std::string& spec) {
  Tolerance tolerance;
  if (spec.empty() || spec == "default") return tolerance;
  size_t comma = spec.find(',');
  auto number = [](const std::string& text, double& out) {
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0';
  };
  bool ok = comma != std::string::npos && number(spec.substr(0, comma), tolerance.atol) &&
            number(spec.substr(comma + 1), tolerance.rtol);
  auto valid = [](double t) { return std::isfinite(t) && t >= 0; };
  if (!ok || !valid(tolerance.atol) || !valid(tolerance.rtol))
    throw UsageError{"--verify=" + spec + ": expected ATOL,RTOL (two numbers >= 0)"};
  return tolerance;
}

// Runs `gm` on `inputs`; the error names the model.
Expected<std::vector<exec::Value>> runModel(const ir::GraphModule& gm,
                                            std::vector<exec::Value> inputs,
                                            exec::Backend backend) {
  exec::Interpreter interpreter(gm, backend);
  std::string missing;
  if (!interpreter.supported(missing))
    return Error{"cannot verify: node " + missing + " has no CPU kernel"};
  return interpreter.run(std::move(inputs));
}

int runFuse(const FuseFlags& flags) {
  std::vector<passes::PassRequest> requests = parsePasses(flags.passes);
  for (const auto& name : flags.print_ir_after) {
    bool known = name == "all";
    for (const auto& r : requests) known = known || r.pass->name == name;
    if (!known) throw UsageError{"--print-ir-after " + name + ": no such pass in this run"};
  }
  std::string path = resolveModelPath(flags.model);
  std::optional<Tolerance> tolerance;
  if (!flags.verify.empty()) tolerance = parseTolerance(flags.verify);
  if (flags.atol >= 0 || flags.rtol >= 0) {
    if (!flags.verify.empty() && flags.verify != "default")
      throw UsageError{"give --verify=ATOL,RTOL or --atol/--rtol, not both"};
    tolerance = Tolerance{};
    if (flags.atol >= 0) tolerance->atol = flags.atol;
    if (flags.rtol >= 0) tolerance->rtol = flags.rtol;
  }
  exec::Backend backend = tolerance ? applyExecFlags(flags.exec) : exec::Backend::kCpu;
  bool json = flags.format == "json";
  bool views = flags.views.any() || json || !flags.print_ir_after.empty();
  validateOutputFlags(flags.output, path, views, flags.views.svg);

  onnx::TraceOptions options = flags.trace;
  options.infer_shapes = flags.views.shapes;  // --shapes: the columns
  for (const auto& request : requests) options.infer_shapes |= request.pass->needs_shapes;
  std::unique_ptr<ir::GraphModule> oracle;
  auto traced = loadGraphModule(path, options, tolerance ? &oracle : nullptr);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  // --verify: the model as written (every op as it is, no recognition), run on seeded inputs
  // with the reference kernels, is the reference.
  std::vector<exec::Value> verify_inputs, reference;
  if (tolerance) {
    auto inputs = modelInputs(gm, flags.exec);
    auto outputs = inputs ? runModel(*oracle, inputs.value(), exec::Backend::kReference)
                          : Expected<std::vector<exec::Value>>(Error{inputs.error()});
    if (!outputs) {
      printError(label + ": " + outputs.error());
      return kExitFailure;
    }
    verify_inputs = inputs.take();
    reference = outputs.take();
  }
  // --print-ir-after: text as it happens, or (--format json) an "after" list in the document.
  nlohmann::json after = nlohmann::json::array();
  auto report = runPasses(gm, requests, label, [&](const passes::PassRequest& request) {
    for (const auto& name : flags.print_ir_after) {
      if (name != "all" && name != request.pass->name) continue;
      if (json)
        after.push_back({{"pass", request.pass->name},
                         {"tabular", ir::printTabular(gm.graph(), flags.views.shapes)}});
      else
        std::printf("# after %s\n%s", request.pass->name.c_str(),
                    ir::printTabular(gm.graph(), flags.views.shapes).c_str());
    }
  });
  if (!report) {
    printError(report.error());
    return kExitFailure;
  }
  nlohmann::json verification = nlohmann::json::array();
  if (tolerance) {
    auto outputs = runModel(gm, std::move(verify_inputs), backend);
    if (!outputs) {
      printError(label + ": " + outputs.error());
      return kExitFailure;
    }
    if (outputs.value().size() != reference.size()) {
      printError(label + ": verification failed: the passes changed the number of outputs");
      return kExitFailure;
    }
    std::vector<std::string> names = outputNames(gm);
    for (size_t k = 0; k < reference.size(); ++k) {
      std::string name = k < names.size() ? names[k] : std::to_string(k);
      auto d =
          exec::compareValues(outputs.value()[k], reference[k], tolerance->atol, tolerance->rtol);
      spdlog::info(
          "verify: output {}: max abs error {:.3g}, max rel error {:.3g}: {} atol {:g} + rtol "
          "{:g}·|ref| "
          "in every element",
          name, d.max_abs, d.max_rel, d.within ? "within" : "NOT within", tolerance->atol,
          tolerance->rtol);
      verification.push_back({{"output", name},
                              {"max_abs", d.max_abs},
                              {"max_rel", d.max_rel},
                              {"atol", tolerance->atol},
                              {"rtol", tolerance->rtol},
                              {"ok", d.within}});
      if (!d.within) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "differs by up to %.3g (beyond atol %g + rtol %g x |reference|)", d.max_abs,
                      tolerance->atol, tolerance->rtol);
        printError(label + ": verification failed: output " + name + " " + text);
        return kExitFailure;
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
  if (!flags.views.svg.empty()) {
    auto drawn = writeSvg(gm, viewName(path), flags.views.shapes, flags.views.svg, path);
    if (!drawn) {
      printError(drawn.error());
      return kExitFailure;
    }
  }
  if (json) {
    nlohmann::json out = {{"passes", report.value()}};
    if (!flags.print_ir_after.empty()) out["after"] = after;
    if (tolerance) out["verify"] = verification;
    if (flags.views.tabular) out["tabular"] = ir::printTabular(gm.graph(), flags.views.shapes);
    if (flags.views.code) out["code"] = ir::pythonCode(gm.graph());
    if (flags.views.graph) out["graph"] = ir::formatGraph(gm.graph());
    if (flags.views.dot) out["dot"] = ir::printDot(gm, viewName(path), flags.views.shapes);
    printJson(out);
  } else if ((!wantsOutput(flags.output) && flags.views.svg.empty()) || flags.views.any()) {
    // Without -o the result is shown: the tabular view unless another (or --print-ir-after) was
    // asked.
    std::string text = renderViews(gm, flags.views, flags.print_ir_after.empty(), viewName(path));
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
  addTraceFlags(*cmd, flags->trace);
  cmd->add_option("--format", flags->format, "text or json (a report of every pass)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--verify{default}", flags->verify,
                "run the model as written (op by op, reference kernels) and after the passes on "
                "the same inputs, and compare every output element: within atol + rtol·|ref| "
                "(default 1e-5 + 1e-4·|ref|); exit 1 beyond")
      ->option_text("[=ATOL,RTOL]");
  cmd->add_option("--atol", flags->atol, "--verify's absolute tolerance (implies --verify)")
      ->option_text("X")
      ->check(kFiniteNumber)
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--rtol", flags->rtol, "--verify's relative tolerance (implies --verify)")
      ->option_text("X")
      ->check(kFiniteNumber)
      ->check(CLI::NonNegativeNumber);
  addOutputFlags(*cmd, flags->output);
  addExecFlags(*cmd, flags->exec);  // --verify's inputs (--shape, --batch, --seed) and backend
  return [cmd, flags]() { return cmd->parsed() ? runFuse(*flags) : -1; };
}

}  // namespace fxc::tools
