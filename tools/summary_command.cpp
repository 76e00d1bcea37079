// fxc summary [MODEL] [--format json]: what torchinfo tells about a model, from one run of it on
// seeded inputs: per call_module row its output shape, parameters and multiply-accumulates; the
// totals (parameters, weight bytes, MACs), the activation memory at its peak (the interpreter
// frees each value after its last use) and how many nodes of each kind.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <unordered_map>

#include "exec/interpreter.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct SummaryFlags {
  std::string model;
  std::string format = "text";
  onnx::TraceOptions trace;
  ExecFlags exec;
};

int64_t product(const std::vector<int64_t>& dims, size_t from = 0) {
  int64_t n = 1;
  for (size_t d = from; d < dims.size(); ++d) n *= dims[d];
  return n;
}

// Multiply-accumulates of one node, from the shapes it saw: convolutions (output elements × the
// weight's fan-in), transposed convolutions (input elements × the weight's fan-out), Gemm/Linear
// and MatMul (output elements × the reduced dimension). Other ops: 0, as torchinfo counts.
int64_t macs(const std::string& kind, const std::vector<std::vector<int64_t>>& in,
             const std::vector<int64_t>& out, const std::vector<int64_t>& weight, bool trans_a) {
  bool conv = kind.find("Conv") != std::string::npos;
  if (conv && kind.find("Transpose") != std::string::npos)
    return weight.size() > 1 && !in.empty() ? product(in[0]) * product(weight, 1) : 0;
  if (conv) return weight.size() > 1 ? product(out) * product(weight, 1) : 0;
  if (kind == "Linear" || kind == "onnx.Gemm" || kind == "operator.matmul") {
    if (in.empty() || in[0].empty()) return 0;
    int64_t k = trans_a && in[0].size() == 2 ? in[0][0] : in[0].back();
    return product(out) * k;
  }
  return 0;
}

// Records what each node saw while the model runs once.
class Recorder : public exec::Interpreter {
 public:
  using exec::Interpreter::Interpreter;
  struct Seen {
    std::vector<std::vector<int64_t>> inputs;
    std::vector<int64_t> output;
    int64_t output_bytes = 0;
  };
  std::unordered_map<const ir::Node*, Seen> seen;

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    // The shapes first: the kernel may take (move out) an input it reads last.
    Seen& s = seen[&node];
    for (const exec::Value* v : inputs) s.inputs.push_back(v ? v->shape : std::vector<int64_t>{});
    auto out = exec::Interpreter::runNode(node, inputs);
    if (!out.empty()) s.output = out[0].shape;
    for (const auto& v : out)
      s.output_bytes += product(v.shape) * static_cast<int64_t>(ir::dtypeSize(v.dtype));
    return out;
  }
};

std::string withCommas(int64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return out;
}

// 448 B, 3.84 kB, 46.80 MB, 1.20 GB.
std::string sizeText(int64_t bytes) {
  char text[32];
  double v = static_cast<double>(bytes);
  if (bytes < 1000)
    std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
  else if (bytes < 1000000)
    std::snprintf(text, sizeof text, "%.2f kB", v / 1e3);
  else if (bytes < 1000000000)
    std::snprintf(text, sizeof text, "%.2f MB", v / 1e6);
  else
    std::snprintf(text, sizeof text, "%.2f GB", v / 1e9);
  return text;
}

