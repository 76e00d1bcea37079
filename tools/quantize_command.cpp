// fxc quantize [MODEL] --preset trt|ort-cpu --calibration DIR|random:N -o OUT.onnx: post-training
// quantization to the QDQ form deployment runtimes read (TensorRT, ONNX Runtime), built from the
// passes conv-bn → quant-observe → calibration → quant-convert; --qat keeps float weights behind
// fake-quantize for training; --convert folds the weight Q/DQ of a model back from training.
// --report (or --format json): each quantized tensor's scale, zero point and SQNR, and each
// output's SQNR, cosine similarity and max abs error against the float model on held-out inputs.
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "exec/quantize.h"
#include "ir/lint.h"
#include "ir/printers.h"
#include "ir/progress.h"
#include "onnx/export.h"
#include "onnx/load.h"
#include "passes/quant.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct QuantizeFlags {
  std::string model;
  std::string preset = "trt";
  std::string calibration = "random:32";
  std::string method = "minmax";
  double percentile = 99.99;
  int64_t bins = 2048;
  bool per_tensor = false;
  std::vector<std::string> exclude;
  std::vector<std::string> op_types;
  bool qat = false;
  std::string codegen;  // --codegen DIR: the QAT model as a PyTorch package
  bool force = false;
  bool convert = false;
  bool report = false;
  bool bench = false;
  int holdout = 8;
  double min_sqnr = 10;
  std::string format = "text";
  ViewFlags views;
  OutputFlags output;
  ExecFlags exec;
};

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

passes::PassRequest request(const std::string& spec) {
  auto parsed = passes::parsePassSpec(spec);
  if (!parsed) throw UsageError{parsed.error()};
  return parsed.take();
}

// One quantized tensor of the report: what it is and how far quantization moves it.
struct Quantized {
  std::string name, kind;
  std::shared_ptr<ir::Tensor> scale, zero_point;  // shown as text (describe) or JSON (valuesJson)
  exec::ErrorSums error;
};

// A scale or zero point tensor in JSON: its number, or its numbers per channel.
nlohmann::json valuesJson(const ir::Tensor& t) {
  exec::Value v = exec::fromTensor(t);
  nlohmann::json values = nlohmann::json::array();
  if (v.isFloat()) {
    for (float x : v.f) values.push_back(x);
  } else {
    for (int64_t x : v.i) values.push_back(x);
  }
  return values.size() == 1 ? values[0] : values;
}

std::string number(double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string describe(const ir::Tensor& t) {
  exec::Value v = exec::fromTensor(t);
  if (v.isFloat()) {
    if (v.f.size() == 1) return number(v.f[0]);
    auto [lo, hi] = std::minmax_element(v.f.begin(), v.f.end());
    return "per-channel x" + std::to_string(v.f.size()) + " [" + number(*lo) + ", " + number(*hi) +
           "]";
  }
  if (v.i.size() == 1) return std::to_string(v.i[0]);
  auto [lo, hi] = std::minmax_element(v.i.begin(), v.i.end());
  return *lo == *hi ? std::to_string(*lo)
                    : "[" + std::to_string(*lo) + ", " + std::to_string(*hi) + "]";
}

// Runs the quantized graph, measuring each fake-quantize's error on what flows through it.
class NoiseMeter : public exec::Interpreter {
 public:
  NoiseMeter(const ir::GraphModule& gm, std::map<const ir::Node*, Quantized>& measured)
      : exec::Interpreter(gm), measured_(measured) {}

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    auto out = exec::Interpreter::runNode(node, inputs);
    auto it = measured_.find(&node);
    if (it != measured_.end()) {  // fake-quantize: plain float in and out
      const auto& x = inputs.at(0)->f;
      it->second.error.add(x.data(), out.at(0).f.data(), std::min(x.size(), out[0].f.size()));
    }
    return out;
  }

 private:
  std::map<const ir::Node*, Quantized>& measured_;
};

