#include "passes/shape_prop.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "onnx/op_table.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

// For the ops whose output shapes follow from their inputs' shapes and some inputs' values: the
// positions of those inputs ("Reshape": the target shape). An op in neither table below is taken
// to depend on every input's values, so that an op nobody listed proves nothing.
const std::unordered_map<std::string_view, std::vector<size_t>>& valueShapedInputs() {
  static const std::unordered_map<std::string_view, std::vector<size_t>> table = {
      {"Reshape", {1}},        {"Expand", {1}},          {"Tile", {1}},
      {"Slice", {1, 2, 3, 4}}, {"ConstantOfShape", {0}}, {"Range", {0, 1, 2}},
      {"Resize", {1, 2, 3}},   {"Upsample", {1}},        {"Pad", {1, 3}},
      {"Squeeze", {1}},        {"Unsqueeze", {1}},       {"TopK", {1}},
      {"OneHot", {1}},         {"Split", {1}},           {"ReduceSum", {1}},
      {"ReduceMean", {1}},     {"ReduceMax", {1}},       {"ReduceMin", {1}},
      {"ReduceProd", {1}},     {"ReduceL1", {1}},        {"ReduceL2", {1}},
      {"ReduceLogSum", {1}},   {"ReduceLogSumExp", {1}}, {"ReduceSumSquare", {1}},
      {"CenterCropPad", {1}},  {"MaxUnpool", {2}},       {"Col2Im", {1, 2}},
      {"DFT", {1, 2}},         {"STFT", {1, 2, 3}},
  };
  return table;
}

// Ops whose output shapes follow from their inputs' shapes (and attributes) alone.
bool shapedByShapesAlone(std::string_view op) {
  static const std::unordered_set<std::string_view> ops = {
      // elementwise, broadcasting
      "Add",
      "Sub",
      "Mul",
      "Div",
      "Pow",
      "Mod",
      "Max",
      "Min",
      "Sum",
      "Mean",
      "Where",
      "Equal",
      "Less",
      "LessOrEqual",
      "Greater",
      "GreaterOrEqual",
      "And",
      "Or",
      "Xor",
      "Not",
      "BitShift",
      "BitwiseAnd",
      "BitwiseOr",
      "BitwiseXor",
      "BitwiseNot",
      "PRelu",
      // unary
      "Abs",
      "Neg",
      "Exp",
      "Log",
      "Sqrt",
      "Reciprocal",
      "Floor",
      "Ceil",
      "Round",
      "Sign",
      "Erf",
      "Sin",
      "Cos",
      "Tan",
      "Asin",
      "Acos",
      "Atan",
      "Sinh",
      "Cosh",
      "Asinh",
      "Acosh",
      "Atanh",
      "Relu",
      "LeakyRelu",
      "Sigmoid",
      "HardSigmoid",
      "HardSwish",
      "Tanh",
      "Elu",
      "Selu",
      "Celu",
      "ThresholdedRelu",
      "Softplus",
      "Softsign",
      "Gelu",
      "Mish",
      "Clip",
      "IsNaN",
      "IsInf",
      "Identity",
      "Dropout",
      "Cast",
      "CastLike",
      "Shrink",
      "QuantizeLinear",
      "DequantizeLinear",
      "Trilu",
      "CumSum",
      // normalization, softmax
      "BatchNormalization",
      "InstanceNormalization",
      "LayerNormalization",
      "GroupNormalization",
      "LpNormalization",
      "MeanVarianceNormalization",
      "LRN",
      "Softmax",
      "LogSoftmax",
      "Hardmax",
      // products, convolution, pooling, recurrent (sequence_lens changes values, not shapes)
      "MatMul",
      "Gemm",
      "Einsum",
      "Conv",
      "ConvTranspose",
      "MaxPool",
      "AveragePool",
      "LpPool",
      "GlobalAveragePool",
      "GlobalMaxPool",
      "GlobalLpPool",
      "LSTM",
      "GRU",
      "RNN",
      // layout, indexing (an index tensor's shape, not its values, shapes the result)
      "Transpose",
      "Flatten",
      "Concat",
      "Shape",
      "Size",
      "Gather",
      "GatherElements",
      "GatherND",
      "ScatterND",
      "ScatterElements",
      "DepthToSpace",
      "SpaceToDepth",
      "ArgMax",
      "ArgMin",
      "ReverseSequence",
      "EyeLike",
  };
  return ops.count(op) > 0;
}

