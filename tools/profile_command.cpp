// fxc profile [MODEL] [--runs N] [--warmup N] [--sort] [--group-by node|type] [--unit s|ms]
// [--format json]: the seed's
// ProfilingInterpreter, a small subclass of the interpreter that times run() and every runNode().
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/progress.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

// --group-by type: the nodes' times summed per module type or call_function target, slowest
// first.
struct Group {
  std::string type;
  size_t nodes = 0;
  double mean = 0, pct = 0;
};
template <typename Row>
std::vector<Group> groupByType(const std::vector<Row>& rows) {
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (const Row& row : rows) {
    auto [it, fresh] = index.try_emplace(row.type, groups.size());
    if (fresh) groups.push_back({row.type});
    Group& group = groups[it->second];
    ++group.nodes;
    group.mean += row.mean;
    group.pct += row.pct;
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.mean > b.mean; });
  return groups;
}

class ProfilingInterpreter : public exec::Interpreter {
 public:
  ProfilingInterpreter(const ir::GraphModule& gm, exec::Backend backend)
      : exec::Interpreter(gm, backend), gm_(gm) {}

  Expected<std::vector<exec::Value>> run(std::vector<exec::Value> inputs) override {
    auto start = std::chrono::steady_clock::now();
    auto result = exec::Interpreter::run(std::move(inputs));
    total_.push_back(seconds(start));
    return result;
  }

  struct Row {
    std::string op, name;
    double mean = 0, pct = 0;
    std::string type;  // a call_module's module type, a call_function's target
  };
  std::vector<Row> summary(bool sort) const {
    double mean_total = 0;
    for (double t : total_) mean_total += t / static_cast<double>(total_.size());
    std::vector<Row> rows;
    for (const ir::Node* node : order_) {
      const auto& times = runtimes_.at(node);
      double mean = 0;
      for (double t : times) mean += t / static_cast<double>(times.size());
      const ir::Module* module =
          node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
      rows.push_back({std::string(ir::opcodeName(node->op())), node->name(), mean,
                      mean_total > 0 ? mean / mean_total * 100 : 0,
                      module ? module->type() : node->target()});
    }
    if (sort)
      std::stable_sort(rows.begin(), rows.end(),
                       [](const Row& a, const Row& b) { return a.mean > b.mean; });
    return rows;
  }
  // Forgets the times so far (after warm-up runs, which plan kernels and reorder weights).
  void reset() {
    total_.clear();
    runtimes_.clear();
    order_.clear();
  }
  double meanTotal() const {
    double mean = 0;
    for (double t : total_) mean += t / static_cast<double>(total_.size());
    return mean;
  }

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    auto start = std::chrono::steady_clock::now();
    auto result = exec::Interpreter::runNode(node, std::move(inputs));
    auto [it, fresh] = runtimes_.try_emplace(&node);
    if (fresh) order_.push_back(&node);
    it->second.push_back(seconds(start));
    return result;
  }

 private:
  static double seconds(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  const ir::GraphModule& gm_;
  std::vector<double> total_;
  std::map<const ir::Node*, std::vector<double>> runtimes_;
  std::vector<const ir::Node*> order_;
};

struct ProfileFlags {
  std::string model;
  int runs = 10;
  int warmup = 1;
  bool sort = false;
  std::string group_by = "node";
  std::string unit = "s";
  std::string format = "text";
  ExecFlags exec;
};

