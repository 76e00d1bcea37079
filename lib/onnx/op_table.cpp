#include "onnx/op_table.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace fxc::onnx {
namespace {

const std::unordered_map<std::string, std::string>& functionTargets() {
  static const std::unordered_map<std::string, std::string> table = {
      {"Add", "operator.add"},
      {"Sub", "operator.sub"},
      {"Mul", "operator.mul"},
      {"Div", "operator.truediv"},
      {"Pow", "operator.pow"},
      {"MatMul", "operator.matmul"},
      {"Neg", "operator.neg"},
      {"And", "operator.and_"},
      {"Or", "operator.or_"},
      {"Xor", "operator.xor"},
      {"Equal", "operator.eq"},
      {"Less", "operator.lt"},
      {"Greater", "operator.gt"},
      {"LessOrEqual", "operator.le"},
      {"GreaterOrEqual", "operator.ge"},
      {"Not", "torch.logical_not"},
      {"Relu", "torch.relu"},
      {"Sigmoid", "torch.sigmoid"},
      {"Tanh", "torch.tanh"},
      {"Exp", "torch.exp"},
      {"Log", "torch.log"},
      {"Sqrt", "torch.sqrt"},
      {"Abs", "torch.abs"},
      {"Ceil", "torch.ceil"},
      {"Floor", "torch.floor"},
      {"Round", "torch.round"},
      {"Sin", "torch.sin"},
      {"Cos", "torch.cos"},
      {"Tan", "torch.tan"},
      {"Asin", "torch.asin"},
      {"Acos", "torch.acos"},
      {"Atan", "torch.atan"},
      {"Sinh", "torch.sinh"},
      {"Cosh", "torch.cosh"},
      {"Asinh", "torch.asinh"},
      {"Acosh", "torch.acosh"},
      {"Atanh", "torch.atanh"},
      {"Erf", "torch.erf"},
      {"Reciprocal", "torch.reciprocal"},
      {"Sign", "torch.sign"},
      {"IsNaN", "torch.isnan"},
      {"IsInf", "torch.isinf"},
      {"Where", "torch.where"},
      {"Concat", "torch.cat"},
      {"Flatten", "torch.flatten"},
      {"Reshape", "torch.reshape"},
      {"Transpose", "torch.permute"},
      {"Squeeze", "torch.squeeze"},
      {"Unsqueeze", "torch.unsqueeze"},
      {"Split", "torch.split"},
      {"Tile", "torch.tile"},
      {"Expand", "torch.broadcast_to"},
      {"Softmax", "torch.softmax"},
      {"LogSoftmax", "torch.log_softmax"},
      {"TopK", "torch.topk"},
      {"ArgMax", "torch.argmax"},
      {"ArgMin", "torch.argmin"},
      {"ReduceMean", "torch.mean"},
      {"ReduceSum", "torch.sum"},
      {"ReduceMax", "torch.amax"},
      {"ReduceMin", "torch.amin"},
      {"ReduceProd", "torch.prod"},
      {"Einsum", "torch.einsum"},
      {"CumSum", "torch.cumsum"},
      {"Clip", "torch.clamp"},
      {"Min", "torch.minimum"},
      {"Max", "torch.maximum"},
      {"Range", "torch.arange"},
      {"NonZero", "torch.nonzero"},
      {"GatherElements", "torch.gather"},
      {"LeakyRelu", "torch.nn.functional.leaky_relu"},
      {"Elu", "torch.nn.functional.elu"},
      {"Selu", "torch.nn.functional.selu"},
      {"Celu", "torch.nn.functional.celu"},
      {"HardSigmoid", "torch.nn.functional.hardsigmoid"},
      {"HardSwish", "torch.nn.functional.hardswish"},
      {"Softplus", "torch.nn.functional.softplus"},
      {"Softsign", "torch.nn.functional.softsign"},
      {"Gelu", "torch.nn.functional.gelu"},
      {"Mish", "torch.nn.functional.mish"},
      {"PRelu", "torch.nn.functional.prelu"},
      {"Dropout", "torch.nn.functional.dropout"},
      {"Pad", "torch.nn.functional.pad"},
      {"Resize", "torch.nn.functional.interpolate"},
      {"Upsample", "torch.nn.functional.interpolate"},
      {"GlobalAveragePool", "torch.nn.functional.adaptive_avg_pool2d"},
      {"GlobalMaxPool", "torch.nn.functional.adaptive_max_pool2d"},
      {"BatchNormalization", "torch.nn.functional.batch_norm"},
      {"LayerNormalization", "torch.nn.functional.layer_norm"},
      {"InstanceNormalization", "torch.nn.functional.instance_norm"},
      {"LpNormalization", "torch.nn.functional.normalize"},
      {"DepthToSpace", "torch.nn.functional.pixel_shuffle"},
      {"SpaceToDepth", "torch.nn.functional.pixel_unshuffle"}};
  return table;
}

int attributeRank(const ::onnx::NodeProto& node, const char* name) {
  for (const auto& attr : node.attribute()) {
    if (attr.name() == name) return attr.ints_size();
  }
  return -1;
}

}  // namespace

