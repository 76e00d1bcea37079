// fxc codegen: the package around the module tree (codegen_modules.cpp) — forward as the --code
// view with onnx_ops calls where PyTorch has no call of the same meaning, the state_dict as an
// .npz, load().
#include "onnx/codegen.h"

#include <array>
#include <cctype>
#include <cstring>
#include <set>
#include <unordered_map>

#include "ir/printers.h"
#include "ir/torch_call.h"
#include "onnx/codegen_internal.h"
#include "onnx/op_table.h"

namespace fxc::onnx {
namespace codegen {

std::string torchDtype(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return "torch.float32";
    case ir::DType::kFloat64:
      return "torch.float64";
    case ir::DType::kFloat16:
      return "torch.float16";
    case ir::DType::kInt8:
      return "torch.int8";
    case ir::DType::kUInt8:
      return "torch.uint8";
    case ir::DType::kInt16:
      return "torch.int16";
    case ir::DType::kInt32:
      return "torch.int32";
    case ir::DType::kInt64:
      return "torch.int64";
    case ir::DType::kBool:
      return "torch.bool";
    default:
      return "";
  }
}

std::string pyTuple(const std::vector<int64_t>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + (values.size() == 1 ? ",)" : ")");
}

std::string pyNumber(double value) { return ir::pyRepr(ir::Argument(value)); }

StateTensor stateOf(const std::string& name, const ir::Tensor& tensor) {
  if (torchDtype(tensor.dtype).empty())
    throw ModelError("tensor " + name + ": " + std::string(ir::dtypeName(tensor.dtype)) +
                     " has no numpy type that torch reads");
  return {name, tensor.dtype, tensor.dims, std::string(tensor.bytes(), tensor.byteSize())};
}

}  // namespace codegen

namespace {

using codegen::StateTensor;

// ---- forward -------------------------------------------------------------------------------

// The functions onnx_ops.py defines.
const std::set<std::string>& onnxOps() {
  static const std::set<std::string> ops = [] {
    std::set<std::string> out;
    const char* text = onnxOpsSource();
    for (const char* p = std::strstr(text, "\ndef "); p; p = std::strstr(p + 1, "\ndef ")) {
      const char* name = p + 5;
      const char* end = std::strchr(name, '(');
      if (end && name[0] >= 'A' && name[0] <= 'Z') out.emplace(name, end);
    }
    return out;
  }();
  return ops;
}

// Calls whose torch.fx form is PyTorch's call of the same meaning, as the views print them.
bool sameInTorch(const ir::Node& node) {
  static const std::set<std::string> operators = {
      "operator.add", "operator.sub", "operator.mul", "operator.matmul", "operator.eq",
      "operator.lt",  "operator.gt",  "operator.le",  "operator.ge",     "operator.and_",
      "operator.or_", "operator.xor", "operator.neg"};
  static const std::set<std::string> unary = {"torch.relu",
                                              "torch.sigmoid",
                                              "torch.tanh",
                                              "torch.exp",
                                              "torch.log",
                                              "torch.sqrt",
                                              "torch.abs",
                                              "torch.ceil",
                                              "torch.floor",
                                              "torch.round",
                                              "torch.sin",
                                              "torch.cos",
                                              "torch.tan",
                                              "torch.asin",
                                              "torch.acos",
                                              "torch.atan",
                                              "torch.sinh",
                                              "torch.cosh",
                                              "torch.asinh",
                                              "torch.acosh",
                                              "torch.atanh",
                                              "torch.erf",
                                              "torch.reciprocal",
                                              "torch.isnan",
                                              "torch.logical_not",
                                              "torch.nn.functional.hardswish",
                                              "torch.nn.functional.mish",
                                              "torch.nn.functional.softsign",
                                              "torch.nn.functional.softplus"};
  const std::string& target = node.target();
  if (!node.kwargs().empty()) return false;
  if (operators.count(target)) return true;
  if (target == "operator.truediv") {
    const ir::Node* a =
        node.args().empty() || !node.args()[0].isNode() ? nullptr : node.args()[0].toNode();
    return a &&
           (a->meta.dtype == "float32" || a->meta.dtype == "float64" || a->meta.dtype == "float16");
  }
  if (target == "torch.where") return node.args().size() == 3;
  return unary.count(target) && node.args().size() == 1;
}

// How many outputs the graph reads of a multi-output node (its getitems), 0 when it is its value.
int64_t outputsRead(const ir::Node& node) {
  int64_t count = 0;
  for (const ir::Node* user : node.users()) {
    if (user->op() == ir::Opcode::kCallFunction && user->target() == "operator.getitem" &&
        user->args().size() == 2 && user->args()[1].kind() == ir::Argument::Kind::kInt)
      count = std::max(count, user->args()[1].toInt() + 1);
  }
  return count;
}

std::string tensorLiteral(const ir::Node& node, const std::string& key, const ir::Tensor& t) {
  if (t.numel() > 64 || codegen::torchDtype(t.dtype).empty())
    throw ModelError("attribute " + key + ": a tensor over 64 elements or of " +
                     std::string(ir::dtypeName(t.dtype)));
  std::string items;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const char* at = t.bytes() + i * static_cast<int64_t>(ir::dtypeSize(t.dtype));
    double v = 0;
    switch (t.dtype) {
      case ir::DType::kFloat32: {
        float f;
        std::memcpy(&f, at, 4);
        v = f;
        break;
      }
      case ir::DType::kFloat64:
        std::memcpy(&v, at, 8);
        break;
      case ir::DType::kInt64: {
        int64_t x;
        std::memcpy(&x, at, 8);
        items += (i ? ", " : "") + std::to_string(x);
        continue;
      }
      case ir::DType::kInt32: {
        int32_t x;
        std::memcpy(&x, at, 4);
        items += (i ? ", " : "") + std::to_string(x);
        continue;
      }
      case ir::DType::kBool:
      case ir::DType::kUInt8: {
        items += (i ? ", " : "") + std::to_string(static_cast<unsigned char>(*at));
        continue;
      }
      default:
        throw ModelError("node '" + node.name() + "': attribute " + key + " of " +
                         std::string(ir::dtypeName(t.dtype)));
    }
    items += (i ? ", " : "") + codegen::pyNumber(v);
  }
  return "torch.tensor([" + items + "], dtype=" + codegen::torchDtype(t.dtype) + ").reshape(" +
         codegen::pyTuple(t.dims) + ")";
}

