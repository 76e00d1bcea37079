// quant-calibrate: runs calibration inputs through the graph on the CPU executor and stores each
// observer's range as its min_val / max_val tensors (torch.ao's observer buffers).
//   minmax      the smallest and largest value seen (the default)
//   percentile  a symmetric clip at the given percentile of |x| (histogram of `bins` bins)
//   entropy     TensorRT's KL-divergence threshold over the same histogram (128 levels)
// The histogram methods take two passes over the data: the range first, then the histogram
// (of the nonzero values: zeros are exact at any scale).
#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/progress.h"
#include "passes/quant.h"

namespace fxc::passes {
namespace {

struct Stats {
  float min = std::numeric_limits<float>::infinity();
  float max = -std::numeric_limits<float>::infinity();
  bool integer = false;           // not a float value: left unquantized
  std::vector<double> histogram;  // of |x| over [0, amax]
  float amax = 0;
};

// The Interpreter with observers that record what flows through them.
class Calibrator : public exec::Interpreter {
 public:
  Calibrator(const ir::GraphModule& gm, std::unordered_map<const ir::Node*, Stats>& stats,
             bool histograms)
      : exec::Interpreter(gm), gm_(gm), stats_(stats), histograms_(histograms) {}

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    if (!isObserver(gm_, node)) return exec::Interpreter::runNode(node, std::move(inputs));
    const exec::Value& x = *inputs.at(0);  // plain: observers do not take native data
    Stats& s = stats_[&node];
    if (x.isFloat())
      record(s, x);
    else
      s.integer = true;
    return {x};
  }

 private:
  void record(Stats& s, const exec::Value& x) {
    if (!histograms_) {
      for (float v : x.f) {
        s.min = std::min(s.min, v);
        s.max = std::max(s.max, v);
      }
      return;
    }
    if (!(s.amax > 0) || !std::isfinite(s.amax)) return;  // such a range is skipped anyway
    double bins = static_cast<double>(s.histogram.size());
    for (float v : x.f) {
      // Exact zeros (half of a ReLU's output) quantize exactly whatever the threshold; left in,
      // their spike in the first bin would decide the entropy threshold alone.
      // NaN has no bin (an inf cannot occur here: amax would be inf).
      if (v == 0 || std::isnan(v)) continue;
      double at = std::fabs(v) / s.amax * bins;
      s.histogram[std::min(static_cast<size_t>(at), s.histogram.size() - 1)] += 1;
    }
  }

  const ir::GraphModule& gm_;
  std::unordered_map<const ir::Node*, Stats>& stats_;
  bool histograms_;
};

}  // namespace

float percentileThreshold(const std::vector<double>& histogram, float amax, double percentile) {
  double total = 0;
  for (double c : histogram) total += c;
  double seen = 0, width = amax / static_cast<double>(histogram.size());
  for (size_t k = 0; k < histogram.size(); ++k) {
    seen += histogram[k];
    if (seen >= total * percentile / 100) return static_cast<float>((k + 1) * width);
  }
  return amax;
}

namespace {

// TensorRT's entropy calibration (as MXNet implements it): for each candidate threshold i bins
// wide, P is the histogram clipped there (outliers folded into the last bin) and Q the same bins
// merged into 128 levels and spread back over P's nonzero bins; the threshold with the smallest
// KL(P || Q), both smoothed so that no bin is empty, wins.
void smooth(std::vector<double>& d) {
  const double eps = 1e-4;
  size_t zeros = 0;
  for (double v : d) zeros += v == 0;
  if (zeros == 0 || zeros == d.size()) return;
  double take = eps * static_cast<double>(zeros) / static_cast<double>(d.size() - zeros);
  for (double& v : d) v = v == 0 ? eps : v - take;
}

}  // namespace

float entropyThreshold(const std::vector<double>& histogram, float amax) {
  const size_t levels = 128, bins = histogram.size();
  if (bins <= levels) return amax;
  double width = amax / static_cast<double>(bins);
  double best = std::numeric_limits<double>::infinity();
  size_t best_i = bins;
  for (size_t i = levels; i <= bins; ++i) {
    std::vector<double> p(histogram.begin(), histogram.begin() + static_cast<long>(i));
    for (size_t k = i; k < bins; ++k) p[i - 1] += histogram[k];  // outliers into the last bin
    std::vector<double> q(i, 0.0);
    double merge = static_cast<double>(i) / levels;
    for (size_t level = 0; level < levels; ++level) {
      size_t begin = static_cast<size_t>(static_cast<double>(level) * merge);
      size_t end =
          level + 1 == levels ? i : static_cast<size_t>(static_cast<double>(level + 1) * merge);
      double sum = 0;
      size_t nonzero = 0;
      for (size_t k = begin; k < end; ++k) {
        sum += histogram[k];
        nonzero += p[k] != 0;
      }
      for (size_t k = begin; k < end; ++k)
        q[k] = p[k] != 0 && nonzero ? sum / static_cast<double>(nonzero) : 0.0;
    }
    double p_sum = 0, q_sum = 0;
    for (size_t k = 0; k < i; ++k) {
      p_sum += p[k];
      q_sum += q[k];
    }
    if (p_sum == 0 || q_sum == 0) continue;
    for (double& v : p) v /= p_sum;
    for (double& v : q) v /= q_sum;
    smooth(p);
    smooth(q);
    double kl = 0;
    for (size_t k = 0; k < i; ++k) {
      if (p[k] > 0 && q[k] > 0) kl += p[k] * std::log(p[k] / q[k]);
    }
    if (kl < best) {
      best = kl;
      best_i = i;
    }
  }
  return static_cast<float>((static_cast<double>(best_i) + 0.5) * width);
}

