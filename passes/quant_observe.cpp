// quant-observe: inserts an observer on every value a quantized op reads (one per value, shared
// by the consumers that quantize it), as torch.ao's prepare_fx does:
//
//   %y = conv(%x)    ⇒   %x_obs = activation_post_process_0(%x);  %y = conv(%x_obs)
//
// Which inputs, per preset: trt — the activation input of Conv/ConvTranspose/Gemm/MatMul, and on
// a residual Add only the shortcut input; ort-cpu — those, both Add inputs, both inputs of a Mul
// of two computed values, Concat inputs and the pooling inputs. Options narrow it: op-types (ONNX
// names joined by '+'), exclude (node names joined by '+'). Weights are not observed: quant-convert
// quantizes them from their values.
#include <cstring>
#include <set>
#include <sstream>

#include "ir/module_kind.h"
#include "passes/quant.h"

namespace fxc::passes {

const QuantPreset* findPreset(const std::string& name) {
  static const std::vector<QuantPreset> presets = {
      {"trt",
       {-128, 127},
       true,
       {-127, 127},
       false,
       {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add"},
       true},
      {"ort-cpu",
       {0, 255},
       false,
       {-127, 127},
       true,
       {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Mul", "Concat", "MaxPool",
        "AveragePool"},
       false},
  };
  for (const auto& preset : presets) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

std::string presetNames() { return "ort-cpu, trt"; }

const std::vector<std::string>& quantKinds() {
  static const std::vector<std::string> kinds = {
      "Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Mul", "Concat", "MaxPool", "AveragePool"};
  return kinds;
}

std::string quantKindNames() {
  std::string out;
  for (const std::string& kind : quantKinds()) out += (out.empty() ? "" : ", ") + kind;
  return out;
}

std::string quantKind(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.op() == ir::Opcode::kCallModule) {
    const ir::Module* module = gm.findModule(node.target());
    if (!module) return "";
    ir::ModuleKind kind = ir::moduleKind(module->type());
    if (ir::isConvolution(kind)) return "Conv";
    if (ir::isTransposedConvolution(kind)) return "ConvTranspose";
    if (kind == ir::ModuleKind::kLinear) return "Gemm";
    if (ir::isMaxPool(kind)) return "MaxPool";
    if (ir::isAveragePool(kind)) return "AveragePool";
    return "";
  }
  if (node.op() != ir::Opcode::kCallFunction) return "";
  const std::string& t = node.target();
  if (t == "operator.matmul") return "MatMul";
  if (t == "operator.add" || t == "torch.add") return "Add";
  if (t == "operator.mul" || t == "torch.mul") return "Mul";
  if (t == "torch.cat") return "Concat";
  if (t == "torch.nn.functional.max_pool2d") return "MaxPool";
  if (t == "torch.nn.functional.avg_pool2d" || t == "torch.nn.functional.adaptive_avg_pool2d")
    return "AveragePool";
  return "";
}

bool isWeighted(const std::string& kind) {
  return kind == "Conv" || kind == "ConvTranspose" || kind == "Gemm" || kind == "MatMul";
}

bool plainQuantization(const ir::Node& node) {
  for (const auto& [key, arg] : node.kwargs()) {
    if (key != "axis") return false;
  }
  return true;
}

bool isObserver(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.op() != ir::Opcode::kCallModule) return false;
  const ir::Module* module = gm.findModule(node.target());
  return module && (module->type() == "MinMaxObserver" || module->type() == "HistogramObserver");
}

std::shared_ptr<ir::Tensor> floatTensor(const std::vector<float>& values,
                                        std::vector<int64_t> dims) {
  auto t = std::make_shared<ir::Tensor>();
  t->dtype = ir::DType::kFloat32;
  t->dims = std::move(dims);
  t->setBytes(std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4));
  return t;
}

std::shared_ptr<ir::Tensor> intTensor(const std::vector<int64_t>& values, std::vector<int64_t> dims,
                                      ir::DType dtype) {
  auto t = std::make_shared<ir::Tensor>();
  t->dtype = dtype;
  t->dims = std::move(dims);
  size_t size = ir::dtypeSize(dtype);
  std::string bytes(values.size() * size, '\0');
  for (size_t k = 0; k < values.size(); ++k) {
    int64_t v = values[k];
    std::memcpy(&bytes[k * size], &v, size);  // little-endian: the low bytes
  }
  t->setBytes(std::move(bytes));
  return t;
}

std::vector<float> floatsOf(const ir::Tensor& tensor) {
  std::vector<float> out(static_cast<size_t>(tensor.numel()));
  if (tensor.dtype == ir::DType::kFloat32 && tensor.byteSize() == out.size() * 4) {
    if (!out.empty()) std::memcpy(out.data(), tensor.bytes(), tensor.byteSize());
  } else if (tensor.dtype == ir::DType::kFloat64 && tensor.byteSize() == out.size() * 8) {
    for (size_t k = 0; k < out.size(); ++k) {
      double v;
      std::memcpy(&v, tensor.bytes() + 8 * k, 8);
      out[k] = static_cast<float>(v);
    }
  } else {
    return {};
  }
  return out;
}

namespace {

std::set<std::string> splitPlus(const std::string& text) {
  std::set<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, '+')) {
    if (!item.empty()) out.insert(item);
  }
  return out;
}