// A constant input's single value, when it is one.
std::optional<double> constantScalar(const ir::GraphModule& gm, const ir::Argument& arg) {
  if (!arg.isNode() || arg.toNode()->op() != ir::Opcode::kGetAttr) return std::nullopt;
  auto tensor = gm.findTensor(arg.toNode()->target());
  if (!tensor || tensor->numel() != 1) return std::nullopt;
  const char* at = tensor->bytes();
  switch (tensor->dtype) {
    case ir::DType::kBool:
      return *at ? 1.0 : 0.0;
    case ir::DType::kFloat32: {
      float v;
      std::memcpy(&v, at, 4);
      return v;
    }
    case ir::DType::kFloat64: {
      double v;
      std::memcpy(&v, at, 8);
      return v;
    }
    default:
      return std::nullopt;
  }
}

// Dropout(x, ratio, training_mode) that drops: training mode on (or not constant) and a ratio
// that is not a constant zero. onnx_ops.Dropout runs inference only.
bool trainingDropout(const ir::GraphModule& gm, const ir::Node& node) {
  const auto& args = node.args();
  if (args.size() < 3 || args[2].isNone()) return false;
  auto training = constantScalar(gm, args[2]);
  if (training && *training == 0) return false;
  auto ratio = args[1].isNone() ? std::optional<double>(0.5) : constantScalar(gm, args[1]);
  return !(ratio && *ratio == 0);
}

