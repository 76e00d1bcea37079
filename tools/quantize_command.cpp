// fxc quantize [MODEL] --preset trt|ort-cpu --calibration DIR|random:N -o OUT.onnx: post-training
// quantization to the QDQ form deployment runtimes read (TensorRT, ONNX Runtime), built from the
// passes conv-bn → quant-observe → calibration → quant-convert; --qat keeps float weights behind
// fake-quantize for training; --convert folds the weight Q/DQ of a model back from training.
// --report (or --format json): each quantized tensor's scale, zero point and SQNR, and each
// output's SQNR, cosine similarity and max abs error against the float model on held-out inputs.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <sstream>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "exec/quantize.h"
#include "ir/printers.h"
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
  bool convert = false;
  bool report = false;
  int holdout = 8;
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

// Sums for one quantized tensor's SQNR over the held-out runs.
struct Noise {
  std::string name, kind, scale, zero_point;
  double signal = 0, noise = 0;
  double db() const {
    if (noise == 0) return INFINITY;
    return signal == 0 ? -INFINITY : 10 * std::log10(signal / noise);
  }
};

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

// Runs the quantized graph, measuring each fake-quantize's noise on what flows through it.
class NoiseMeter : public exec::Interpreter {
 public:
  NoiseMeter(const ir::GraphModule& gm, std::map<const ir::Node*, Noise>& noise)
      : exec::Interpreter(gm), noise_(noise) {}

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    auto out = exec::Interpreter::runNode(node, inputs);
    auto it = noise_.find(&node);
    if (it != noise_.end() && inputs.at(0)->isFloat() && !inputs[0]->native) {
      const auto& x = inputs[0]->f;
      exec::Value y = out.at(0);
      y.makePlain();
      for (size_t k = 0; k < x.size() && k < y.f.size(); ++k) {
        it->second.signal += static_cast<double>(x[k]) * x[k];
        it->second.noise +=
            (static_cast<double>(x[k]) - y.f[k]) * (static_cast<double>(x[k]) - y.f[k]);
      }
    }
    return out;
  }

 private:
  std::map<const ir::Node*, Noise>& noise_;
};

