// fxc bench [MODEL] [--pass P]... [--runs N] [--warmup N] [--duration S] [--batch N] [--format
// json] [--optimized-only]: the seed's benchmark, the model as it is ("unfused") and after the
// passes ("fused"), on the same inputs, run in turns; mean, spread and percentiles, throughput.
// --optimized-only times the graph after the passes alone, run after run: the steady state a
// server sees (the graph as written, run between, evicts the caches: MobileNet-V2's int8 run
// took 2.4–3.5 ms between runs of its QDQ graph, 1.9–2.0 ms alone).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/progress.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct BenchFlags {
  std::string model;
  std::vector<std::string> passes;
  int runs = 20;
  int warmup = 3;
  double duration = 0;  // seconds; 0: --runs alone
  std::string format = "text";
  bool optimized_only = false;  // time the graph after the passes alone
  ExecFlags exec;
};

// Statistics of one variant's timed runs (milliseconds).
struct Timing {
  size_t runs = 0;
  double mean = 0, std = 0, min = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// The value below which `q` of the sorted samples fall (linear between neighbours).
double quantile(const std::vector<double>& sorted, double q) {
  double at = q * static_cast<double>(sorted.size() - 1);
  size_t low = static_cast<size_t>(at);
  size_t high = std::min(low + 1, sorted.size() - 1);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - static_cast<double>(low));
}

Timing statistics(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  Timing t;
  t.runs = ms.size();
  for (double v : ms) t.mean += v;
  t.mean /= static_cast<double>(ms.size());
  for (double v : ms) t.std += (v - t.mean) * (v - t.mean);
  t.std = ms.size() > 1 ? std::sqrt(t.std / static_cast<double>(ms.size() - 1)) : 0;
  t.min = ms.front();
  t.max = ms.back();
  t.p10 = quantile(ms, 0.10);
  t.p50 = quantile(ms, 0.50);
  t.p90 = quantile(ms, 0.90);
  t.p99 = quantile(ms, 0.99);
  return t;
}

// One variant: its interpreter and its timed runs.
struct Variant {
  std::string name;
  std::unique_ptr<exec::Interpreter> interpreter;
  std::vector<double> ms;
};

// Runs the variants in turns (unfused, fused, then fused, unfused, ...), so that a slow period of
// the machine falls on both alike: --warmup untimed turns, then --runs timed ones, or turns until
// --duration seconds have passed (and at least --runs).
Expected<bool> timeInTurns(std::vector<Variant>& variants, const std::vector<exec::Value>& inputs,
                           const BenchFlags& flags) {
  auto began = std::chrono::steady_clock::now();  // reset when the timed turns begin
  Progress progress("timing", "turns",
                    flags.duration > 0 ? 0 : static_cast<size_t>(flags.warmup + flags.runs));
  for (int turn = 0;; ++turn) {
    progress.update(static_cast<size_t>(turn));
    bool timed = turn >= flags.warmup;
    if (turn == flags.warmup) began = std::chrono::steady_clock::now();
    int done = turn - flags.warmup;
    if (timed && done >= flags.runs) {
      double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
      if (flags.duration <= 0 || seconds >= flags.duration) break;
    }
    for (size_t k = 0; k < variants.size(); ++k) {
      Variant& v = variants[turn % 2 ? variants.size() - 1 - k : k];
      std::vector<exec::Value> fed = inputs;  // the copy run() takes, made before the clock starts
      auto start = std::chrono::steady_clock::now();
      auto outputs = v.interpreter->run(std::move(fed));
      double elapsed =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      if (!outputs) return Error{outputs.error()};
      if (timed) v.ms.push_back(elapsed);
    }
  }
  return true;
}