// onnx_ops.Resize: opset 11's inputs (X, roi, scales, sizes), nearest or linear on every axis.
void checkResize(const ir::Node& node, const std::string& what) {
  if (node.args().size() < 3)
    throw ModelError(what + "Resize before opset 11 (X, scales) is not written in fxc codegen");
  auto text = [&](const char* key, const char* fallback) {
    const ir::Argument* value = node.kwarg(key);
    return value && value->kind() == ir::Argument::Kind::kString ? value->toString()
                                                                 : std::string(fallback);
  };
  std::string mode = text("mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    throw ModelError(what + "Resize's mode " + mode + " is not written in fxc codegen");
  if (text("coordinate_transformation_mode", "half_pixel") == "tf_crop_and_resize")
    throw ModelError(what + "tf_crop_and_resize is not written in fxc codegen");
  if (text("keep_aspect_ratio_policy", "stretch") != "stretch" || node.kwarg("axes"))
    throw ModelError(what + "Resize's axes and aspect ratio policy are not written in fxc codegen");
  const ir::Argument* antialias = node.kwarg("antialias");
  if (antialias && !(antialias->kind() == ir::Argument::Kind::kInt && antialias->toInt() == 0))
    throw ModelError(what + "antialias is not written in fxc codegen");
}

// onnx_ops.LSTM and GRU run the default activations on sequences of full length, time first.
void checkRecurrent(const ir::Node& node, const std::string& op, const std::string& what) {
  if (op != "LSTM" && op != "GRU") return;
  for (const auto& [key, value] : node.kwargs()) {
    bool known =
        key == "direction" || key == "hidden_size" ||
        (op == "GRU" && key == "linear_before_reset") ||
        (key == "layout" && value.kind() == ir::Argument::Kind::kInt && value.toInt() == 0);
    if (!known) throw ModelError(what + "attribute " + key + " is not written in fxc codegen");
  }
  const auto& args = node.args();
  if (args.size() > 4 && !args[4].isNone())
    throw ModelError(what + "sequence_lens is not written in fxc codegen");
  if (op == "LSTM" && args.size() > 7 && !args[7].isNone())
    throw ModelError(what + "peepholes are not written in fxc codegen");
}

// A module as a call of its ONNX op in onnx_ops, its tensors in their input slots: for the ops
// onnx_ops writes whatever their attributes (Gemm, Conv, ConvTranspose, Clip, Flatten). nullopt
// for other modules; with `node`, the call's text.
std::optional<std::string> opCall(const ir::GraphModule& gm, const std::string& path,
                                  const ir::Node* node = nullptr) {
  const ir::Module* module = gm.findModule(path);
  if (!module) return std::nullopt;
  std::string op = opForModuleType(module->type());
  // Clip and Flatten: where torch.nn.Hardtanh or Flatten would compute another function
  // (bounds min >= max, an input of rank 1).
  static const std::vector<std::string> clip_slots = {"", "min", "max"}, flatten_slots = {""};
  if (op != "Gemm" && op != "Conv" && op != "ConvTranspose" && op != "BatchNormalization" &&
      op != "Clip" && op != "Flatten")
    return std::nullopt;
  // A BatchNorm's op only where torch.nn's class cannot say it (an input of unknown rank): what
  // neither can (training mode, spatial = 0) stays refused.
  if (op == "BatchNormalization") {
    for (const auto& [key, value] : module->attributes()) {
      if ((key == "training_mode" &&
           !(value.kind() == ir::Argument::Kind::kInt && value.toInt() == 0)) ||
          (key == "spatial" && !(value.kind() == ir::Argument::Kind::kInt && value.toInt() == 1)))
        return std::nullopt;
    }
  }
  const auto& slots =
      op == "Clip" ? clip_slots : op == "Flatten" ? flatten_slots : parameterSlots(op);
  for (const auto& [name, tensor] : module->tensors()) {
    if (name.empty() || std::find(slots.begin(), slots.end(), name) == slots.end())
      return std::nullopt;
  }
  if (!node) return std::string();
  std::vector<std::string> inputs;
  size_t next = 0;
  for (const std::string& slot : slots) {
    if (slot.empty()) {
      if (next >= node->args().size()) return std::nullopt;
      inputs.push_back(ir::pyRepr(node->args()[next++]));
    } else {
      inputs.push_back(module->tensor(slot) ? ir::formatTarget("self", path + "." + slot)
                                            : std::string("None"));
    }
  }
  while (!inputs.empty() && inputs.back() == "None") inputs.pop_back();
  std::string out = "onnx_ops." + op + "(";
  for (size_t i = 0; i < inputs.size(); ++i) out += (i ? ", " : "") + inputs[i];
  for (const auto& [key, value] : module->attributes()) out += ", " + key + "=" + ir::pyRepr(value);
  return out + ")";
}

std::optional<std::string> callExpression(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.op() != ir::Opcode::kCallFunction || node.target() == "operator.getitem")
    return std::nullopt;
  int64_t outputs = outputsRead(node);
  auto op = opForTarget(node.target());
  std::string what = "node '" + node.name() + "' (" + node.target() + "): ";
  static const std::set<std::string> tuple_ops = {
      "TopK", "Split", "Dropout", "BatchNormalization", "LayerNormalization", "LSTM", "GRU"};
  if (outputs == 0 && (sameInTorch(node) || ir::torchCall(node))) {
    // PyTorch's pools and convolutions take floats only.
    bool spatial = node.target().rfind("torch.nn.functional.", 0) == 0 && !node.args().empty() &&
                   node.args()[0].isNode();
    const std::string& dtype = spatial ? node.args()[0].toNode()->meta.dtype : std::string();
    if (spatial && !dtype.empty() && dtype != "float32" && dtype != "float64" && dtype != "float16")
      throw ModelError(what + "PyTorch's call takes no " + dtype);
    return std::nullopt;
  }
  if (op && !op->first.empty())
    throw ModelError(what +
                     "no PyTorch code for this op in fxc codegen (an ONNX local function "
                     "is traced through with --inline-functions)");
  if (!op || !onnxOps().count(op->second))
    throw ModelError(what + "no PyTorch code for this op in fxc codegen");
  if (outputs > 0 && !tuple_ops.count(op->second))
    throw ModelError(what + "reads several outputs of an op fxc codegen returns one of");
  checkRecurrent(node, op->second, what);
  if (op->second == "Resize") checkResize(node, what);
  if (op->second == "BatchNormalization") {
    const ir::Argument* training = node.kwarg("training_mode");
    if (training && training->kind() == ir::Argument::Kind::kInt && training->toInt() != 0)
      throw ModelError(what + "BatchNormalization in training mode updates its statistics");
  }
  if (op->second == "Dropout" && trainingDropout(gm, node))
    throw ModelError(what + "Dropout in training mode with a nonzero ratio is random");
  std::string out = "onnx_ops." + op->second + "(";
  bool first = true;
  auto add = [&](const std::string& text) {
    out += (first ? "" : ", ") + text;
    first = false;
  };
  for (const ir::Argument& arg : node.args()) add(ir::pyRepr(arg));
  for (const auto& [key, value] : node.kwargs()) {
    bool tensor = false;
    for (const auto& [name, t] : node.meta.tensor_attributes) {
      if (name == key) {
        add(key + "=" + tensorLiteral(node, key, *t));
        tensor = true;
      }
    }
    if (tensor) continue;
    if (key == "captures") throw ModelError(what + "subgraphs have no PyTorch code in fxc codegen");
    add(key + "=" + ir::pyRepr(value));
  }
  if ((op->second == "Softmax" || op->second == "LogSoftmax" || op->second == "Hardmax") &&
      gm.opset > 0 && gm.opset < 13)
    add("legacy=True");
  // Ops with optional outputs return a tuple only when the graph indexes them.
  if (outputs > 0 && (op->second == "Dropout" || op->second == "BatchNormalization" ||
                      op->second == "LayerNormalization"))
    add("_outputs=" + std::to_string(outputs));
  return out + ")";
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

std::string indent(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out += "    ";
    out += text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// ---- __init__ and the module tree ------------------------------------------------------------

std::string initSource(const std::string& source) {
  return "\"\"\"A PyTorch module generated by fxc codegen from " + source +
         " (torch.fx's GraphModule.to_folder).\n\n"
         "    import DIR; module = DIR.load()\n"
         "\"\"\"\n"
         "import os\n\n"
         "import numpy\n"
         "import torch\n\n"
         "from .module import FxModule\n\n\n"
         "def load(device=\"cpu\"):\n"
         "    \"\"\"FxModule with the model's weights (weights.npz), in eval mode.\"\"\"\n"
         "    module = FxModule()\n"
         "    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), \"weights.npz\")\n"
         "    state = module.state_dict()  # for its metadata: the versions of torch's modules\n"
         "    state.clear()\n"
         "    with numpy.load(path) as weights:\n"
         "        for name in weights.files:\n"
         "            state[name] = torch.from_numpy(weights[name].copy())\n"
         "    missing, unexpected = module.load_state_dict(state, strict=False)\n"
         "    # What ONNX has no value for keeps torch's: BatchNorm's step count, FakeQuantize's\n"
         "    # switches and ε.\n"
         "    kept = (\"num_batches_tracked\", \"fake_quant_enabled\", \"observer_enabled\",\n"
         "            \"activation_post_process.eps\")\n"
         "    missing = [name for name in missing if not name.endswith(kept)]\n"
         "    if missing or unexpected:\n"
         "        raise RuntimeError(f\"weights.npz does not fit FxModule: missing {missing}, \"\n"
         "                           f\"unexpected {unexpected}\")\n"
         "    return module.to(device).eval()\n";
}

bool isFakeQuantize(const ir::Node& node) {
  return node.op() == ir::Opcode::kCallFunction &&
         (node.target() == "torch.fake_quantize_per_tensor_affine" ||
          node.target() == "torch.fake_quantize_per_channel_affine");
}

std::string pyStrings(const std::vector<std::string>& items) {
  std::vector<ir::Argument> values(items.begin(), items.end());
  return ir::pyRepr(ir::Argument::tuple(std::move(values)));
}

}  // namespace

void fakeQuantizeAsModules(ir::GraphModule& gm) {
  std::vector<ir::Node*> calls;
  for (ir::Node* node : gm.graph()) {
    if (isFakeQuantize(*node)) calls.push_back(node);
  }
  for (ir::Node* call : calls) {
    const auto& args = call->args();
    if (args.size() != 3 || !args[1].isNode() || !args[2].isNode() ||
        args[1].toNode()->op() != ir::Opcode::kGetAttr ||
        args[2].toNode()->op() != ir::Opcode::kGetAttr)
      throw InternalError("fake-quantize '" + call->name() + "' without constant qparams");
    ir::Node* scale = args[1].toNode();
    ir::Node* zero_point = args[2].toNode();
    std::string base = scale->target();
    if (base.size() > 6 && base.compare(base.size() - 6, 6, "_scale") == 0)
      base.resize(base.size() - 6);
    std::string path = gm.freshPath(base + "_fake_quant");
    ir::Module* module = gm.addModule(path, "FakeQuantize");
    module->setTensor("scale", gm.findTensor(scale->target()));
    module->setTensor("zero_point", gm.findTensor(zero_point->target()));
    for (const auto& [key, value] : call->kwargs()) module->setAttribute(key, value);
    ir::Node* replacement;
    {
      auto guard = gm.graph().insertingBefore(call);
      replacement = gm.graph().callModule(path, {args[0]});
    }
    replacement->meta = call->meta;
    call->replaceAllUsesWith(replacement);
    gm.graph().eraseNode(call);
    for (ir::Node* holder : {scale, zero_point}) {
      if (!holder->users().empty()) continue;
      std::string target = holder->target();
      gm.graph().eraseNode(holder);
      size_t dot = target.rfind('.');
      ir::Module* owner =
          dot == std::string::npos ? &gm.root() : gm.findModule(target.substr(0, dot));
      bool used = false;
      for (const ir::Node* node : gm.graph())
        used = used || (node->op() == ir::Opcode::kGetAttr && node->target() == target);
      if (owner && !used)
        owner->removeTensor(dot == std::string::npos ? target : target.substr(dot + 1));
    }
  }
}

Expected<PyTorchPackage> pytorchPackage(const ir::GraphModule& gm, const std::string& source,
                                        const std::vector<std::string>& output_names) {
  try {
    std::vector<StateTensor> state;
    std::vector<std::string> input_names;
    // The rank of the input each module is called on, for the constructors that need it.
    std::unordered_map<std::string, int> input_rank;
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kPlaceholder && !isIdentifier(node->target()))
        throw ModelError("input '" + node->target() + "' is not a Python identifier");
      if (node->op() == ir::Opcode::kPlaceholder) {
        input_names.push_back(node->meta.value_name);
        const std::string& dtype = node->meta.dtype;
        if (dtype == "uint16" || dtype == "uint32" || dtype == "uint64")
          throw ModelError("input '" + node->target() + "' is " + dtype + ", which torch lacks");
      }
      if (node->op() != ir::Opcode::kCallModule) continue;
      if (outputsRead(*node) > 0)
        throw ModelError("node '" + node->name() + "' (" + node->target() +
                         "): several outputs of a module have no torch.nn counterpart");
      int rank = -1;
      if (!node->args().empty() && node->args()[0].isNode() && node->args()[0].toNode()->meta.shape)
        rank = static_cast<int>(node->args()[0].toNode()->meta.shape->size());
      input_rank.emplace(node->target(), rank);
    }
    std::string init = "    def __init__(self):\n        super().__init__()\n";
    std::set<std::string> op_modules;  // modules written as containers called through onnx_ops
    auto registerTensors = [&](const ir::Module& module, const std::string& path,
                               const std::string& self) {
      for (const auto& [name, tensor] : module.tensors()) {
        std::string full = path.empty() ? name : path + "." + name;
        state.push_back(codegen::stateOf(full, *tensor));
        std::string empty = "torch.empty(" + codegen::pyTuple(tensor->dims) +
                            ", dtype=" + codegen::torchDtype(tensor->dtype) + ")";
        bool floating = tensor->dtype == ir::DType::kFloat32 ||
                        tensor->dtype == ir::DType::kFloat64 ||
                        tensor->dtype == ir::DType::kFloat16;
        // Float weights are parameters (a fine-tuning trains them); the graph's constants
        // (torch.fx's _tensor_constant), a BatchNorm's statistics and integer tensors are buffers.
        if (floating && name.rfind("_tensor_constant", 0) != 0 && name != "running_mean" &&
            name != "running_var")
          init += "        " + self + ".register_parameter(\"" + name + "\", torch.nn.Parameter(" +
                  empty + "))\n";
        else
          init += "        " + self + ".register_buffer(\"" + name + "\", " + empty + ")\n";
      }
    };
    registerTensors(gm.root(), "", "self");
    for (const auto& [path, module] : gm.namedModules()) {
      size_t dot = path.rfind('.');
      std::string parent = dot == std::string::npos ? "" : path.substr(0, dot);
      std::string atom = dot == std::string::npos ? path : path.substr(dot + 1);
      std::string parent_expr = parent.empty() ? "self" : ir::formatTarget("self", parent);
      std::string constructor;
      // A module no node calls only holds tensors (a QAT graph's convolution reads its weight
      // through get_attr): a container, whatever its type.
      bool container = module->type() == "Module" || !input_rank.count(path);
      if (container) {
        constructor = "torch.nn.Module()";
      } else {
        auto rank = input_rank.find(path);
        std::vector<StateTensor> entries;
        try {
          constructor = codegen::moduleConstructor(
              *module, path, rank == input_rank.end() ? -1 : rank->second, entries);
          for (auto& entry : entries) state.push_back(std::move(entry));
        } catch (const ModelError&) {
          // What torch.nn's module cannot say (a Gemm's α, a convolution's asymmetric pads),
          // onnx_ops may: the module holds the tensors and forward calls its op.
          if (!opCall(gm, path)) throw;
          container = true;
          constructor = "torch.nn.Module()";
          op_modules.insert(path);
        }
      }
      init += "        " + parent_expr + ".add_module(\"" + atom + "\", " + constructor + ")\n";
      if (container) registerTensors(*module, path, ir::formatTarget("self", path));
    }
    ir::CodeOptions options;
    options.torch_fx_layout = false;
    options.expression = [&](const ir::Node& node) -> std::optional<std::string> {
      if (node.op() == ir::Opcode::kCallModule && op_modules.count(node.target()))
        return opCall(gm, node.target(), &node);
      return callExpression(gm, node);
    };
    std::string forward = ir::pythonCode(gm.graph(), options);

    std::string module_py =
        "# Generated by fxc codegen from " + source +
        ": torch.fx's GraphModule.to_folder for an ONNX model.\n"
        "# forward is `fxc trace --code`; ONNX ops without a PyTorch call of the same meaning are "
        "in onnx_ops.py.\n"
        "import torch\n\n"
        "from . import onnx_ops\n\n\n"
        "class FxModule(torch.nn.Module):\n"
        "    # The ONNX model's input and output names, in forward's order.\n"
        "    onnx_inputs = " +
        pyStrings(input_names) + "\n    onnx_outputs = " + pyStrings(output_names) + "\n\n" + init +
        "\n" + indent(forward);
    PyTorchPackage package;
    package.files.emplace_back("weights.npz", codegen::npz(state));
    package.files.emplace_back("onnx_ops.py", onnxOpsSource());
    package.files.emplace_back("module.py", std::move(module_py));
    package.files.emplace_back("__init__.py", initSource(source));
    return package;
  } catch (const ModelError& error) {
    return Error{error.what()};
  }
}

}  // namespace fxc::onnx