int runSummary(const SummaryFlags& flags) {
  std::string path = resolveModelPath(flags.model);
  auto traced = loadGraphModule(path, flags.trace);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  const ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  Recorder recorder(gm, applyExecFlags(flags.exec));
  auto inputs = runInputs(recorder, gm, flags.exec, label);
  if (!inputs) {
    printError(inputs.error());
    return kExitFailure;
  }
  // Each value's bytes: the inputs as given, every other node's outputs as the run saw them.
  std::unordered_map<const ir::Node*, int64_t> bytes;
  {
    size_t k = 0;
    for (const ir::Node* node : gm.graph()) {
      if (node->op() != ir::Opcode::kPlaceholder || k >= inputs.value().size()) continue;
      const exec::Value& v = inputs.value()[k++];
      bytes[node] = product(v.shape) * static_cast<int64_t>(ir::dtypeSize(v.dtype));
    }
  }
  auto ran = recorder.run(inputs.take());
  if (!ran) {
    printError(label + ": " + ran.error());
    return kExitFailure;
  }

  // Parameters: the modules' tensors but BatchNorm's running statistics (buffers, as torchinfo
  // leaves them out); weight bytes: every tensor.
  int64_t parameters = 0, weight_bytes = 0;
  std::function<void(const ir::Module&)> walk = [&](const ir::Module& m) {
    for (const auto& [name, t] : m.tensors()) {
      weight_bytes += static_cast<int64_t>(t->byteSize());
      if (name != "running_mean" && name != "running_var") parameters += t->numel();
    }
    for (const auto& [name, child] : m.children()) walk(*child);
  };
  walk(gm.root());

  for (const auto& [node, seen] : recorder.seen) bytes[node] = seen.output_bytes;
  // Activation memory: each value lives from its node to its last user in graph order, as the
  // interpreter frees it; a value nothing reads lives to the end.
  std::unordered_map<const ir::Node*, size_t> position;
  size_t index = 0;
  for (const ir::Node* node : gm.graph()) position[node] = index++;
  std::vector<int64_t> freed(index + 1, 0);
  int64_t live = 0, peak = 0;
  std::map<std::string, int> kinds;
  std::vector<std::vector<std::string>> rows;
  nlohmann::json modules = nlohmann::json::array();
  int64_t total_macs = 0;
  for (const ir::Node* node : gm.graph()) {
    size_t at = position[node];
    auto it = recorder.seen.find(node);
    if (auto b = bytes.find(node); b != bytes.end()) {
      live += b->second;
      size_t last = node->users().empty() ? index : at;
      for (const ir::Node* user : node->users()) last = std::max(last, position[user]);
      freed[last] += b->second;
    }
    peak = std::max(peak, live);
    live -= freed[at];
    bool module = node->op() == ir::Opcode::kCallModule;
    if (node->op() != ir::Opcode::kCallFunction && !module) continue;
    const ir::Module* m = module ? gm.findModule(node->target()) : nullptr;
    std::string kind = m ? m->type() : node->target();
    ++kinds[kind];
    if (it == recorder.seen.end()) continue;
    std::vector<int64_t> weight;
    if (m && m->tensor("weight")) weight = m->tensor("weight")->dims;
    if (!m && it->second.inputs.size() > 1 && (kind == "onnx.Conv" || kind == "onnx.ConvTranspose"))
      weight = it->second.inputs[1];
    const ir::Argument* trans_a = node->kwarg("transA");
    int64_t node_macs =
        macs(kind, it->second.inputs, it->second.output, weight, trans_a && trans_a->toInt() != 0);
    total_macs += node_macs;
    if (!m) continue;
    int64_t own = 0;
    for (const auto& [name, t] : m->tensors()) {
      if (name != "running_mean" && name != "running_var") own += t->numel();
    }
    rows.push_back({node->name(), kind, exec::shapeText(it->second.output), withCommas(own),
                    withCommas(node_macs)});
    modules.push_back({{"name", node->name()},
                       {"type", kind},
                       {"output_shape", it->second.output},
                       {"parameters", own},
                       {"macs", node_macs}});
  }
  if (flags.format == "json") {
    nlohmann::json out = {
        {"modules", modules}, {"parameters", parameters},      {"weight_bytes", weight_bytes},
        {"macs", total_macs}, {"peak_activation_bytes", peak}, {"ops", kinds}};
    printJson(out);
    return kExitOk;
  }
  std::cout << table({"name", "type", "output shape", "params", "MACs"}, rows,
                     {false, false, false, true, true});
  std::string ops;
  for (const auto& [kind, count] : kinds)
    ops += (ops.empty() ? "" : ", ") + kind + " " + std::to_string(count);
  char giga[32];
  std::snprintf(giga, sizeof giga, "%.3f G", static_cast<double>(total_macs) / 1e9);
  std::printf(
      "\nparameters: %s (BatchNorm running statistics excluded)\nweight bytes: %s\n"
      "MACs: %s (%s; convolutions, Linear/Gemm, MatMul)\npeak activation memory: %s (inputs "
      "included; each value freed after its last use)\nops: %s\n",
      withCommas(parameters).c_str(), sizeText(weight_bytes).c_str(),
      withCommas(total_macs).c_str(), giga, sizeText(peak).c_str(), ops.c_str());
  return kExitOk;
}

}  // namespace

Runner addSummaryCommand(CLI::App& app) {
  auto flags = std::make_shared<SummaryFlags>();
  CLI::App* cmd = app.add_subcommand(
      "summary", "Parameters, weight bytes, MACs per module and in total, peak activation memory");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addTraceFlags(*cmd, flags->trace);
  addExecFlags(*cmd, flags->exec);
  return [cmd, flags]() { return cmd->parsed() ? runSummary(*flags) : -1; };
}

}  // namespace fxc::tools
