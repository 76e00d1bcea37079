// identity: removes ops that pass their input through at inference.
//
//   %y = Identity(%x)            ⇒  uses of %y read %x
//   %y = Dropout(%x[, ratio])    ⇒  uses of %y read %x      (inference; mask unused)
//   %y = self.drop(%x)           ⇒  uses of %y read %x      (Dropout / Identity modules)
//   %y = Pad(%x, pads = 0...)    ⇒  uses of %y read %x      (constant pads, every one 0: any mode)
//
// Refuses a Dropout whose mask is read, or that may train: a training_mode (an input, or a
// Dropout module's buffer) that is not a constant false, unless its ratio is a constant 0.0 (then
// it passes its input through anyway), or opset 6's is_test of 0.
#include <spdlog/spdlog.h>

#include "passes/registry.h"

namespace fxc::passes {
namespace {

bool isPad(const ir::Node& node) {
  return node.op() == ir::Opcode::kCallFunction && node.target() == "torch.nn.functional.pad";
}

// A Pad that adds nothing: its pads (the input from opset 11, the attribute before) are known and
// all 0. torch.onnx writes one before each AveragePool that counts padding, padded or not
// (DenseNet's transitions). A malformed Pad (pads not two per padded axis) is left for the kernel
// to refuse.
bool padsNothing(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.args().empty() || !node.args()[0].isNode()) return false;
  const auto& shape = node.args()[0].toNode()->meta.shape;
  bool axes = node.args().size() >= 4 && !node.args()[3].isNone();
  auto count_fits = [&](size_t count) {
    return count > 0 && count % 2 == 0 && (axes || !shape || count == 2 * shape->size());
  };
  if (node.args().size() >= 2) {
    const ir::Argument& pads = node.args()[1];
    if (!pads.isNode() || pads.toNode()->op() != ir::Opcode::kGetAttr) return false;
    auto tensor = gm.findTensor(pads.toNode()->target());
    if (!tensor || tensor->dtype != ir::DType::kInt64 ||
        !count_fits(static_cast<size_t>(tensor->numel())))
      return false;
    for (size_t k = 0; k < tensor->byteSize(); ++k) {
      if (tensor->bytes()[k] != 0) return false;
    }
    return true;
  }
  const ir::Argument* pads = node.kwarg("pads");
  if (!pads || !pads->isSequence() || !count_fits(pads->items().size())) return false;
  for (const ir::Argument& pad : pads->items()) {
    if (pad.kind() != ir::Argument::Kind::kInt || pad.toInt() != 0) return false;
  }
  return true;
}

bool isPassThrough(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.op() == ir::Opcode::kCallFunction)
    return node.target() == "onnx.Identity" || node.target() == "torch.nn.functional.dropout" ||
           (isPad(node) && padsNothing(gm, node));
  if (node.op() == ir::Opcode::kCallModule) {
    const ir::Module* module = gm.findModule(node.target());
    return module && (module->type() == "Dropout" || module->type() == "Identity");
  }
  return false;
}

// A one-element tensor whose bytes are all zero, of `dtype`: a training_mode of false (as when
// it is absent), or a ratio of exactly 0.0 (nothing dropped, nothing scaled, even when training:
// torchvision's Swin exports its attention dropouts so).
bool zeroScalar(const std::shared_ptr<ir::Tensor>& tensor, ir::DType dtype) {
  if (!tensor || tensor->dtype != dtype || tensor->numel() != 1 ||
      tensor->byteSize() != ir::dtypeSize(dtype))
    return false;
  for (size_t k = 0; k < tensor->byteSize(); ++k) {
    if (tensor->bytes()[k] != 0) return false;
  }
  return true;
}

// A Dropout's ratio or training_mode (ONNX input `index`, its buffer `name` in a module: the
// tracer makes one only when both are constants): kAbsent, kZero (a constant 0 / false), or
// kOther (nonzero, or not a constant).
enum class Operand { kAbsent, kZero, kOther };
Operand dropoutOperand(const ir::GraphModule& gm, const ir::Node& node, size_t index,
                       const char* name, ir::DType dtype) {
  if (node.op() == ir::Opcode::kCallModule) {
    const ir::Module* module = gm.findModule(node.target());
    if (!module || node.args().size() != 1) return Operand::kOther;
    auto tensor = module->tensor(name);
    return !tensor ? Operand::kAbsent : zeroScalar(tensor, dtype) ? Operand::kZero : Operand::kOther;
  }
  if (node.args().size() <= index || node.args()[index].isNone()) return Operand::kAbsent;
  const ir::Argument& arg = node.args()[index];
  if (!arg.isNode() || arg.toNode()->op() != ir::Opcode::kGetAttr) return Operand::kOther;
  return zeroScalar(gm.findTensor(arg.toNode()->target()), dtype) ? Operand::kZero
                                                                   : Operand::kOther;
}

// Why the node cannot go, or "" when it can.
std::string refusal(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.args().empty() || !node.args()[0].isNode()) return "its input is not a value";
  if (isPad(node)) return "";
  const ir::Module* module =
      node.op() == ir::Opcode::kCallModule ? gm.findModule(node.target()) : nullptr;
  if (module && module->type() == "Identity") return "";
  // Opsets 1 to 6 say is_test (0: training) instead of training_mode.
  const ir::Argument* is_test = module ? module->attribute("is_test") : node.kwarg("is_test");
  if (is_test && (is_test->kind() != ir::Argument::Kind::kInt || is_test->toInt() == 0))
    return "it may train: its is_test is 0";
  bool no_ratio = dropoutOperand(gm, node, 1, "ratio", ir::DType::kFloat32) == Operand::kZero;
  Operand training = dropoutOperand(gm, node, 2, "training_mode", ir::DType::kBool);
  if (training == Operand::kOther && !no_ratio)
    return "it may train: its training_mode is not a constant false and its ratio not 0";
  for (const ir::Node* user : node.users()) {
    if (user->target() == "operator.getitem" && user->args().size() == 2 &&
        user->args()[1].toInt() != 0)
      return "its mask is used";
  }
  return "";
}

Expected<PassResult> run(ir::GraphModule& gm, const Options&) {
  PassResult result;
  std::vector<ir::Node*> matches;
  for (ir::Node* node : gm.graph()) {
    if (isPassThrough(gm, *node)) matches.push_back(node);
  }
  for (ir::Node* node : matches) {
    std::string why = refusal(gm, *node);
    if (!why.empty()) {
      spdlog::debug("identity: keeping {}: {}", node->name(), why);
      result.add("kept");
      continue;
    }
    ir::Node* input = node->args()[0].toNode();
    // A Dropout with a (unused) mask output is read through getitem 0.
    for (ir::Node* user : std::vector<ir::Node*>(node->users())) {
      if (user->target() != "operator.getitem") continue;
      user->replaceAllUsesWith(input);
      gm.graph().eraseNode(user);
    }
    node->replaceAllUsesWith(input);
    gm.graph().eraseNode(node);
    result.add("removed");
  }
  return result;
}

RegisterPass registration{
    {"identity",
     "removes Identity, inference Dropout, Pad of zeros and other pass-through ops",
     {},
     run}};

}  // namespace
}  // namespace fxc::passes
