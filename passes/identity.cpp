// identity: removes ops that pass their input through at inference.
//
//   %y = Identity(%x)            ⇒  uses of %y read %x
//   %y = Dropout(%x[, ratio])    ⇒  uses of %y read %x      (inference; mask unused)
//   %y = self.drop(%x)           ⇒  uses of %y read %x      (Dropout / Identity modules)
//   %y = Pad(%x, pads = 0...)    ⇒  uses of %y read %x      (constant pads, every one 0: any mode)
//
// Refuses a Dropout whose mask is read, or that may train: a training_mode input that is not a
// constant false, unless its ratio is a constant 0.0 (then it passes its input through anyway).
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

// A one-element constant whose bytes are all zero, of `dtype`: a training_mode of false (as
// when it is absent), or a ratio of exactly 0.0 (nothing dropped, nothing scaled, even when
// training: torchvision's Swin exports its attention dropouts so).
bool constantZero(const ir::GraphModule& gm, const ir::Argument& arg, ir::DType dtype) {
  if (!arg.isNode() || arg.toNode()->op() != ir::Opcode::kGetAttr) return false;
  auto tensor = gm.findTensor(arg.toNode()->target());
  if (!tensor || tensor->dtype != dtype || tensor->numel() != 1) return false;
  for (size_t k = 0; k < tensor->byteSize(); ++k) {
    if (tensor->bytes()[k] != 0) return false;
  }
  return true;
}

// Why the node cannot go, or "" when it can.
std::string refusal(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.args().empty() || !node.args()[0].isNode()) return "its input is not a value";
  if (isPad(node)) return "";
  bool no_ratio = node.args().size() >= 2 && constantZero(gm, node.args()[1], ir::DType::kFloat32);
  if (node.args().size() >= 3 && !node.args()[2].isNone() && !no_ratio &&
      !constantZero(gm, node.args()[2], ir::DType::kBool))
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
