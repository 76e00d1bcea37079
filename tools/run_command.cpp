// fxc run [MODEL] [--input NAME=FILE.npy]... [--output-dir DIR] [--backend cpu|reference]
// [--save-inputs DIR] [--threads N] [--seed S] [--shape NAME=D0,D1,...]... [--batch N]
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <set>

#include "exec/cudnn/backend.h"
#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/output_file.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct RunFlags {
  std::string model;
  std::string output_dir;
  std::string save_inputs;  // DIR: the inputs used, as NAME.npy
  std::string format = "text";
  onnx::TraceOptions trace;  // --inline-functions, --no-recognize
  ExecFlags exec;
};

std::string safeFileName(const std::string& name) {
  std::string out = name;
  for (char& ch : out) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-')
      ch = '_';
  }
  return out;
}

// The model's inputs and outputs it declares float16: fxc computes them in float32 (each value
// one float16 can hold, where the model rounds to float16), and shows and writes them as float16.
std::set<std::string> float16Names(const ir::GraphModule& gm) {
  std::set<std::string> names;
  const auto* record = std::any_cast<onnx::ModelRecord>(&gm.source);
  if (!record || !record->proto) return names;
  for (const auto* list : {&record->proto->graph().input(), &record->proto->graph().output()}) {
    for (const auto& info : *list) {
      if (info.type().tensor_type().elem_type() == ::onnx::TensorProto::FLOAT16)
        names.insert(info.name());
    }
  }
  return names;
}

// The dtype a value is shown and written as: float16 for a float32 value the model declares so.
std::string_view shownDtype(const exec::Value& value, bool float16) {
  return float16 && value.isFloat() ? std::string_view("float16") : ir::dtypeName(value.dtype);
}

// One output for --format json: name, dtype, shape, and min/mean/max of its elements.
nlohmann::json summaryJson(const std::string& name, const exec::Value& value, bool float16) {
  nlohmann::json out = {
      {"name", name}, {"dtype", std::string(shownDtype(value, float16))}, {"shape", value.shape}};
  exec::ValueStats stats = exec::statsOf(value);
  if (stats.count == 0) return out;
  out["min"] = stats.min;
  out["mean"] = stats.mean;
  out["max"] = stats.max;
  return out;
}

// mkdir -p: the directory and its parents; an error names what stood in the way.
Expected<bool> makeDirectories(const std::string& flag, const std::string& path) {
  std::string partial;
  for (size_t at = 0; at <= path.size(); ++at) {
    if (at < path.size() && path[at] != '/') continue;
    partial = path.substr(0, at);
    if (partial.empty()) continue;
    struct stat info;
    if (::stat(partial.c_str(), &info) == 0) {
      if (!S_ISDIR(info.st_mode))
        return Error{flag + " " + path + ": " + partial + " is not a directory"};
      continue;
    }
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
      return Error{flag + " " + path + ": cannot create " + partial + ": " + std::strerror(errno)};
  }
  return true;
}

// Writes one DIR/NAME.npy per value, each atomically; a name that is no file name is changed
// (and a second "a_b" becomes "a_b_1"), which -v says. A name that is a file name keeps it: an
// output "a_b" is a_b.npy even after an output "a:b" (which then is a_b_1.npy; it took a_b.npy,
// and a script reading a_b.npy read the other output). The files take their names when `set`
// is committed. Returns the files, in order.
Expected<std::vector<std::string>> writeNpyFiles(OutputSet& set, const std::string& dir,
                                                 const std::vector<std::string>& names,
                                                 const std::vector<exec::Value>& values,
                                                 const std::set<std::string>& float16) {
  std::vector<std::string> files, stems(values.size());
  std::set<std::string> taken;
  for (size_t k = 0; k < values.size(); ++k) {  // the exact names first
    if (safeFileName(names[k]) == names[k] && taken.insert(names[k]).second) stems[k] = names[k];
  }
  for (size_t k = 0; k < values.size(); ++k) {  // then the changed ones and repeats
    if (!stems[k].empty()) continue;
    std::string stem = safeFileName(names[k]);
    for (int n = 1; !taken.insert(stem).second; ++n)
      stem = safeFileName(names[k]) + "_" + std::to_string(n);
    stems[k] = stem;
  }
  for (size_t k = 0; k < values.size(); ++k) {
    const std::string& name = names[k];
    const std::string& stem = stems[k];
    std::string file = dir + "/" + stem + ".npy";
    if (stem != name)
      spdlog::info("'{}' is written as {} (file names keep letters, digits, '.', '_', '-')", name,
                   file);
    auto written = set.add(file, exec::npyBytes(values[k], float16.count(name) > 0));
    if (!written) return Error{written.error()};
    files.push_back(file);
  }
  return files;
}

