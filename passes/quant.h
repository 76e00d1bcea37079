// What the quantization passes share (quant-observe, quant-calibrate, quant-convert,
// quant-fold-weights): the presets, which nodes are quantizable, observers, calibration.
#pragma once

#include <string>
#include <vector>

#include "exec/quantize.h"
#include "exec/value.h"
#include "ir/expected.h"
#include "ir/graph_module.h"
#include "passes/registry.h"

namespace fxc::passes {

// Where Q/DQ go and in which integer form.
struct QuantPreset {
  std::string name;
  exec::QuantRange activation;  // int8 [-128, 127] or uint8 [0, 255]
  bool activation_symmetric;
  exec::QuantRange weight;            // symmetric, narrow: [-127, 127]
  bool bias_int32;                    // bias quantized at s_in·s_w (ONNX Runtime's CPU kernels)
  std::vector<std::string> op_types;  // quantized by default (ONNX op names)
  bool shortcut_add_only;             // on a residual Add, only the shortcut input
};
// nullptr for an unknown name.
const QuantPreset* findPreset(const std::string& name);
std::string presetNames();  // "ort-cpu, trt"

// The op kinds a preset quantizes (ONNX names: Conv, ConvTranspose, Gemm, MatMul, Add, Mul,
// Concat, MaxPool, AveragePool), and the same joined with ", ".
const std::vector<std::string>& quantKinds();
std::string quantKindNames();
// The kind of op `node` is for quantization (one of quantKinds()), or "".
std::string quantKind(const ir::GraphModule& gm, const ir::Node& node);
bool isWeighted(const std::string& kind);
// Whether a QuantizeLinear or DequantizeLinear has no attribute but `axis`: opset 21's
// block_size, output_dtype and saturate change its arithmetic, which the folds and integer ops
// of these passes do not follow.
bool plainQuantization(const ir::Node& node);
bool isObserver(const ir::GraphModule& gm, const ir::Node& node);

// Calibration: runs `samples` through the graph and stores each observer's range (min_val,
// max_val tensors). method: minmax | percentile | entropy (histograms of |x| with `bins` bins).
struct CalibrationOptions {
  std::string method = "minmax";
  double percentile = 99.99;
  int64_t bins = 2048;
};
Expected<PassResult> calibrate(ir::GraphModule& gm,
                               const std::vector<std::vector<exec::Value>>& samples,
                               const CalibrationOptions& options);

// The calibration thresholds over a histogram of |x| (bins of equal width over [0, amax]):
// the smallest bin edge below which `percentile` percent of the counts lie; and TensorRT's
// entropy threshold (the clip with the least KL divergence after merging into 128 levels).
float percentileThreshold(const std::vector<double>& histogram, float amax, double percentile);
float entropyThreshold(const std::vector<double>& histogram, float amax);

// A float32 tensor of `values` (scalar when dims is empty) and an integer one of `dtype`.
std::shared_ptr<ir::Tensor> floatTensor(const std::vector<float>& values,
                                        std::vector<int64_t> dims);
std::shared_ptr<ir::Tensor> intTensor(const std::vector<int64_t>& values, std::vector<int64_t> dims,
                                      ir::DType dtype);
// The elements of a float32/float64 constant.
std::vector<float> floatsOf(const ir::Tensor& tensor);

}  // namespace fxc::passes