std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The report on a quantized graph: each quantized tensor (activations through their
// fake-quantize on the held-out runs; constants against the float tensor they came from) and
// each output against the float model's `reference` outputs. Adds "tensors" and "outputs" to
// `report`; `text` gets the same for people.
Expected<bool> measureReport(const ir::GraphModule& gm,
                             const std::vector<std::vector<exec::Value>>& holdout,
                             const std::vector<std::vector<exec::Value>>& reference,
                             nlohmann::json& report, std::string& text) {
  std::map<const ir::Node*, Quantized> activations;
  std::vector<Quantized> constants;
  for (const ir::Node* node : gm.graph()) {
    bool fake = node->target() == "torch.fake_quantize_per_tensor_affine" ||
                node->target() == "torch.fake_quantize_per_channel_affine";
    bool dq = node->target() == "onnx.DequantizeLinear";
    if (node->op() != ir::Opcode::kCallFunction || (!fake && !dq)) continue;
    const ir::Node* source = node->args().at(0).toNode();
    auto scale = gm.findTensor(node->args().at(1).toNode()->target());
    auto zp = gm.findTensor(node->args().at(2).toNode()->target());
    bool constant = source->op() == ir::Opcode::kGetAttr;
    Quantized q{constant ? source->target() : source->name(),
                constant ? "weight" : "activation",
                scale,
                zp,
                {}};
    if (fake) {
      activations[node] = q;
      continue;
    }
    // An int8 constant "X_quantized" made by quant-convert from the float tensor "X".
    if (!constant) continue;
    std::string name = source->target();
    std::string original = name.substr(0, name.rfind("_quantized"));
    auto float_tensor = gm.findTensor(original);
    if (!float_tensor) continue;
    q.name = original;
    if (original.size() > 5 && original.compare(original.size() - 5, 5, ".bias") == 0)
      q.kind = "bias";
    exec::Value ints = exec::fromTensor(*gm.findTensor(name));
    exec::Value s = exec::fromTensor(*scale), z = exec::fromTensor(*zp);
    std::vector<float> w = passes::floatsOf(*float_tensor), back(w.size());
    const ir::Argument* axis = node->kwarg("axis");
    exec::Slices slices(float_tensor->dims, s.f.size() > 1 ? (axis ? axis->toInt() : 1) : -1);
    for (size_t k = 0; k < w.size(); ++k)
      back[k] = exec::dequantizeValue(ints.i[k], {s.f[slices.of(k)], z.i[slices.of(k)]});
    q.error.add(w.data(), back.data(), w.size());
    constants.push_back(q);
  }
  NoiseMeter meter(gm, activations);
  std::vector<exec::ErrorSums> outputs;
  Progress progress("measuring the quantized model", "inputs", holdout.size());
  for (size_t k = 0; k < holdout.size(); ++k) {
    progress.update(k);
    auto got = meter.run(holdout[k]);
    if (!got) return Error{got.error()};
    outputs.resize(got.value().size());
    for (size_t o = 0; o < outputs.size(); ++o) {
      const auto& a = reference[k][o].f;
      const auto& b = got.value()[o].f;
      outputs[o].add(a.data(), b.data(), std::min(a.size(), b.size()));
    }
  }
  std::vector<Quantized> rows;
  for (const ir::Node* node : gm.graph()) {
    auto it = activations.find(node);
    if (it != activations.end()) rows.push_back(it->second);
  }
  rows.insert(rows.end(), constants.begin(), constants.end());
  nlohmann::json tensors = nlohmann::json::array();
  std::vector<std::vector<std::string>> cells;
  for (const auto& q : rows) {
    auto db = finite(q.error.sqnrDb());
    tensors.push_back({{"tensor", q.name},
                       {"kind", q.kind},
                       {"scale", valuesJson(*q.scale)},
                       {"zero_point", valuesJson(*q.zero_point)},
                       {"sqnr_db", db ? nlohmann::json(*db) : nlohmann::json(nullptr)}});
    cells.push_back({q.name, q.kind, describe(*q.scale), describe(*q.zero_point),
                     db ? number(std::round(*db * 100) / 100) : "inf"});
  }
  text = table({"tensor", "kind", "scale", "zero point", "SQNR (dB)"}, cells,
               {false, false, false, false, true}) +
         "\n";
  nlohmann::json out = nlohmann::json::array();
  std::vector<std::string> names = outputNames(gm);
  for (size_t o = 0; o < outputs.size(); ++o) {
    const exec::ErrorSums& e = outputs[o];
    auto db = finite(e.sqnrDb());
    out.push_back({{"output", o < names.size() ? names[o] : std::to_string(o)},
                   {"sqnr_db", db ? nlohmann::json(*db) : nlohmann::json(nullptr)},
                   {"cosine", e.cosine()},
                   {"max_abs_error", e.max_abs}});
    char line[200];
    std::snprintf(line, sizeof line,
                  "output %zu: SQNR %.2f dB  cosine %.6f  max abs error %.4g  (%zu held-out "
                  "inputs)\n",
                  o, e.sqnrDb(), e.cosine(), e.max_abs, holdout.size());
    text += line;
  }
  report["tensors"] = tensors;
  report["outputs"] = out;
  return true;
}

// The quantized graph as a written file holds it: its serialized bytes...
Expected<std::shared_ptr<std::string>> writtenBytes(const ir::GraphModule& gm) {
  auto exported = onnx::exportModel(gm);
  if (!exported) return Error{"export: " + exported.error()};
  exported.value().materialize();
  auto bytes = std::make_shared<std::string>();
  if (!exported.value().proto->SerializeToString(bytes.get()))
    return Error{"the quantized model does not serialize"};
  return bytes;
}

// ... traced again with shapes: what `fxc run` reads back, with the run's --shape and --batch.
Expected<std::unique_ptr<ir::GraphModule>> asWritten(const std::shared_ptr<std::string>& bytes,
                                                     const ExecFlags& flags) {
  auto loaded = onnx::parseModel(bytes->data(), bytes->size(), ".", bytes);
  if (!loaded) return Error{"the quantized model does not load: " + loaded.error()};
  onnx::TraceOptions options;
  options.infer_shapes = true;
  applyRunShapes(options, flags);
  auto traced = onnx::trace(loaded.take(), options);
  if (!traced) return Error{"the quantized model does not trace: " + traced.error()};
  std::string problem = ir::lintGraph(traced.value()->graph(), traced.value().get());
  if (!problem.empty()) return Error{"the quantized model fails lint: " + problem};
  return traced;
}

// The median of `runs` timed runs (after two untimed ones), in ms.
Expected<double> medianMs(exec::Interpreter& interpreter, const std::vector<exec::Value>& inputs,
                          int runs) {
  std::vector<double> ms;
  for (int r = 0; r < runs + 2; ++r) {
    std::vector<exec::Value> fed = inputs;  // the copy run() takes, made before the clock starts
    auto start = std::chrono::steady_clock::now();
    auto outputs = interpreter.run(std::move(fed));
    if (!outputs) return Error{outputs.error()};
    std::chrono::duration<double, std::milli> took = std::chrono::steady_clock::now() - start;
    if (r >= 2) ms.push_back(took.count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// One way of running the model for the integer-run report and --bench.
struct Variant {
  std::string name;
  std::unique_ptr<ir::GraphModule> gm;
  std::vector<exec::ErrorSums> error;  // per output, against the float model
  double ms = 0;
  std::vector<std::vector<exec::Value>> outputs;  // per held-out input
};

// The quantized model run as written (its Q/DQ ops in float: the simulation the report's SQNR
// above measures) and as `fxc run` runs it (the execution pipeline: quant-lower's integer
// kernels): each output's SQNR, cosine and max error against the float model; with `bench`, the
// float model's (after the pipeline too) and both variants' median times on the first held-out
// input (`bench_runs` > 0). Adds "integer" (and "bench") to `report`.
Expected<bool> measureIntegerRun(const ir::GraphModule& gm,
                                 std::unique_ptr<ir::GraphModule> float_gm, exec::Backend backend,
                                 const ExecFlags& exec_flags,
                                 const std::vector<std::vector<exec::Value>>& holdout,
                                 const std::vector<std::vector<exec::Value>>& reference,
                                 const std::string& label, int bench_runs, nlohmann::json& report,
                                 std::string& text) {
  std::vector<Variant> variants;
  if (float_gm) variants.push_back({"float32", std::move(float_gm), {}, 0, {}});
  auto bytes = writtenBytes(gm);  // exported once, traced once per variant
  if (!bytes) return Error{bytes.error()};
  for (const char* name : {"int8 (Q/DQ as written)", "int8 (integer kernels)"}) {
    auto written = asWritten(bytes.value(), exec_flags);
    if (!written) return Error{written.error()};
    variants.push_back({name, written.take(), {}, 0, {}});
  }
  ExecFlags as_written = exec_flags;
  as_written.optimize = 0;
  nlohmann::json lowered = nlohmann::json::object();
  for (Variant& v : variants) {
    bool integer = v.name == "int8 (integer kernels)";
    auto pipeline =
        executionPipeline(v.name == "int8 (Q/DQ as written)" ? as_written : exec_flags, backend);
    auto done = runPasses(*v.gm, pipeline, label, nullptr, /*quiet=*/true);
    if (!done) return Error{done.error()};
    if (integer) {
      for (const auto& pass : done.value()) {
        if (pass["pass"] == "quant-lower") lowered = pass["counts"];
      }
    }
    exec::Interpreter interpreter(*v.gm, backend);
    for (size_t k = 0; k < holdout.size(); ++k) {
      auto got = interpreter.run(holdout[k]);
      if (!got) return Error{v.name + ": " + got.error()};
      v.error.resize(got.value().size());
      for (size_t o = 0; o < v.error.size() && o < reference[k].size(); ++o) {
        const auto& a = reference[k][o];
        const auto& b = got.value()[o];
        if (a.isFloat() && b.isFloat() && a.f.size() == b.f.size())
          v.error[o].add(a.f.data(), b.f.data(), a.f.size());
      }
      v.outputs.push_back(got.take());
    }
    if (bench_runs > 0) {
      auto ms = medianMs(interpreter, holdout[0], bench_runs);
      if (!ms) return Error{v.name + ": " + ms.error()};
      v.ms = ms.value();
    }
  }
  const Variant& integer = variants.back();
  const Variant& as_written_run = variants[variants.size() - 2];
  // The integer run against the Q/DQ model run in float (what the lowering must keep).
  std::vector<exec::ErrorSums> against_qdq(integer.error.size());
  for (size_t k = 0; k < integer.outputs.size(); ++k) {
    for (size_t o = 0; o < against_qdq.size(); ++o) {
      const auto& a = as_written_run.outputs[k].at(o);
      const auto& b = integer.outputs[k].at(o);
      if (a.isFloat() && b.isFloat() && a.f.size() == b.f.size())
        against_qdq[o].add(a.f.data(), b.f.data(), a.f.size());
    }
  }
  nlohmann::json outputs = nlohmann::json::array();
  std::string lowered_text;
  for (const auto& [what, n] : lowered.items())
    lowered_text +=
        (lowered_text.empty() ? "" : ", ") + what + " " + std::to_string(n.get<int64_t>());
  for (size_t o = 0; o < integer.error.size(); ++o) {
    const exec::ErrorSums& e = integer.error[o];
    auto db = finite(e.sqnrDb());
    auto qdq_db = finite(against_qdq[o].sqnrDb());
    outputs.push_back(
        {{"sqnr_db", db ? nlohmann::json(*db) : nlohmann::json(nullptr)},
         {"cosine", e.cosine()},
         {"max_abs_error", e.max_abs},
         {"sqnr_against_qdq_db", qdq_db ? nlohmann::json(*qdq_db) : nlohmann::json(nullptr)}});
    char line[240];
    std::snprintf(line, sizeof line,
                  "integer run (quant-lower: %s): output %zu: SQNR %.2f dB  cosine %.6f  max abs "
                  "error %.4g; against the Q/DQ model run in float: SQNR %.2f dB\n",
                  lowered_text.empty() ? "nothing" : lowered_text.c_str(), o, e.sqnrDb(),
                  e.cosine(), e.max_abs, against_qdq[o].sqnrDb());
    text += line;
  }
  report["integer"] = {{"lowered", lowered}, {"outputs", outputs}};
  if (bench_runs <= 0) return true;
  nlohmann::json rows = nlohmann::json::array();
  std::vector<std::vector<std::string>> cells;
  for (const Variant& v : variants) {
    auto db = v.error.empty() ? std::optional<double>() : finite(v.error[0].sqnrDb());
    double cosine = v.error.empty() ? 1.0 : v.error[0].cosine();
    rows.push_back({{"model", v.name},
                    {"median_ms", v.ms},
                    {"sqnr_db", db ? nlohmann::json(*db) : nlohmann::json(nullptr)},
                    {"cosine", cosine}});
    char ms[32], sqnr[32], cos[32];
    std::snprintf(ms, sizeof ms, "%.3f", v.ms);
    std::snprintf(sqnr, sizeof sqnr, "%.2f", db ? *db : INFINITY);
    std::snprintf(cos, sizeof cos, "%.6f", cosine);
    cells.push_back({v.name, ms, sqnr, cos});
  }
  report["bench"] = rows;
  text +=
      "\n" + table({"model", "median ms", "SQNR (dB)", "cosine"}, cells, {false, true, true, true});
  return true;
}

int runQuantize(const QuantizeFlags& flags) {
  if (flags.convert && flags.qat) throw UsageError{"--convert and --qat do not go together"};
  if (!flags.codegen.empty() && !flags.qat)
    throw UsageError{"--codegen writes the QAT model: give --qat"};
  if (flags.holdout < 1) throw UsageError{"--holdout must be at least 1"};
  if (flags.calibration.rfind("random:", 0) == 0) {
    const std::string count = flags.calibration.substr(7);
    if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos ||
        count.size() > 7 || std::stol(count) < 1 || std::stol(count) > 1000000)
      throw UsageError{"--calibration " + flags.calibration +
                       ": expected random:N with N from 1 to 1000000, a directory or a .npy file"};
  }
  std::string path = resolveModelPath(flags.model);
  bool json = flags.format == "json";
  validateOutputFlags(flags.output, path, flags.views.any() || json || flags.report || flags.bench,
                      flags.views.svg);
  exec::Backend backend = applyExecFlags(flags.exec);
  onnx::TraceOptions options;
  options.infer_shapes = true;  // integer values (shape arithmetic) are never quantized
  // --bench: a second copy of the float model, to time (run after the execution pipeline: with
  // the run's shapes, unlike the model quantized and written).
  std::unique_ptr<ir::GraphModule> float_copy;
  onnx::TraceOptions run_options = options;
  applyRunShapes(run_options, flags.exec);
  auto traced = loadGraphModule(path, options, flags.bench ? &float_copy : nullptr, &run_options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
  if (flags.bench && flags.convert)
    throw UsageError{"--bench needs the float model, not --convert"};
  auto fail = [&](const std::string& message) {
    printError(label + ": " + message);
    return kExitFailure;
  };
  auto failed = [&](const std::string& error) {  // already names the model
    printError(error);
    return kExitFailure;
  };
  if (gm.opset > 0 && gm.opset < 13)
    return fail("quantizing needs opset 13 or later (per-channel QuantizeLinear); the model has " +
                std::to_string(gm.opset));

  nlohmann::json report = {{"preset", flags.preset}};
  // The float model's outputs on held-out inputs (seeds no calibration sample uses): what the
  // report measures, and what the written model must still compute within --min-sqnr.
  std::vector<std::vector<exec::Value>> holdout;
  std::vector<std::vector<exec::Value>> reference;
  if (flags.convert) {
    auto done = runPasses(gm, {request("quant-fold-weights")}, label, nullptr);
    if (!done) return failed(done.error());
    report["passes"] = done.value();
  } else {
    // What can fail on the user's input fails before any pass runs: the calibration data, the
    // excluded names, whether anything is quantizable at all.
    auto samples = exec::calibrationInputs(gm, flags.calibration, flags.exec.seed,
                                           parseShapes(flags.exec.shapes), flags.exec.batch);
    if (!samples) return fail(samples.error());
    bool measure = flags.report || json || flags.bench;
    if (measure || wantsOutput(flags.output)) {
      bool from_files = flags.calibration.rfind("random:", 0) != 0;
      size_t count = samples.value().size();
      if (from_files && count >= 2) {
        // The user's data: a fifth of it (at least one sample, at most --holdout) is held out
        // from calibration and measured on.
        size_t held = std::min<size_t>(
            {std::max<size_t>(1, count / 5), count - 1, static_cast<size_t>(flags.holdout)});
        holdout.assign(std::make_move_iterator(samples.value().end() - static_cast<long>(held)),
                       std::make_move_iterator(samples.value().end()));
        samples.value().resize(count - held);
        spdlog::info("held out {} of the {} calibration samples for measuring", held, count);
      } else {
        // Random inputs (seeds no calibration sample uses) of the calibration data's shapes.
        auto shapes = parseShapes(flags.exec.shapes);
        size_t k = 0;
        for (const ir::Node* node : gm.graph()) {
          if (node->op() == ir::Opcode::kPlaceholder && !samples.value().empty() &&
              k < samples.value()[0].size())
            shapes[node->name()] = samples.value()[0][k++].shape;
        }
        for (int h = 0; h < flags.holdout; ++h) {
          auto inputs = exec::randomInputs(gm, flags.exec.seed + 1000003 + static_cast<uint64_t>(h),
                                           shapes, 0);
          if (!inputs) return fail(inputs.error());
          holdout.push_back(inputs.take());
        }
      }
      exec::Interpreter float_model(gm, backend);
      for (const auto& inputs : holdout) {
        auto outputs = float_model.run(inputs);
        if (!outputs) return fail(outputs.error());
        reference.push_back(outputs.take());
      }
    }
    const passes::QuantPreset& preset = *passes::findPreset(flags.preset);
    std::vector<std::string> kinds = flags.op_types.empty() ? preset.op_types : flags.op_types;
    bool quantizable = false;
    for (const std::string& name : flags.exclude) {
      bool found = false;
      for (const ir::Node* node : gm.graph()) found = found || node->name() == name;
      if (!found) return fail("--exclude " + name + ": the graph has no node of that name");
    }
    for (const ir::Node* node : gm.graph()) {
      std::string kind = passes::quantKind(gm, *node);
      quantizable = quantizable ||
                    (!kind.empty() && std::find(kinds.begin(), kinds.end(), kind) != kinds.end() &&
                     std::find(flags.exclude.begin(), flags.exclude.end(), node->name()) ==
                         flags.exclude.end());
    }
    if (!quantizable)
      return fail("no quantizable op (preset " + flags.preset + " quantizes " +
                  joined(kinds, ", ") + ")");
    std::string observe = "quant-observe:preset=" + flags.preset;
    if (!flags.op_types.empty()) observe += ",op-types=" + joined(flags.op_types, "+");
    if (!flags.exclude.empty()) observe += ",exclude=" + joined(flags.exclude, "+");
    auto prepared = runPasses(gm, {request("conv-bn"), request(observe)}, label, nullptr);
    if (!prepared) return failed(prepared.error());
    auto calibrated =
        passes::calibrate(gm, samples.value(), {flags.method, flags.percentile, flags.bins});
    if (!calibrated) return fail(calibrated.error());
    spdlog::info(
        "calibrate ({}, {} samples): {}", flags.method, samples.value().size(),
        calibrated.value().counts.empty() ? "nothing" : [&] {
          std::string text;
          for (const auto& [what, n] : calibrated.value().counts)
            text += (text.empty() ? "" : ", ") + what + " " + std::to_string(n);
          return text;
        }());
    std::string convert = "quant-convert:preset=" + flags.preset +
                          ",per-tensor=" + (flags.per_tensor ? "true" : "false") +
                          ",qat=" + (flags.qat ? "true" : "false");
    auto converted = runPasses(gm, {request(convert)}, label, nullptr);
    if (!converted) return failed(converted.error());
    report["passes"] = prepared.value();

    if (measure) {
      std::string text;
      auto measured = measureReport(gm, holdout, reference, report, text);
      if (!measured) return fail(measured.error());
      std::string integer_text;
      auto integer =
          measureIntegerRun(gm, std::move(float_copy), backend, flags.exec, holdout, reference,
                            label, flags.bench ? 10 : 0, report, integer_text);
      if (!integer) return fail(integer.error());
      if (!json && flags.report) std::cout << text;
      if (!json && (flags.report || flags.bench)) std::cout << integer_text;
    }
  }
  if (wantsOutput(flags.output)) {
    // The file as written is run again on the held-out inputs: a model whose outputs drift from
    // the float model's beyond --min-sqnr is not written.
    auto within_floor = [&](const ir::GraphModule& model) -> Expected<bool> {
      if (holdout.empty()) return true;  // --convert: no float model to compare with
      exec::Interpreter interpreter(model, backend);
      std::vector<exec::ErrorSums> sums;
      for (size_t k = 0; k < holdout.size(); ++k) {
        auto outputs = interpreter.run(holdout[k]);
        if (!outputs) return Error{"the written model does not run: " + outputs.error()};
        if (outputs.value().size() != reference[k].size())
          return Error{"the written model has another number of outputs"};
        sums.resize(outputs.value().size());
        for (size_t o = 0; o < sums.size(); ++o) {
          const exec::Value& want = reference[k][o];
          const exec::Value& got = outputs.value()[o];
          if (!want.isFloat() || !got.isFloat()) continue;
          if (got.f.size() != want.f.size())
            return Error{"the written model's output " + std::to_string(o) + " has another shape"};
          sums[o].add(want.f.data(), got.f.data(), want.f.size());
        }
      }
      for (size_t o = 0; o < sums.size(); ++o) {
        double db = sums[o].sqnrDb();
        spdlog::info("written model: output {}: SQNR {:.2f} dB on {} held-out inputs", o, db,
                     holdout.size());
        if (!(db >= flags.min_sqnr))
          return Error{"the written model's output " + std::to_string(o) + " has an SQNR of " +
                       fmt::format("{:.2f}", db) + " dB on " + std::to_string(holdout.size()) +
                       " held-out inputs, below --min-sqnr " + fmt::format("{:g}", flags.min_sqnr) +
                       ": not written"};
      }
      return true;
    };
    auto verify = [&](const std::string& written) -> Expected<bool> {
      auto model = loadGraphModule(written, onnx::TraceOptions{});
      if (!model) return Error{"the written model does not load: " + model.error()};
      return within_floor(*model.value());
    };
    if (flags.output.path == "-") {  // a stream cannot be read back: the graph written is checked
      auto kept = within_floor(gm);
      if (!kept) return fail(kept.error());
    }
    auto written = writeOutput(gm, flags.output, path, verify);
    if (!written) return failed(written.error());  // names the file written
  }
  if (!flags.views.svg.empty()) {
    auto drawn = writeSvg(gm, viewName(path), flags.views.shapes, flags.views.svg, path);
    if (!drawn) return fail(drawn.error());
  }
  if (!wantsOutput(flags.output) && (flags.report || json || flags.bench))
    spdlog::info("nothing written: give -o FILE to save the quantized model");
  if (json) {
    if (flags.views.code) report["code"] = ir::pythonCode(gm.graph());
    if (flags.views.tabular) report["tabular"] = ir::printTabular(gm.graph(), flags.views.shapes);
    printJson(report);
  } else if (flags.views.any() || (!wantsOutput(flags.output) && !flags.report && !flags.bench &&
                                   flags.views.svg.empty() && flags.codegen.empty())) {
    std::string text = renderViews(gm, flags.views, true, viewName(path));
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  if (!flags.codegen.empty()) {
    // Last: the fake-quantize calls become modules, a graph for PyTorch only.
    std::vector<std::string> outputs = outputNames(gm);
    onnx::fakeQuantizeAsModules(gm);
    std::string source = modelLabel(path);
    auto package = onnx::pytorchPackage(gm, source.substr(source.rfind('/') + 1), outputs);
    if (!package) return fail(package.error());
    auto written = writePackage(package.value(), flags.codegen, flags.force, inputFiles(gm, path));
    if (!written) {
      printError(written.error());
      return kExitFailure;
    }
    spdlog::info("wrote {}/: the QAT model as a PyTorch package (FakeQuantize modules)",
                 flags.codegen);
  }
  bury(std::move(traced.value()));
  return kExitOk;
}

}  // namespace

Runner addQuantizeCommand(CLI::App& app) {
  auto flags = std::make_shared<QuantizeFlags>();
  CLI::App* cmd = app.add_subcommand(
      "quantize", "Quantize to QDQ (int8) with calibration: TensorRT- and ONNX Runtime-ready");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("--preset", flags->preset,
                  "trt (symmetric int8) or ort-cpu (uint8 activations, int8 weights, int32 bias)")
      ->check(CLI::IsMember({"trt", "ort-cpu"}));
  cmd->add_option("--calibration", flags->calibration,
                  "random:N (seeded samples; default random:32), a directory of .npy files or one "
                  ".npy file (a batch of samples); from files, a fifth is held out for measuring");
  cmd->add_option("--method", flags->method, "minmax (default), percentile or entropy")
      ->check(CLI::IsMember({"minmax", "percentile", "entropy"}));
  cmd->add_option("--percentile", flags->percentile,
                  "for --method percentile, above 0 and at most 100 (default 99.99)")
      ->option_text("P")
      ->check(CLI::Range(1e-9, 100.0))
      ->check(kFiniteNumber);
  cmd->add_option("--bins", flags->bins,
                  "histogram bins for percentile/entropy, 128 to 16777216 (default 2048)")
      ->option_text("N")
      ->check(CLI::Range(int64_t{128}, int64_t{1} << 24));
  cmd->add_flag("--per-tensor", flags->per_tensor, "one weight scale per tensor, not per channel");
  cmd->add_option("--exclude", flags->exclude, "node names to leave in float")
      ->allow_extra_args(false);
  cmd->add_option(
         "--op-types", flags->op_types,
         "ONNX op types to quantize (" + passes::quantKindNames() + "; default: the preset's)")
      ->delimiter(',')
      ->check(CLI::IsMember(passes::quantKinds()));
  cmd->add_flag("--qat", flags->qat,
                "write the fake-quant model for training: float weights behind Q/DQ");
  cmd->add_option("--codegen", flags->codegen,
                  "with --qat: write the QAT model as a PyTorch package in DIR (fxc codegen), its "
                  "quantizers torch.ao.quantization.FakeQuantize modules from the calibration")
      ->option_text("DIR");
  cmd->add_flag("--force", flags->force, "with --codegen: replace the package's files in DIR");
  cmd->add_flag("--convert", flags->convert,
                "fold the weight Q/DQ of a model back from training into int8 initializers");
  cmd->add_flag("--report", flags->report,
                "per-tensor scale, zero point, SQNR; per-output SQNR, cosine, max error; the "
                "same for the integer run (what fxc run executes)");
  cmd->add_flag("--bench", flags->bench,
                "time the float model, the Q/DQ model as written and its integer run (median of "
                "10 runs on a held-out input), with each one's SQNR against the float model");
  cmd->add_option("--holdout", flags->holdout,
                  "held-out inputs for the report and the written-model check: random ones "
                  "(default 8), or at most this many of the calibration files' samples");
  cmd->add_option("--min-sqnr", flags->min_sqnr,
                  "the written model, run again, must keep every output's SQNR in dB against "
                  "the float model at least this high, or it is not written (default 10)")
      ->check(kFiniteNumber);
  cmd->add_option("--format", flags->format, "text or json (the report as JSON)")
      ->check(CLI::IsMember({"text", "json"}));
  addViewFlags(*cmd, flags->views);
  addOutputFlags(*cmd, flags->output);
  addExecFlags(*cmd, flags->exec, /*inputs=*/false);
  return [cmd, flags]() { return cmd->parsed() ? runQuantize(*flags) : -1; };
}

}  // namespace fxc::tools
