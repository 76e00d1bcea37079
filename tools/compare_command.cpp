// fxc compare A.onnx B.onnx [--input NAME=FILE.npy]... [--atol X] [--rtol Y] [--format json]:
// `polygraphy run` for two files. Both models run on the same inputs (the files given, seeded
// random data for the rest, made for A and given to B by input name); every output of B is
// compared with A's of the same name, element by element: |b − a| ≤ atol + rtol·|a|. Per output:
// max abs and rel error, SQNR and cosine similarity of B against A. Exit 1 beyond tolerance.
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include "exec/quantize.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct CompareFlags {
  std::string a, b;
  double atol = 1e-5;
  double rtol = 1e-4;
  std::string format = "text";
  ExecFlags exec;
};

// The ONNX name of an input, as --input takes it.
std::string onnxName(const ir::Node& node) {
  return node.meta.value_name.empty() ? node.name() : node.meta.value_name;
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

struct Loaded {
  std::unique_ptr<ir::GraphModule> gm;
  std::unique_ptr<exec::Interpreter> interpreter;
  std::string label;
};

Expected<Loaded> load(const std::string& path, exec::Backend backend) {
  Loaded loaded;
  loaded.label = modelLabel(path);
  auto traced = loadGraphModule(path, {});
  if (!traced) return Error{traced.error()};
  loaded.gm = traced.take();
  loaded.interpreter = std::make_unique<exec::Interpreter>(*loaded.gm, backend);
  std::string missing;
  if (!loaded.interpreter->supported(missing))
    return Error{loaded.label + ": unsupported: node " + missing + " has no CPU kernel"};
  return loaded;
}

// Row of the report for one output pair.
struct Row {
  std::string name;
  std::string shape;
  exec::Difference difference;
  std::optional<exec::ErrorSums> sums;  // float outputs of equal shapes
  std::string problem;                  // shapes or dtypes that differ
};

std::string number(double value, const char* format = "%.3g") {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

int runCompare(const CompareFlags& flags) {
  if (flags.atol < 0 || flags.rtol < 0) throw UsageError{"--atol and --rtol must be >= 0"};
  if (flags.a == "-" && flags.b == "-") throw UsageError{"only one of the models can be stdin"};
  exec::Backend backend = applyExecFlags(flags.exec);
  auto a = load(flags.a, backend);
  if (!a) {
    printError(a.error());
    return kExitFailure;
  }
  auto b = load(flags.b, backend);
  if (!b) {
    printError(b.error());
    return kExitFailure;
  }
  // A's inputs, then B's in B's order by name.
  auto inputs = modelInputs(*a.value().gm, flags.exec);
  if (!inputs) {
    printError(a.value().label + ": " + inputs.error());
    return kExitFailure;
  }
  std::vector<const ir::Node*> a_inputs = a.value().interpreter->inputs();
  std::vector<const ir::Node*> b_inputs = b.value().interpreter->inputs();
  std::vector<std::string> a_names, b_names;
  for (const ir::Node* node : a_inputs) a_names.push_back(onnxName(*node));
  for (const ir::Node* node : b_inputs) b_names.push_back(onnxName(*node));
  std::vector<exec::Value> b_values;
  for (const std::string& name : b_names) {
    size_t k = 0;
    while (k < a_names.size() && a_names[k] != name) ++k;
    if (k == a_names.size() || a_names.size() != b_names.size()) {
      printError("the models' inputs differ: " + a.value().label + " has " + join(a_names) + ", " +
                 b.value().label + " has " + join(b_names));
      return kExitFailure;
    }
    b_values.push_back(inputs.value()[k]);
  }
  auto a_out = a.value().interpreter->run(inputs.take());
  if (!a_out) {
    printError(a.value().label + ": " + a_out.error());
    return kExitFailure;
  }
  auto b_out = b.value().interpreter->run(std::move(b_values));
  if (!b_out) {
    printError(b.value().label + ": " + b_out.error());
    return kExitFailure;
  }
  // Outputs by name; by position only when the names differ and the counts agree (said at -v).
  std::vector<std::string> a_outs = outputNames(*a.value().gm);
  std::vector<std::string> b_outs = outputNames(*b.value().gm);
  std::map<std::string, size_t> b_index;
  for (size_t k = 0; k < b_outs.size(); ++k) b_index.emplace(b_outs[k], k);
  bool by_name = a_outs.size() == b_outs.size();
  for (const auto& name : a_outs) by_name = by_name && b_index.count(name);
  if (!by_name) {
    if (a_outs.size() != b_outs.size()) {
      printError("the models' outputs differ: " + a.value().label + " has " + join(a_outs) + ", " +
                 b.value().label + " has " + join(b_outs));
      return kExitFailure;
    }
    spdlog::info("the output names differ ({} / {}): compared by position", join(a_outs),
                 join(b_outs));
  }
  std::vector<Row> rows;
  bool all_within = true;
  for (size_t k = 0; k < a_outs.size(); ++k) {
    size_t j = by_name ? b_index.at(a_outs[k]) : k;
    const exec::Value& want = a_out.value()[k];
    const exec::Value& got = b_out.value()[j];
    Row row;
    row.name = by_name ? a_outs[k] : a_outs[k] + " / " + b_outs[j];
    row.shape = exec::shapeText(want.shape);
    if (got.shape != want.shape) {
      row.problem = "shape " + exec::shapeText(got.shape) + " vs " + row.shape;
    } else if (got.dtype != want.dtype) {
      row.problem = "dtype " + std::string(ir::dtypeName(got.dtype)) + " vs " +
                    std::string(ir::dtypeName(want.dtype));
    }
    if (!row.problem.empty()) {
      row.difference.within = false;
      all_within = false;
      rows.push_back(std::move(row));
      continue;
    }
    row.difference = exec::compareValues(got, want, flags.atol, flags.rtol);
    if (want.isFloat()) {
      exec::ErrorSums sums;
      sums.add(want.f.data(), got.f.data(), want.f.size());
      row.sums = sums;
    }
    all_within = all_within && row.difference.within;
    rows.push_back(std::move(row));
  }

  if (flags.format == "json") {
    nlohmann::json outputs = nlohmann::json::array();
    auto finiteOrNull = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nullptr; };
    for (const Row& row : rows) {
      nlohmann::json item = {{"name", row.name}, {"within", row.difference.within}};
      if (!row.problem.empty()) {
        item["problem"] = row.problem;
      } else {
        item["max_abs_error"] = finiteOrNull(row.difference.max_abs);
        item["max_rel_error"] = finiteOrNull(row.difference.max_rel);
        if (row.sums) {
          item["sqnr_db"] = finiteOrNull(row.sums->sqnrDb());
          item["cosine"] = finiteOrNull(row.sums->cosine());
        }
      }
      outputs.push_back(item);
    }
    printJson(nlohmann::json{{"a", a.value().label},
                             {"b", b.value().label},
                             {"atol", flags.atol},
                             {"rtol", flags.rtol},
                             {"within", all_within},
                             {"outputs", outputs}});
  } else {
    std::vector<std::vector<std::string>> cells;
    for (const Row& row : rows) {
      if (!row.problem.empty()) {
        cells.push_back({row.name, row.shape, "-", "-", "-", "-", "FAIL: " + row.problem});
        continue;
      }
      cells.push_back({row.name, row.shape, number(row.difference.max_abs),
                       number(row.difference.max_rel),
                       row.sums ? number(row.sums->sqnrDb(), "%.1f") : "-",
                       row.sums ? number(row.sums->cosine(), "%.7f") : "-",
                       row.difference.within ? "ok" : "FAIL"});
    }
    std::string text = table(
        {"output", "shape", "max abs error", "max rel error", "SQNR (dB)", "cosine", "result"},
        cells, {false, false, true, true, true, true, false});
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::printf("B against A: every element within atol %g + rtol %g x |A|: %s\n", flags.atol,
                flags.rtol, all_within ? "yes" : "no");
  }
  if (!all_within) {
    for (const Row& row : rows) {
      if (row.difference.within) continue;
      printError(b.value().label + " differs from " + a.value().label + ": output " + row.name +
                 (row.problem.empty() ? ": max abs error " + number(row.difference.max_abs) +
                                            " beyond atol + rtol x |A|"
                                      : ": " + row.problem));
      break;
    }
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

Runner addCompareCommand(CLI::App& app) {
  auto flags = std::make_shared<CompareFlags>();
  CLI::App* cmd = app.add_subcommand(
      "compare", "Run two models on the same inputs and compare their outputs element by element");
  cmd->add_option("a", flags->a, "the reference model (ONNX file, or - for stdin)")->required();
  cmd->add_option("b", flags->b, "the model compared with it")->required();
  cmd->add_option("--atol", flags->atol, "absolute tolerance (default 1e-5)")
      ->check(kFiniteNumber)
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--rtol", flags->rtol, "tolerance relative to |A| (default 1e-4)")
      ->check(kFiniteNumber)
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--format", flags->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  addExecFlags(*cmd, flags->exec);
  return [cmd, flags]() { return cmd->parsed() ? runCompare(*flags) : -1; };
}

}  // namespace fxc::tools