int runBench(const BenchFlags& flags) {
  if (flags.runs < 1 || flags.warmup < 0) throw UsageError{"--runs must be >= 1 and --warmup >= 0"};
  if (!(flags.duration >= 0 && flags.duration <= 86400))
    throw UsageError{"--duration must be from 0 to 86400 seconds"};
  if (flags.runs > 1000000 || flags.warmup > 1000000)
    throw UsageError{"--runs and --warmup must be at most 1000000"};
  exec::Backend backend = applyExecFlags(flags.exec);
  // With --pass: the graph as written against the graph after those passes; without: against
  // the graph after the execution pipeline (what run executes), unless -O0.
  auto requests =
      flags.passes.empty() ? executionPipeline(flags.exec, backend) : parsePasses(flags.passes);
  if (flags.optimized_only && requests.empty())
    throw UsageError{"--optimized-only times the graph after passes: not with -O0 and no --pass"};
  std::string path = resolveModelPath(flags.model);
  onnx::TraceOptions options;
  applyRunShapes(options, flags.exec);
  for (const auto& request : requests) options.infer_shapes |= request.pass->needs_shapes;
  // The model as it is, and (with --pass) a second copy after the passes: one read of MODEL
  // (stdin or a pipe cannot be read twice), traced twice alike.
  std::unique_ptr<ir::GraphModule> copy;
  auto traced = loadGraphModule(path, options, requests.empty() ? nullptr : &copy, &options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  std::vector<std::unique_ptr<ir::GraphModule>> graphs;
  graphs.push_back(traced.take());
  if (copy) graphs.push_back(std::move(copy));
  std::string label = modelLabel(path);
  auto inputs = modelInputs(*graphs[0], flags.exec);
  if (!inputs) {
    printError(label + ": " + inputs.error());
    return kExitFailure;
  }
  if (graphs.size() == 2) {
    auto report = runPasses(*graphs[1], requests, label, nullptr, flags.passes.empty());
    if (!report) {
      printError(report.error());
      return kExitFailure;
    }
  }
  std::vector<Variant> variants;
  for (size_t k = flags.optimized_only ? 1 : 0; k < graphs.size(); ++k) {
    Variant v{
        k == 0 ? "unfused" : "fused", std::make_unique<exec::Interpreter>(*graphs[k], backend), {}};
    reportFallbacks(*v.interpreter);
    std::string missing;
    if (!v.interpreter->supported(missing)) {
      printError(label + ": unsupported: node " + missing + " has no CPU kernel");
      return kExitFailure;
    }
    variants.push_back(std::move(v));
  }
  keepHeapBlocks();
  auto timed = timeInTurns(variants, inputs.value(), flags);
  if (!timed) {
    printError(label + ": " + timed.error());
    return kExitFailure;
  }
  std::vector<Timing> timings;
  for (const auto& v : variants) timings.push_back(statistics(v.ms));
  // Throughput: the first input's first dimension is the batch.
  double batch = 1;
  if (!inputs.value().empty() && !inputs.value()[0].shape.empty())
    batch = static_cast<double>(inputs.value()[0].shape[0]);
  // A wide spread makes medians untrustworthy: say so, with the usual causes.
  for (size_t k = 0; k < variants.size(); ++k) {
    const Timing& t = timings[k];
    if (t.runs >= 5 && t.p90 > 1.5 * t.p10)
      spdlog::warn(
          "{}: timings spread widely (p10 {:.3f} ms, p90 {:.3f} ms): other processes or too many "
          "threads for the cores may compete; try --threads 1, more --runs or --duration",
          variants[k].name, t.p10, t.p90);
  }
  if (flags.format == "json") {
    auto json = [&](const Timing& t) {
      return nlohmann::json{{"runs", t.runs},  {"mean_ms", t.mean},
                            {"std_ms", t.std}, {"min_ms", t.min},
                            {"p50_ms", t.p50}, {"median_ms", t.p50},
                            {"p90_ms", t.p90}, {"p99_ms", t.p99},
                            {"max_ms", t.max}, {"per_second", batch * 1000.0 / t.p50}};
    };
    nlohmann::json out = {{"runs", flags.runs},
                          {"warmup", flags.warmup},
                          {"batch", static_cast<int64_t>(batch)},
                          {"backend", backend == exec::Backend::kCudnn       ? "cudnn"
                                      : backend == exec::Backend::kReference ? "reference"
                                                                             : "cpu"},
                          {variants[0].name, json(timings[0])}};
    if (backend == exec::Backend::kCudnn) out["precision"] = flags.exec.precision;
    if (timings.size() == 2) {
      out["fused"] = json(timings[1]);
      out["speedup"] = timings[0].p50 / timings[1].p50;
    }
    printJson(out);
    return kExitOk;
  }
  std::vector<std::vector<std::string>> rows;
  auto ms = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return std::string(buf);
  };
  for (size_t k = 0; k < variants.size(); ++k) {
    const Timing& t = timings[k];
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.1f", batch * 1000.0 / t.p50);
    rows.push_back({variants[k].name, std::to_string(t.runs), ms(t.mean), ms(t.std), ms(t.min),
                    ms(t.p50), ms(t.p90), ms(t.p99), ms(t.max), rate});
  }
  std::cout << table({"variant", "runs", "mean ms", "std ms", "min ms", "p50 ms", "p90 ms",
                      "p99 ms", "max ms", "per second"},
                     rows, {false, true, true, true, true, true, true, true, true, true});
  if (timings.size() == 2)
    std::printf("speedup  %.2fx (p50, runs interleaved)\n", timings[0].p50 / timings[1].p50);
  return kExitOk;
}

}  // namespace

Runner addBenchCommand(CLI::App& app) {
  auto flags = std::make_shared<BenchFlags>();
  CLI::App* cmd =
      app.add_subcommand("bench", "Time the model on the CPU interpreter, before and after passes");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("-p,--pass", flags->passes,
                  "NAME[:key=value,...]: time the model after these passes too (default: after "
                  "the execution pipeline, see -O)")
      ->allow_extra_args(false);
  cmd->add_option("--runs", flags->runs, "timed runs (default 20)");
  cmd->add_option("--warmup", flags->warmup, "untimed runs first (default 3)");
  cmd->add_option("--duration", flags->duration,
                  "SECONDS: keep timing until this much time has passed (at least --runs runs)")
      ->check(kFiniteNumber);
  cmd->add_flag("--optimized-only", flags->optimized_only,
                "time the graph after the passes alone, run after run (no runs of the graph as "
                "written between: they evict its caches)");
  addExecFlags(*cmd, flags->exec);
  addOptimizeFlag(*cmd, flags->exec);
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return [cmd, flags]() { return cmd->parsed() ? runBench(*flags) : -1; };
}

}  // namespace fxc::tools