int runRun(const RunFlags& flags) {
  // The directories first: a run is not wasted on a directory that cannot be made.
  for (const auto& [flag, dir] :
       {std::pair<const char*, const std::string&>{"--output-dir", flags.output_dir},
        {"--save-inputs", flags.save_inputs}}) {
    if (dir.empty()) continue;
    auto made = makeDirectories(flag, dir);
    if (!made) {
      printError(made.error());
      return kExitFailure;
    }
  }
  std::string path = resolveModelPath(flags.model);
  exec::Backend backend = applyExecFlags(flags.exec);
  auto pipeline = executionPipeline(flags.exec, backend);
  onnx::TraceOptions options = flags.trace;
  applyRunShapes(options, flags.exec);
  for (const auto& request : pipeline) options.infer_shapes |= request.pass->needs_shapes;
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  auto optimized = optimizeForExecution(gm, pipeline, label);
  if (!optimized) {
    printError(optimized.error());
    return kExitFailure;
  }
  exec::Interpreter interpreter(gm, backend);
  reportFallbacks(interpreter);
  auto inputs = runInputs(interpreter, gm, flags.exec, label);
  if (!inputs) {
    printError(inputs.error());
    return kExitFailure;
  }
  std::set<std::string> float16 = float16Names(gm);  // inputs and outputs shown as float16
  // Every file (saved inputs, outputs) is written before any takes its name, and stdout says
  // nothing before they have: a run that fails leaves no output of its own behind.
  OutputSet files;
  std::vector<std::string> written;
  if (!flags.save_inputs.empty()) {
    std::vector<std::string> names;
    for (const ir::Node* node : interpreter.inputs())
      names.push_back(node->meta.value_name.empty() ? node->name() : node->meta.value_name);
    auto saved = writeNpyFiles(files, flags.save_inputs, names, inputs.value(), float16);
    if (!saved) {
      printError(saved.error());
      return kExitFailure;
    }
    written = saved.take();
  }
  // A reduced precision on the GPU reports its error against float32 on the same inputs.
  bool reduced = flags.exec.precision != "fp32" && interpreter.backend() == exec::Backend::kCudnn;
  std::vector<exec::Value> kept_inputs;
  if (reduced) kept_inputs = inputs.value();
  auto outputs = interpreter.run(inputs.take());
  if (!outputs) {
    printError(label + ": " + outputs.error());
    return kExitFailure;
  }
  if (reduced) {
    exec::cudnn::setPrecision(exec::cudnn::Precision::kFp32);
    auto exact = interpreter.run(std::move(kept_inputs));
    if (!exact) {
      printError(label + ": " + exact.error());
      return kExitFailure;
    }
    for (size_t k = 0; k < exact.value().size() && k < outputs.value().size(); ++k) {
      auto d = exec::compareValues(outputs.value()[k], exact.value()[k], 0, 0);
      spdlog::info("{} against fp32: output {}: max abs error {:.3g}, max rel error {:.3g}",
                   flags.exec.precision, k, d.max_abs, d.max_rel);
    }
  }
  std::vector<std::string> names = outputNames(gm);
  for (size_t k = names.size(); k < outputs.value().size(); ++k)
    names.push_back("output_" + std::to_string(k));
  std::vector<std::string> output_files;
  if (!flags.output_dir.empty()) {
    auto made = writeNpyFiles(files, flags.output_dir, names, outputs.value(), float16);
    if (!made) {
      printError(made.error());
      return kExitFailure;
    }
    output_files = made.take();
  }
  auto committed = files.commit();
  if (!committed) {
    printError(committed.error());
    return kExitFailure;
  }
  written.insert(written.end(), output_files.begin(), output_files.end());
  for (const std::string& file : written) spdlog::info("wrote {}", file);
  nlohmann::json report = nlohmann::json::array();
  for (size_t k = 0; k < outputs.value().size(); ++k) {
    const exec::Value& value = outputs.value()[k];
    bool half = float16.count(names[k]) > 0;
    if (flags.format == "json") {
      report.push_back(summaryJson(names[k], value, half));
      if (k < output_files.size()) report[k]["file"] = output_files[k];
    } else {
      std::printf("%s: %s\n", names[k].c_str(),
                  exec::summary(value, shownDtype(value, half)).c_str());
    }
  }
  if (flags.format == "json") printJson(nlohmann::json{{"outputs", report}});
  return kExitOk;
}

}  // namespace

Runner addRunCommand(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand("run", "Run a model on the CPU interpreter");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("--output-dir", flags->output_dir, "write one NAME.npy per output here");
  cmd->add_option("--save-inputs", flags->save_inputs,
                  "write the inputs used here, one NAME.npy per input (replay with --input)");
  cmd->add_option("--format", flags->format, "text or json (the outputs' summaries)")
      ->check(CLI::IsMember({"text", "json"}));
  addTraceFlags(*cmd, flags->trace);
  addExecFlags(*cmd, flags->exec);
  addOptimizeFlag(*cmd, flags->exec);
  return [cmd, flags]() { return cmd->parsed() ? runRun(*flags) : -1; };
}

}  // namespace fxc::tools