int runQuantize(const QuantizeFlags& flags) {
  if (flags.convert && flags.qat) throw UsageError{"--convert and --qat do not go together"};
  if (flags.holdout < 1) throw UsageError{"--holdout must be at least 1"};
  std::string path = resolveModelPath(flags.model);
  bool json = flags.format == "json";
  validateOutputFlags(flags.output, path, flags.views.any() || json || flags.report);
  exec::Backend backend = applyExecFlags(flags.exec);
  onnx::TraceOptions options;
  options.infer_shapes = true;  // integer values (shape arithmetic) are never quantized
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  ir::GraphModule& gm = *traced.value();
  std::string label = modelLabel(path);
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
  if (flags.convert) {
    auto done = runPasses(gm, {request("quant-fold-weights")}, label, nullptr);
    if (!done) return failed(done.error());
    report["passes"] = done.value();
  } else {
    // The float model's outputs on held-out inputs (seeds no calibration sample uses).
    std::vector<std::vector<exec::Value>> holdout;
    std::vector<std::vector<exec::Value>> reference;
    bool measure = flags.report || json;
    if (measure) {
      exec::Interpreter float_model(gm, backend);
      for (int k = 0; k < flags.holdout; ++k) {
        auto inputs = exec::randomInputs(gm, flags.exec.seed + 1000003 + static_cast<uint64_t>(k),
                                         parseShapes(flags.exec.shapes), flags.exec.batch);
        if (!inputs) return fail(inputs.error());
        auto outputs = float_model.run(inputs.value());
        if (!outputs) return fail(outputs.error());
        holdout.push_back(inputs.take());
        reference.push_back(outputs.take());
      }
    }
    // What can fail on the user's input fails before any pass runs: the calibration data, the
    // excluded names, whether anything is quantizable at all.
    auto samples = exec::calibrationInputs(gm, flags.calibration, flags.exec.seed,
                                           parseShapes(flags.exec.shapes), flags.exec.batch);
    if (!samples) return fail(samples.error());
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
      // Per tensor: activations through their fake-quantize on the held-out runs; constants
      // (weights, biases) against the float tensor they were quantized from.
      std::map<const ir::Node*, Noise> noise;
      std::vector<Noise> constants;
      for (const ir::Node* node : gm.graph()) {
        bool fake = node->target() == "torch.fake_quantize_per_tensor_affine" ||
                    node->target() == "torch.fake_quantize_per_channel_affine";
        bool dq = node->target() == "onnx.DequantizeLinear";
        if (node->op() != ir::Opcode::kCallFunction || (!fake && !dq)) continue;
        const ir::Node* source = node->args().at(0).toNode();
        auto scale = gm.findTensor(node->args().at(1).toNode()->target());
        auto zp = gm.findTensor(node->args().at(2).toNode()->target());
        Noise n{source->op() == ir::Opcode::kGetAttr ? source->target() : source->name(),
                source->op() == ir::Opcode::kGetAttr ? "weight" : "activation", describe(*scale),
                describe(*zp)};
        if (dq && source->op() == ir::Opcode::kGetAttr) {
          std::string name = source->target();
          std::string original = name.substr(0, name.rfind("_quantized"));
          auto float_tensor = gm.findTensor(original);
          if (!float_tensor) continue;
          n.name = original;
          n.kind = original.size() > 5 && original.compare(original.size() - 5, 5, ".bias") == 0
                       ? "bias"
                       : "weight";
          exec::Value q = exec::fromTensor(*gm.findTensor(name));
          exec::Value s = exec::fromTensor(*scale), z = exec::fromTensor(*zp);
          std::vector<float> w = passes::floatsOf(*float_tensor);
          int64_t count = static_cast<int64_t>(s.f.size()),
                  inner = count > 1 ? static_cast<int64_t>(w.size()) / count : 1;
          if (count > 1 && original.find(".weight") != std::string::npos) {
            // Per channel: along axis 0 (conv, Gemm transB) or 1 (ConvTranspose, Gemm).
            const ir::Argument* axis = node->kwarg("axis");
            int64_t a = axis ? axis->toInt() : 0;
            auto dims = float_tensor->dims;
            inner = 1;
            for (size_t d = static_cast<size_t>(a) + 1; d < dims.size(); ++d) inner *= dims[d];
          }
          for (size_t k = 0; k < w.size(); ++k) {
            size_t c =
                count > 1 ? static_cast<size_t>((static_cast<int64_t>(k) / inner) % count) : 0;
            double back = exec::dequantizeValue(q.i[k], {s.f[c], z.i[c]});
            n.signal += static_cast<double>(w[k]) * w[k];
            n.noise += (w[k] - back) * (w[k] - back);
          }
          constants.push_back(n);
        } else if (fake) {
          noise[node] = n;
        }
      }
      NoiseMeter meter(gm, noise);
      nlohmann::json outputs = nlohmann::json::array();
      std::vector<double> signal, err, dot, norm_a, norm_b, max_abs;
      for (size_t k = 0; k < holdout.size(); ++k) {
        auto got = meter.run(holdout[k]);
        if (!got) return fail(got.error());
        for (size_t o = 0; o < got.value().size(); ++o) {
          if (signal.size() <= o) {
            for (auto* v : {&signal, &err, &dot, &norm_a, &norm_b, &max_abs}) v->push_back(0);
          }
          const auto& a = reference[k][o].f;
          const auto& b = got.value()[o].f;
          for (size_t e = 0; e < a.size() && e < b.size(); ++e) {
            double d = static_cast<double>(a[e]) - b[e];
            signal[o] += static_cast<double>(a[e]) * a[e];
            err[o] += d * d;
            dot[o] += static_cast<double>(a[e]) * b[e];
            norm_a[o] += static_cast<double>(a[e]) * a[e];
            norm_b[o] += static_cast<double>(b[e]) * b[e];
            max_abs[o] = std::max(max_abs[o], std::fabs(d));
          }
        }
      }
      nlohmann::json tensors = nlohmann::json::array();
      std::string text = "tensor\tkind\tscale\tzero point\tSQNR (dB)\n";
      auto row = [&](const Noise& n) {
        double db = n.db();
        tensors.push_back(
            {{"tensor", n.name},
             {"kind", n.kind},
             {"scale", n.scale},
             {"zero_point", n.zero_point},
             {"sqnr_db", std::isfinite(db) ? nlohmann::json(db) : nlohmann::json(nullptr)}});
        text += n.name + "\t" + n.kind + "\t" + n.scale + "\t" + n.zero_point + "\t" +
                (std::isfinite(db) ? number(std::round(db * 100) / 100) : "inf") + "\n";
      };
      for (const ir::Node* node : gm.graph()) {
        auto it = noise.find(node);
        if (it != noise.end()) row(it->second);
      }
      for (const auto& n : constants) row(n);
      std::string summary;
      for (size_t o = 0; o < signal.size(); ++o) {
        double db = err[o] == 0 ? INFINITY : 10 * std::log10(signal[o] / err[o]);
        double cosine = dot[o] / std::sqrt(std::max(norm_a[o] * norm_b[o], 1e-300));
        outputs.push_back(
            {{"output", o},
             {"sqnr_db", std::isfinite(db) ? nlohmann::json(db) : nlohmann::json(nullptr)},
             {"cosine", cosine},
             {"max_abs_error", max_abs[o]}});
        char line[200];
        std::snprintf(
            line, sizeof line,
            "output %zu: SQNR %.2f dB  cosine %.6f  max abs error %.4g  (%d held-out inputs)\n", o,
            db, cosine, max_abs[o], flags.holdout);
        summary += line;
      }
      report["tensors"] = tensors;
      report["outputs"] = outputs;
      if (!json) {
        // Columns aligned as a table.
        std::vector<std::vector<std::string>> cells;
        std::vector<size_t> widths;
        std::string line;
        std::stringstream in(text);
        while (std::getline(in, line)) {
          std::vector<std::string> row_cells;
          std::stringstream fields(line);
          std::string field;
          while (std::getline(fields, field, '\t')) row_cells.push_back(field);
          for (size_t c = 0; c < row_cells.size(); ++c) {
            if (widths.size() <= c) widths.push_back(0);
            widths[c] = std::max(widths[c], row_cells[c].size());
          }
          cells.push_back(row_cells);
        }
        std::string table;
        for (const auto& r : cells) {
          std::string out;
          for (size_t c = 0; c < r.size(); ++c)
            out += r[c] + (c + 1 < r.size() ? std::string(widths[c] - r[c].size() + 2, ' ') : "");
          table += out + "\n";
        }
        if (flags.report) std::cout << table << "\n" << summary;
      }
    }
  }
  if (wantsOutput(flags.output)) {
    auto written = writeOutput(gm, flags.output, path);
    if (!written) return fail(written.error());
  }
  if (json) {
    if (flags.views.code) report["code"] = ir::pythonCode(gm.graph());
    if (flags.views.tabular) report["tabular"] = ir::printTabular(gm.graph());
    std::cout << report.dump(2) << "\n";
  } else if (flags.views.any() || (!wantsOutput(flags.output) && !flags.report)) {
    std::string text = renderViews(gm.graph(), flags.views, true);
    std::fwrite(text.data(), 1, text.size(), stdout);
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
                  "random:N (seeded samples; default random:32) or a directory of .npy files");
  cmd->add_option("--method", flags->method, "minmax (default), percentile or entropy")
      ->check(CLI::IsMember({"minmax", "percentile", "entropy"}));
  cmd->add_option("--percentile", flags->percentile, "for --method percentile (default 99.99)")
      ->check(CLI::Range(1e-9, 100.0));
  cmd->add_option("--bins", flags->bins, "histogram bins for percentile/entropy (default 2048)")
      ->check(CLI::Range(int64_t{128}, int64_t{1} << 24));
  cmd->add_flag("--per-tensor", flags->per_tensor, "one weight scale per tensor, not per channel");
  cmd->add_option("--exclude", flags->exclude, "node names to leave in float")
      ->allow_extra_args(false);
  cmd->add_option("--op-types", flags->op_types,
                  "ONNX op types to quantize (Conv, ConvTranspose, Gemm, MatMul, Add, Concat, "
                  "MaxPool, AveragePool; default: the preset's)")
      ->delimiter(',')
      ->check(CLI::IsMember(
          {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Concat", "MaxPool", "AveragePool"}));
  cmd->add_flag("--qat", flags->qat,
                "write the fake-quant model for training: float weights behind Q/DQ");
  cmd->add_flag("--convert", flags->convert,
                "fold the weight Q/DQ of a model back from training into int8 initializers");
  cmd->add_flag("--report", flags->report,
                "per-tensor scale, zero point, SQNR; per-output SQNR, cosine, max error");
  cmd->add_option("--holdout", flags->holdout, "held-out random inputs for the report (default 8)");
  cmd->add_option("--format", flags->format, "text or json (the report as JSON)")
      ->check(CLI::IsMember({"text", "json"}));
  addViewFlags(*cmd, flags->views);
  addOutputFlags(*cmd, flags->output);
  addExecFlags(*cmd, flags->exec);
  return [cmd, flags]() { return cmd->parsed() ? runQuantize(*flags) : -1; };
}

}  // namespace fxc::tools