int runProfile(const ProfileFlags& flags) {
  if (flags.runs < 1 || flags.warmup < 0)
    throw UsageError{"--runs must be at least 1 and --warmup at least 0"};
  std::string path = resolveModelPath(flags.model);
  exec::Backend backend = applyExecFlags(flags.exec);
  auto pipeline = executionPipeline(flags.exec, backend);
  onnx::TraceOptions options;
  applyRunShapes(options, flags.exec);
  for (const auto& request : pipeline) options.infer_shapes |= request.pass->needs_shapes;
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  std::string label = modelLabel(path);
  auto optimized = optimizeForExecution(*traced.value(), pipeline, label);
  if (!optimized) {
    printError(optimized.error());
    return kExitFailure;
  }
  keepHeapBlocks();
  ProfilingInterpreter interpreter(*traced.value(), backend);
  reportFallbacks(interpreter);
  auto inputs = runInputs(interpreter, *traced.value(), flags.exec, label);
  if (!inputs) {
    printError(inputs.error());
    return kExitFailure;
  }
  Progress progress("profiling", "runs", static_cast<size_t>(flags.warmup + flags.runs));
  for (int r = 0; r < flags.warmup + flags.runs; ++r) {
    progress.update(static_cast<size_t>(r));
    if (r == flags.warmup) interpreter.reset();
    auto outputs = interpreter.run(inputs.value());
    if (!outputs) {
      printError(label + ": " + outputs.error());
      return kExitFailure;
    }
  }
  auto rows = interpreter.summary(flags.sort);
  bool grouped = flags.group_by == "type";
  std::vector<Group> groups = grouped ? groupByType(rows) : std::vector<Group>{};
  if (flags.format == "json") {  // seconds, whatever --unit says: JSON is for programs
    nlohmann::json out = {{"runs", flags.runs}, {"mean_total_s", interpreter.meanTotal()}};
    if (grouped) {
      nlohmann::json types = nlohmann::json::array();
      for (const auto& group : groups)
        types.push_back({{"type", group.type},
                         {"nodes", group.nodes},
                         {"mean_s", group.mean},
                         {"pct", group.pct}});
      out["types"] = types;
    } else {
      nlohmann::json nodes = nlohmann::json::array();
      for (const auto& row : rows)
        nodes.push_back({{"op", row.op},
                         {"name", row.name},
                         {"type", row.type},
                         {"mean_s", row.mean},
                         {"pct", row.pct}});
      out["nodes"] = nodes;
    }
    printJson(out);
    return kExitOk;
  }
  double scale = flags.unit == "ms" ? 1e3 : 1;
  auto number = [](double value) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", value);
    return std::string(buf);
  };
  std::vector<std::vector<std::string>> cells;
  std::string text;
  if (grouped) {
    for (const auto& group : groups)
      cells.push_back(
          {group.type, std::to_string(group.nodes), number(group.mean * scale), number(group.pct)});
    text = table({"Type", "Nodes", "Total runtime (" + flags.unit + ")", "Pct total runtime"},
                 cells, {false, true, true, true});
  } else {
    for (const auto& row : rows)
      cells.push_back({row.op, row.name, number(row.mean * scale), number(row.pct)});
    text = table({"Op type", "Op", "Average runtime (" + flags.unit + ")", "Pct total runtime"},
                 cells, {false, false, true, true});
  }
  text += "\nTotal (mean of " + std::to_string(flags.runs) +
          " runs): " + number(interpreter.meanTotal() * scale) + " " + flags.unit + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  return kExitOk;
}

}  // namespace

Runner addProfileCommand(CLI::App& app) {
  auto flags = std::make_shared<ProfileFlags>();
  CLI::App* cmd = app.add_subcommand(
      "profile", "Time every node on the CPU interpreter (the seed's ProfilingInterpreter)");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("--runs", flags->runs, "runs to average (default 10)");
  cmd->add_option("--warmup", flags->warmup, "untimed runs first (default 1)");
  cmd->add_flag("--sort", flags->sort, "slowest nodes first");
  cmd->add_option("--group-by", flags->group_by,
                  "node (the seed's table, one row per node) or type (per module type or "
                  "function, summed, slowest first)")
      ->check(CLI::IsMember({"node", "type"}));
  cmd->add_option("--unit", flags->unit, "s (the seed's) or ms")->check(CLI::IsMember({"s", "ms"}));
  addExecFlags(*cmd, flags->exec);
  addOptimizeFlag(*cmd, flags->exec);
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return [cmd, flags]() { return cmd->parsed() ? runProfile(*flags) : -1; };
}

}  // namespace fxc::tools
