// fxc bench [MODEL] [--pass P]... [--runs N] [--warmup N] [--batch N] [--format json]: the seed's
// benchmark, the model as it is ("unfused") and after the passes ("fused"), on the same inputs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct BenchFlags {
  std::string model;
  std::vector<std::string> passes;
  int runs = 20;
  int warmup = 3;
  std::string format = "text";
  ExecFlags exec;
};

struct Timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
};

Expected<Timing> time(const ir::GraphModule& gm, const std::vector<exec::Value>& inputs,
                      const BenchFlags& flags, exec::Backend backend) {
  exec::Interpreter interpreter(gm, backend);
  reportFallbacks(interpreter);
  std::string missing;
  if (!interpreter.supported(missing))
    return Error{"unsupported: node " + missing + " has no CPU kernel"};
  std::vector<double> ms;
  for (int r = 0; r < flags.warmup + flags.runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    auto outputs = interpreter.run(inputs);
    double elapsed =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!outputs) return Error{outputs.error()};
    if (r >= flags.warmup) ms.push_back(elapsed);
  }
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  return Timing{n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms.front(), ms.back()};
}

int runBench(const BenchFlags& flags) {
  if (flags.runs < 1 || flags.warmup < 0) throw UsageError{"--runs must be >= 1 and --warmup >= 0"};
  auto requests = parsePasses(flags.passes);
  std::string path = resolveModelPath(flags.model);
  onnx::TraceOptions options;
  for (const auto& request : requests) options.infer_shapes |= request.pass->needs_shapes;
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  auto inputs = modelInputs(gm, flags.exec);
  if (!inputs) {
    printError(label + ": " + inputs.error());
    return kExitFailure;
  }
  exec::Backend backend = applyExecFlags(flags.exec);
  auto unfused = time(gm, inputs.value(), flags, backend);
  if (!unfused) {
    printError(label + ": " + unfused.error());
    return kExitFailure;
  }
  std::optional<Timing> fused;
  if (!requests.empty()) {
    auto report = runPasses(gm, requests, label);
    if (!report) {
      printError(report.error());
      return kExitFailure;
    }
    auto timing = time(gm, inputs.value(), flags, backend);
    if (!timing) {
      printError(label + ": " + timing.error());
      return kExitFailure;
    }
    fused = timing.value();
  }
  auto json = [](const Timing& t) {
    return nlohmann::json{{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms}};
  };
  if (flags.format == "json") {
    nlohmann::json out = {{"runs", flags.runs},
                          {"warmup", flags.warmup},
                          {"backend", backend == exec::Backend::kCudnn       ? "cudnn"
                                      : backend == exec::Backend::kReference ? "reference"
                                                                             : "cpu"},
                          {"unfused", json(unfused.value())}};
    if (backend == exec::Backend::kCudnn) out["precision"] = flags.exec.precision;
    if (fused) {
      out["fused"] = json(*fused);
      out["speedup"] = unfused.value().median_ms / fused->median_ms;
    }
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  auto line = [](const char* what, const Timing& t) {
    std::printf("%-8s median %.3f ms  min %.3f ms  max %.3f ms\n", what, t.median_ms, t.min_ms,
                t.max_ms);
  };
  line("unfused", unfused.value());
  if (fused) {
    line("fused", *fused);
    std::printf("speedup  %.2fx\n", unfused.value().median_ms / fused->median_ms);
  }
  return kExitOk;
}

}  // namespace

Runner addBenchCommand(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd =
      app.add_subcommand("bench", "Time the model on the CPU interpreter, before and after passes");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("-p,--pass", flags->passes,
                  "NAME[:key=value,...]: time the model after these passes too")
      ->allow_extra_args(false);
  cmd->add_option("--runs", flags->runs, "timed runs (default 20)");
  cmd->add_option("--warmup", flags->warmup, "untimed runs first (default 3)");
  addExecFlags(*cmd, flags->exec);
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return [cmd, flags]() { return cmd->parsed() ? runBench(*flags) : -1; };
}

}  // namespace fxc::tools