// Module types fxc makes itself (fusions, observers): their outputs have their input's shape or
// a convolution's or a Linear's.
bool isFxcModule(const std::string& type) {
  return type == "ConvReLU2d" || type == "ConvAddReLU2d" || type == "ConvAct2d" ||
         type == "LinearAct" || type == "BNReLU2d" || type == "SiLU" || type == "MinMaxObserver" ||
         type == "HistogramObserver";
}

// Which of `node`'s arguments shape its output through their values: all of them when unknown.
std::vector<bool> valueShapedArgs(const ir::GraphModule& gm, const ir::Node& node) {
  size_t n = node.args().size();
  std::string op;
  if (node.op() == ir::Opcode::kCallModule) {
    const ir::Module* module = gm.findModule(node.target());
    std::string type = module ? module->type() : "";
    // A module holds its constant operands (pads, scales); its arguments are data.
    if (!onnx::opForModuleType(type).empty() || isFxcModule(type)) return std::vector<bool>(n);
    return std::vector<bool>(n, true);
  }
  if (auto found = onnx::opForTarget(node.target())) {
    if (found->first.empty() || found->first == "ai.onnx") op = found->second;
  }
  if (shapedByShapesAlone(op)) return std::vector<bool>(n);
  auto it = valueShapedInputs().find(op);
  if (it == valueShapedInputs().end()) return std::vector<bool>(n, true);
  std::vector<bool> shaped(n);
  for (size_t k : it->second) {
    if (k < n) shaped[k] = true;
  }
  return shaped;
}

std::vector<std::string> dimsText(const std::vector<int64_t>& shape) {
  std::vector<std::string> dims;
  for (int64_t d : shape) dims.push_back(std::to_string(d));
  return dims;
}

std::string listText(const std::vector<std::string>& dims) {
  std::string out = "[";
  for (size_t k = 0; k < dims.size(); ++k)
    out += (k ? ", " : "") + (dims[k].empty() ? "?" : dims[k]);
  return out + "]";
}

// Whether an inferred shape (numbers, or symbols for what inference could not work out) admits
// the shape a run produced.
bool agrees(const std::vector<std::string>& inferred, const std::vector<std::string>& run) {
  if (inferred.size() != run.size()) return false;
  for (size_t d = 0; d < run.size(); ++d) {
    if (!ir::isSymbolicDim(inferred[d]) && inferred[d] != run[d]) return false;
  }
  return true;
}

bool isShapeOf(const ir::Node& node) {
  return node.op() == ir::Opcode::kCallFunction &&
         (node.target() == "onnx.Shape" || node.target() == "onnx.Size");
}

// Records the values every call node produces; the run itself is the interpreter's.
class Recorder : public exec::Interpreter {
 public:
  using exec::Interpreter::Interpreter;
  std::unordered_map<const ir::Node*, std::vector<std::pair<ir::DType, std::vector<int64_t>>>>
      produced;
  std::unordered_map<const ir::Node*, exec::Value> shape_values;  // what Shape and Size gave

 protected:
  std::vector<exec::Value> runNode(const ir::Node& node,
                                   std::vector<const exec::Value*> inputs) override {
    std::vector<exec::Value> out = exec::Interpreter::runNode(node, std::move(inputs));
    auto& record = produced[&node];
    for (const exec::Value& value : out) record.emplace_back(value.dtype, value.shape);
    if (isShapeOf(node) && out.size() == 1) shape_values.emplace(&node, out[0]);
    return out;
  }
};

}  // namespace

