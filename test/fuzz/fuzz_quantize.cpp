// Model bytes (QDQ or float) → trace (with shapes) → quant-observe → quant-calibrate on two seeded
// inputs → quant-convert → quant-fold-weights, lint after each → export. Also the QDQ ops a model
// already has run through the interpreter when calibration runs the graph.
#include <cstdlib>
#include <string>
#include <vector>

#include "onnx/export.h"
#include "test/fuzz/fuzz.h"

namespace {

// Calibration runs the model on random inputs of the declared shapes. A fuzzer tests logic, not
// throughput: models whose inputs hold more than 2^12 elements in all are skipped (a MaxPool of
// 60 x 80 windows over 1000 x 8296, 156M comparisons, and a 3-D ConvTranspose of a 59,670-element
// input by a 1,206-element weight as an input, 144M products, each ran for seconds under ASan:
// slow, not hung). ONNX's node tests, the seeds, have inputs of a few hundred elements.
constexpr double kMaxInputElements = 1 << 12;

bool inputsSmall(const fxc::ir::GraphModule& gm) {
  double total = 0;
  for (const fxc::ir::Node* node : gm.graph()) {
    if (node->op() != fxc::ir::Opcode::kPlaceholder || !node->meta.shape) continue;
    double elements = 1;
    for (const std::string& dim : *node->meta.shape) {
      double size = std::strtod(dim.c_str(), nullptr);  // a symbol or "": 0, taken as 1
      elements *= size > 1 ? size : 1;
    }
    total += elements;
  }
  return total <= kMaxInputElements;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  fxc::onnx::TraceOptions options;
  options.infer_shapes = true;
  auto gm = fxc::fuzz::traceBytes(data, size, options);
  if (!gm || !inputsSmall(*gm)) return 0;
  bool ort = size > 0 && (data[size - 1] & 1);
  std::string preset = ort ? "ort-cpu" : "trt";
  const std::vector<std::string> specs = {"quant-observe:preset=" + preset,
                                          "quant-calibrate:data=random:2,method=minmax",
                                          "quant-convert:preset=" + preset, "quant-fold-weights"};
  if (!fxc::fuzz::runPassSpecs(*gm, specs)) return 0;
  auto exported = fxc::onnx::exportModel(*gm);
  static_cast<void>(exported);  // an export may refuse; it may not crash
  return 0;
}
