// Model bytes (QDQ or float) → trace (with shapes) → quant-observe → quant-calibrate on two seeded
// inputs → quant-convert → quant-fold-weights, lint after each → export. Also the QDQ ops a model
// already has run through the interpreter when calibration runs the graph.
#include <string>
#include <vector>

#include "onnx/export.h"
#include "test/fuzz/fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fxc::fuzz::setUp();
  fxc::onnx::TraceOptions options;
  options.infer_shapes = true;
  auto gm = fxc::fuzz::traceBytes(data, size, options);
  if (!gm) return 0;
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