Expected<ShapePropReport> propagateShapes(ir::GraphModule& gm, std::vector<exec::Value> inputs) {
  Recorder recorder(gm, exec::Backend::kCpu);
  std::string missing;  // before running: a model that cannot run to its end proves nothing
  if (!recorder.supported(missing)) return Error{"node " + missing + " has no CPU kernel"};
  auto ran = recorder.run(std::move(inputs));
  if (!ran) return Error{ran.error()};

  // data: the value depends on the inputs' values (not only on their shapes). unproven: the
  // value's shape depends on the example's values, so the run proves nothing about it.
  std::unordered_set<const ir::Node*> data, unproven;
  ShapePropReport report;
  for (ir::Node* node : gm.graph()) {
    const ir::Node* source = node;  // the node whose outputs hold this value
    size_t index = 0;
    switch (node->op()) {
      case ir::Opcode::kPlaceholder:
        data.insert(node);
        continue;
      case ir::Opcode::kGetAttr:
      case ir::Opcode::kOutput:
        continue;
      default:
        break;
    }
    std::vector<bool> shaping = valueShapedArgs(gm, *node);
    bool any_data = false, shaped_by_data = false, shaped_by_unproven = false;
    size_t k = 0;
    for (const ir::Argument& arg : node->args()) {
      bool is_data = false;
      ir::visitNodes(arg, [&](const ir::Node* input) {
        is_data = is_data || data.count(input);
        shaped_by_unproven = shaped_by_unproven || unproven.count(input);
      });
      any_data = any_data || is_data;
      if (is_data && (k >= shaping.size() || shaping[k])) shaped_by_data = true;
      ++k;
    }
    for (const auto& [key, value] : node->kwargs()) {  // subgraph captures: values, unknown use
      ir::visitNodes(value, [&](const ir::Node* input) {
        shaped_by_data = shaped_by_data || data.count(input);
        shaped_by_unproven = shaped_by_unproven || unproven.count(input);
      });
    }
    bool shape_only = isShapeOf(*node);
    if (node->target() == "operator.getitem") {
      source = node->args().at(0).toNode();
      index = static_cast<size_t>(node->args().at(1).toInt());
      shaped_by_data = unproven.count(source) > 0;
    }
    // A random op's value changes from run to run like an input's.
    if ((any_data && !shape_only) || ir::isRandom(*node)) data.insert(node);
    if (shaped_by_data || shaped_by_unproven) {
      unproven.insert(node);
      if (!node->meta.shape) ++report.unproven;
      continue;
    }
    if (shape_only) {
      auto value = recorder.shape_values.find(node);
      if (value != recorder.shape_values.end())
        report.shape_values.emplace_back(node, value->second);
    }
    auto it = recorder.produced.find(source);
    if (it == recorder.produced.end() || index >= it->second.size()) continue;
    const auto& [dtype, shape] = it->second[index];
    // A node read through getitem is a tuple (its items get the shapes); any other node's value
    // is its first output, as the interpreter passes it on.
    bool tuple = std::any_of(node->users().begin(), node->users().end(), [](const ir::Node* user) {
      return user->target() == "operator.getitem";
    });
    if (source != node || !tuple) {
      std::vector<std::string> dims = dimsText(shape);
      if (!node->meta.shape) {
        node->meta.shape = dims;
        ++report.filled;
      } else if (!agrees(*node->meta.shape, dims)) {
        report.disagreements.push_back(node->name() + ": ONNX " + listText(*node->meta.shape) +
                                       ", run " + listText(dims));
      } else if (*node->meta.shape != dims) {
        // The inputs' dimensions are all known here, so a symbol ONNX left ("unk__0") is a
        // dimension it could not work out: the run's number replaces it.
        node->meta.shape = dims;
        ++report.filled;
      }
      if (node->meta.dtype.empty()) node->meta.dtype = std::string(ir::dtypeName(dtype));
    }
  }
  return report;
}

}  // namespace fxc::passes

namespace fxc::passes {
namespace {

// As a pass (`--pass shape-prop`, then `--shapes` shows them): the example is seeded random data
// of the inputs' declared shapes, so every input dimension must be a number.
Expected<PassResult> runPass(ir::GraphModule& gm, const Options& options) {
  for (const ir::Node* node : gm.graph()) {
    if (node->op() != ir::Opcode::kPlaceholder || !node->meta.shape) continue;
    for (const std::string& dim : *node->meta.shape) {
      if (ir::isSymbolicDim(dim))
        return Error{"it runs the model on its declared input shapes, and input " + node->name() +
                     " has the symbolic dimension '" + dim +
                     "' (fxc trace --shapes --shape NAME=D0,D1,... runs it on given ones)"};
    }
  }
  auto inputs = exec::randomInputs(gm, static_cast<uint64_t>(options.getInt("seed")), {});
  if (!inputs) return Error{inputs.error()};
  auto report = propagateShapes(gm, inputs.take());
  if (!report) return Error{report.error()};
  if (!report.value().disagreements.empty())
    return Error{"ONNX's shape inference and the run disagree: " +
                 report.value().disagreements.front()};
  PassResult result;
  result.add("shaped", static_cast<int64_t>(report.value().filled));
  result.add("value-dependent", static_cast<int64_t>(report.value().unproven));
  return result;
}

PassInfo info() {
  PassInfo pass{"shape-prop",
                "runs the model on seeded inputs of its declared shapes and records the shapes "
                "ONNX's inference could not find (torch.fx's ShapeProp)",
                {{"seed", OptionKind::kInt, "0", "seed of the random inputs"}},
                runPass};
  pass.needs_shapes = true;
  return pass;
}

RegisterPass registration{info()};

}  // namespace
}  // namespace fxc::passes