namespace {

Expected<bool> runAll(Calibrator& calibrator, const std::vector<std::vector<exec::Value>>& samples,
                      const char* what) {
  Progress progress(std::string("calibrating (") + what + ")", "samples", samples.size());
  for (size_t k = 0; k < samples.size(); ++k) {
    auto outputs = calibrator.run(samples[k]);
    if (!outputs) return Error{"calibration sample " + std::to_string(k) + ": " + outputs.error()};
    progress.update(k + 1);
  }
  return true;
}

}  // namespace

Expected<PassResult> calibrate(ir::GraphModule& gm,
                               const std::vector<std::vector<exec::Value>>& samples,
                               const CalibrationOptions& options) {
  if (options.method != "minmax" && options.method != "percentile" && options.method != "entropy")
    return Error{"unknown calibration method '" + options.method +
                 "' (methods: entropy, minmax, percentile)"};
  if (samples.empty()) return Error{"no calibration samples"};
  std::unordered_map<const ir::Node*, Stats> stats;
  {
    Calibrator calibrator(gm, stats, false);
    auto ran = runAll(calibrator, samples, "ranges");
    if (!ran) return Error{ran.error()};
  }
  if (options.method != "minmax") {
    for (auto& [node, s] : stats) {
      s.amax = std::max(std::fabs(s.min), std::fabs(s.max));
      s.histogram.assign(static_cast<size_t>(std::max<int64_t>(options.bins, 1)), 0.0);
    }
    Calibrator calibrator(gm, stats, true);
    auto ran = runAll(calibrator, samples, "histograms");
    if (!ran) return Error{ran.error()};
  }
  PassResult result;
  for (ir::Node* node : gm.graph()) {
    if (!isObserver(gm, *node)) continue;
    auto it = stats.find(node);
    ir::Module* module = gm.findModule(node->target());
    // Skipped, left float: integer values, values never seen, and ranges that reach ±inf (an
    // attention mask's -inf; no scale represents them).
    if (it == stats.end() || it->second.integer || !(it->second.min <= it->second.max) ||
        !std::isfinite(it->second.min) || !std::isfinite(it->second.max)) {
      module->attributes().emplace_back("skip", ir::Argument(int64_t{1}));
      result.add("skipped");
      continue;
    }
    Stats& s = it->second;
    float lo = s.min, hi = s.max;
    if (options.method != "minmax" && s.amax > 0) {
      float t = options.method == "percentile"
                    ? percentileThreshold(s.histogram, s.amax, options.percentile)
                    : entropyThreshold(s.histogram, s.amax);
      lo = std::max(lo, -t);
      hi = std::min(hi, t);
    }
    module->setTensor("min_val", floatTensor({lo}, {}));
    module->setTensor("max_val", floatTensor({hi}, {}));
    result.add("calibrated");
  }
  return result;
}

namespace {

Expected<PassResult> run(ir::GraphModule& gm, const Options& options) {
  auto samples = exec::calibrationInputs(gm, options.get("data"),
                                         static_cast<uint64_t>(options.getInt("seed")));
  if (!samples) return Error{samples.error()};
  CalibrationOptions calibration{options.get("method"), options.getFloat("percentile"),
                                 options.getInt("bins")};
  return calibrate(gm, samples.value(), calibration);
}

Expected<bool> validate(const Options& options) {
  const std::string& method = options.get("method");
  if (method != "minmax" && method != "percentile" && method != "entropy")
    return Error{"method '" + method + "' is not one of entropy, minmax, percentile"};
  double p = options.getFloat("percentile");
  if (!(p > 0 && p <= 100)) return Error{"percentile must be in (0, 100]"};
  if (options.getInt("bins") < 128) return Error{"bins must be at least 128"};
  return true;
}

RegisterPass registration{
    {"quant-calibrate",
     "runs calibration data through the observers and records their ranges",
     {{"data", OptionKind::kString, "random:32",
       "random:N (seeded samples) or a directory of .npy"},
      {"method", OptionKind::kString, "minmax", "minmax, percentile or entropy"},
      {"percentile", OptionKind::kFloat, "99.99", "for method=percentile"},
      {"bins", OptionKind::kInt, "2048", "histogram bins for percentile and entropy"},
      {"seed", OptionKind::kInt, "0", "seed of random:N"}},
     run,
     validate}};

}  // namespace
}  // namespace fxc::passes