std::string functionTarget(const ::onnx::NodeProto& node) {
  const std::string& op = node.op_type();
  bool default_domain = node.domain().empty() || node.domain() == "ai.onnx";
  if (!default_domain) return node.domain() + "." + op;
  // Spatial ops name their rank, as torch's functional API does.
  if (op == "MaxPool" || op == "AveragePool" || op == "Conv" || op == "ConvTranspose" ||
      op == "LpPool") {
    int rank = attributeRank(node, "kernel_shape");
    std::string n = std::to_string(rank > 0 ? rank : 2);
    if (op == "MaxPool") return "torch.nn.functional.max_pool" + n + "d";
    if (op == "AveragePool") return "torch.nn.functional.avg_pool" + n + "d";
    if (op == "Conv") return "torch.nn.functional.conv" + n + "d";
    if (op == "ConvTranspose") return "torch.nn.functional.conv_transpose" + n + "d";
    return "torch.nn.functional.lp_pool" + n + "d";
  }
  auto it = functionTargets().find(op);
  return it == functionTargets().end() ? "onnx." + op : it->second;
}

std::optional<std::pair<std::string, std::string>> opForTarget(const std::string& target) {
  static const std::unordered_map<std::string, std::string> reverse = [] {
    std::unordered_map<std::string, std::string> table;
    for (const auto& [op, name] : functionTargets()) {
      if (op != "Upsample") table.emplace(name, op);  // interpolate is Resize
    }
    return table;
  }();
  if (target == "operator.getitem") return std::nullopt;
  auto it = reverse.find(target);
  if (it != reverse.end()) return std::make_pair(std::string(), it->second);
  static const std::pair<const char*, const char*> spatial[] = {
      {"torch.nn.functional.max_pool", "MaxPool"},
      {"torch.nn.functional.avg_pool", "AveragePool"},
      {"torch.nn.functional.conv_transpose", "ConvTranspose"},
      {"torch.nn.functional.conv", "Conv"},
      {"torch.nn.functional.lp_pool", "LpPool"}};
  for (const auto& [prefix, op] : spatial) {
    std::string p(prefix);
    if (target.size() == p.size() + 2 && target.compare(0, p.size(), p) == 0 &&
        std::isdigit(static_cast<unsigned char>(target[p.size()])) && target.back() == 'd')
      return std::make_pair(std::string(), std::string(op));
  }
  size_t dot = target.rfind('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == target.size()) return std::nullopt;
  std::string domain = target.substr(0, dot);
  if (domain == "onnx") domain.clear();
  if (domain == "torch" || domain == "operator" || domain == "builtins" ||
      domain.compare(0, 6, "torch.") == 0)
    return std::nullopt;  // a torch function with no ONNX op
  return std::make_pair(domain, target.substr(dot + 1));
}

std::string opForModuleType(const std::string& type) {
  static const std::unordered_map<std::string, std::string> table = {
      {"Conv1d", "Conv"},
      {"Conv2d", "Conv"},
      {"Conv3d", "Conv"},
      {"ConvTranspose1d", "ConvTranspose"},
      {"ConvTranspose2d", "ConvTranspose"},
      {"ConvTranspose3d", "ConvTranspose"},
      {"BatchNorm1d", "BatchNormalization"},
      {"BatchNorm2d", "BatchNormalization"},
      {"BatchNorm3d", "BatchNormalization"},
      {"InstanceNorm1d", "InstanceNormalization"},
      {"InstanceNorm2d", "InstanceNormalization"},
      {"InstanceNorm3d", "InstanceNormalization"},
      {"Linear", "Gemm"},
      {"LayerNorm", "LayerNormalization"},
      {"GroupNorm", "GroupNormalization"},
      {"PReLU", "PRelu"},
      {"ReLU", "Relu"},
      {"LeakyReLU", "LeakyRelu"},
      {"Sigmoid", "Sigmoid"},
      {"Tanh", "Tanh"},
      {"Softmax", "Softmax"},
      {"LogSoftmax", "LogSoftmax"},
      {"Hardsigmoid", "HardSigmoid"},
      {"Hardswish", "HardSwish"},
      {"Hardtanh", "Clip"},
      {"ELU", "Elu"},
      {"SELU", "Selu"},
      {"CELU", "Celu"},
      {"Softplus", "Softplus"},
      {"Softsign", "Softsign"},
      {"GELU", "Gelu"},
      {"Mish", "Mish"},
      {"Dropout", "Dropout"},
      {"Flatten", "Flatten"},
      {"Identity", "Identity"},
      {"AdaptiveAvgPool2d", "GlobalAveragePool"},
      {"AdaptiveMaxPool2d", "GlobalMaxPool"},
      {"MaxPool1d", "MaxPool"},
      {"MaxPool2d", "MaxPool"},
      {"MaxPool3d", "MaxPool"},
      {"AvgPool1d", "AveragePool"},
      {"AvgPool2d", "AveragePool"},
      {"AvgPool3d", "AveragePool"},
      {"Upsample", "Resize"},
      {"ConstantPad2d", "Pad"},
      {"LocalResponseNorm", "LRN"},
      {"LSTM", "LSTM"},
      {"GRU", "GRU"},
      {"RNN", "RNN"},
      {"PixelShuffle", "DepthToSpace"},
      {"PixelUnshuffle", "SpaceToDepth"}};
  auto it = table.find(type);
  return it == table.end() ? "" : it->second;
}

const std::vector<std::string>& parameterSlots(const std::string& op_type) {
  static const std::unordered_map<std::string, std::vector<std::string>> table = {
      {"Conv", {"", "weight", "bias"}},
      {"ConvTranspose", {"", "weight", "bias"}},
      {"BatchNormalization", {"", "weight", "bias", "running_mean", "running_var"}},
      {"InstanceNormalization", {"", "weight", "bias"}},
      {"LayerNormalization", {"", "weight", "bias"}},
      {"GroupNormalization", {"", "weight", "bias"}},
      {"Gemm", {"", "weight", "bias"}},
      {"MatMul", {"", "weight"}},
      {"PRelu", {"", "weight"}},
      {"LSTM", {"", "weight_ih", "weight_hh", "bias", "", "initial_h", "initial_c", "peepholes"}},
      {"GRU", {"", "weight_ih", "weight_hh", "bias", "", "initial_h"}},
      {"RNN", {"", "weight_ih", "weight_hh", "bias", "", "initial_h"}}};
  static const std::vector<std::string> none;
  auto it = table.find(op_type);
  return it == table.end() ? none : it->second;
}

bool requiresConstant(const std::string& op_type, size_t input_index) {
  // The defining weight: without it constant, the op is a plain function call.
  if (op_type == "LSTM" || op_type == "GRU" || op_type == "RNN")
    return input_index == 1 || input_index == 2;
  return input_index == 1;
}

std::string moduleType(const ::onnx::NodeProto& node, int rank) {
  const std::string& op = node.op_type();
  std::string n = std::to_string(rank > 0 ? rank : 2);
  if (op == "Conv") return "Conv" + n + "d";
  if (op == "ConvTranspose") return "ConvTranspose" + n + "d";
  if (op == "BatchNormalization") return "BatchNorm" + n + "d";
  if (op == "InstanceNormalization") return "InstanceNorm" + n + "d";
  if (op == "MaxPool")
    return "MaxPool" + std::to_string(std::max(1, attributeRank(node, "kernel_shape"))) + "d";
  if (op == "AveragePool")
    return "AvgPool" + std::to_string(std::max(1, attributeRank(node, "kernel_shape"))) + "d";
  static const std::unordered_map<std::string, std::string> table = {
      {"Gemm", "Linear"},
      {"MatMul", "Linear"},
      {"LayerNormalization", "LayerNorm"},
      {"GroupNormalization", "GroupNorm"},
      {"PRelu", "PReLU"},
      {"Relu", "ReLU"},
      {"LeakyRelu", "LeakyReLU"},
      {"Sigmoid", "Sigmoid"},
      {"Tanh", "Tanh"},
      {"Softmax", "Softmax"},
      {"LogSoftmax", "LogSoftmax"},
      {"HardSigmoid", "Hardsigmoid"},
      {"HardSwish", "Hardswish"},
      {"Clip", "Hardtanh"},
      {"Elu", "ELU"},
      {"Selu", "SELU"},
      {"Celu", "CELU"},
      {"Softplus", "Softplus"},
      {"Softsign", "Softsign"},
      {"Gelu", "GELU"},
      {"Mish", "Mish"},
      {"Dropout", "Dropout"},
      {"Flatten", "Flatten"},
      {"Identity", "Identity"},
      {"GlobalAveragePool", "AdaptiveAvgPool2d"},
      {"GlobalMaxPool", "AdaptiveMaxPool2d"},
      {"Resize", "Upsample"},
      {"Upsample", "Upsample"},
      {"Pad", "ConstantPad2d"},
      {"LRN", "LocalResponseNorm"},
      {"LSTM", "LSTM"},
      {"GRU", "GRU"},
      {"RNN", "RNN"},
      {"DepthToSpace", "PixelShuffle"},
      {"SpaceToDepth", "PixelUnshuffle"}};
  auto it = table.find(op);
  return it == table.end() ? "" : it->second;
}

bool hasSubgraphs(const ::onnx::NodeProto& node) {
  for (const auto& attr : node.attribute()) {
    if (attr.type() == ::onnx::AttributeProto::GRAPH ||
        attr.type() == ::onnx::AttributeProto::GRAPHS)
      return true;
  }
  return false;
}

}  // namespace fxc::onnx