Expected<bool> validate(const Options& options) {
  if (!findPreset(options.get("preset")))
    return Error{"unknown preset '" + options.get("preset") + "' (presets: " + presetNames() + ")"};
  const std::vector<std::string>& kinds = quantKinds();
  for (const auto& kind : splitPlus(options.get("op-types"))) {
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
      return Error{"op-types: '" + kind + "' is not one of " + quantKindNames()};
  }
  return true;
}

bool producedByWeighted(const ir::GraphModule& gm, const ir::Node* node) {
  return isWeighted(quantKind(gm, *node));
}

Expected<PassResult> observe(ir::GraphModule& gm, const Options& options) {
  const QuantPreset& preset = *findPreset(options.get("preset"));
  std::set<std::string> kinds = splitPlus(options.get("op-types"));
  if (kinds.empty()) kinds.insert(preset.op_types.begin(), preset.op_types.end());
  std::set<std::string> exclude = splitPlus(options.get("exclude"));
  for (const auto& name : exclude) {
    bool found = false;
    for (const ir::Node* node : gm.graph()) found = found || node->name() == name;
    if (!found) return Error{"exclude: the graph has no node '" + name + "'"};
  }

  // Consumers and the inputs of each to quantize, in graph order.
  std::vector<std::pair<ir::Node*, std::vector<ir::Node*>>> plan;
  for (ir::Node* node : gm.graph()) {
    std::string kind = quantKind(gm, *node);
    if (kind.empty() || !kinds.count(kind) || exclude.count(node->name())) continue;
    std::vector<ir::Node*> values;
    for (const ir::Argument& arg : node->args()) {
      if (arg.isNode()) values.push_back(arg.toNode());
      for (const ir::Argument& item : arg.isSequence() ? arg.items() : std::vector<ir::Argument>{})
        if (item.isNode()) values.push_back(item.toNode());
    }
    if (kind == "Conv" || kind == "ConvTranspose" || kind == "Gemm" || kind == "MaxPool" ||
        kind == "AveragePool") {
      values.resize(std::min<size_t>(values.size(), 1));  // the activation
    } else if (kind == "Add" && preset.shortcut_add_only && values.size() == 2) {
      // The shortcut: the operand no weighted op produced (the second when both or neither).
      bool first_weighted = producedByWeighted(gm, values[0]);
      bool second_weighted = producedByWeighted(gm, values[1]);
      values = {first_weighted != second_weighted && !first_weighted ? values[0] : values[1]};
    }
    // A product only of two computed float values (a squeeze-excitation's scale: ONNX Runtime's
    // QLinearMul); one with a constant (a layer scale, a GELU's ½) stays float.
    if (kind == "Mul") {
      bool both = values.size() == 2 && node->args().size() == 2;
      for (ir::Node* v : values)  // known to be float: never shape arithmetic of unknown type
        both = both && v->op() != ir::Opcode::kGetAttr && v->meta.dtype == "float32";
      if (!both) continue;
    }
    // Constants (weights) are quantized by quant-convert from their values; int64 shape
    // arithmetic never is.
    std::vector<ir::Node*> kept;
    for (ir::Node* v : values) {
      bool integer = !v->meta.dtype.empty() && v->meta.dtype != "float32";
      if (v->op() != ir::Opcode::kGetAttr && !integer &&
          std::find(kept.begin(), kept.end(), v) == kept.end())
        kept.push_back(v);
    }
    if (!kept.empty() || isWeighted(kind)) plan.emplace_back(node, kept);
  }

  PassResult result;
  std::unordered_map<ir::Node*, ir::Node*> observer_of;
  int64_t next = 0;  // the first free activation_post_process_N
  while (gm.findModule("activation_post_process_" + std::to_string(next))) ++next;
  for (auto& [consumer, values] : plan) {
    for (ir::Node* value : values) {
      ir::Node*& observer = observer_of[value];
      if (!observer) {
        std::string path = "activation_post_process_" + std::to_string(next++);
        ir::Module* module = gm.addModule(path, "MinMaxObserver");
        module->attributes() = {
            {"dtype", preset.activation.min < 0 ? "int8" : "uint8"},
            {"quant_min", ir::Argument(preset.activation.min)},
            {"quant_max", ir::Argument(preset.activation.max)},
            {"symmetric", ir::Argument(static_cast<int64_t>(preset.activation_symmetric))}};
        // After the value (placeholders stay first), so every consumer sees it defined.
        ir::Node* anchor = value->next();
        while (anchor->op() == ir::Opcode::kPlaceholder) anchor = anchor->next();
        auto guard = gm.graph().insertingBefore(anchor);
        observer = gm.graph().callModule(path, {value});
        observer->meta.dtype = value->meta.dtype;
        observer->meta.shape = value->meta.shape;
        result.add("observers");
      }
      consumer->replaceInputWith(value, observer);
    }
    result.add("quantized ops");
  }
  return result;
}

RegisterPass registration{
    {"quant-observe",
     "inserts observers on the inputs of the ops a preset quantizes (torch.ao's prepare_fx)",
     {{"preset", OptionKind::kString, "trt", "trt or ort-cpu: which ops, which integer forms"},
      {"op-types", OptionKind::kString, "",
       "ONNX op types to quantize, joined by '+' (default: the preset's)"},
      {"exclude", OptionKind::kString, "", "node names not to quantize, joined by '+'"}},
     observe,
     validate}};

}  // namespace
}  // namespace fxc::passes
