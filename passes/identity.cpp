// identity: removes ops that pass their input through at inference.
//
//   %y = Identity(%x)            ⇒  uses of %y read %x
//   %y = Dropout(%x[, ratio])    ⇒  uses of %y read %x      (inference; mask unused)
//   %y = self.drop(%x)           ⇒  uses of %y read %x      (Dropout / Identity modules)
//
// Refuses a Dropout whose mask is read or whose training_mode input is given.
#include <spdlog/spdlog.h>

#include "passes/registry.h"

namespace fxc::passes {
namespace {

bool isPassThrough(const ir::GraphModule& gm, const ir::Node& node) {
  if (node.op() == ir::Opcode::kCallFunction)
    return node.target() == "onnx.Identity" || node.target() == "torch.nn.functional.dropout";
  if (node.op() == ir::Opcode::kCallModule) {
    const ir::Module* module = gm.findModule(node.target());
    return module && (module->type() == "Dropout" || module->type() == "Identity");
  }
  return false;
}

// Why the node cannot go, or "" when it can.
std::string refusal(const ir::Node& node) {
  if (node.args().empty() || !node.args()[0].isNode()) return "its input is not a value";
  if (node.args().size() >= 3 && !node.args()[2].isNone()) return "it has a training_mode input";
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
    std::string why = refusal(*node);
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
    {"identity", "removes Identity, inference Dropout and other pass-through ops", {}, run}};

}  // namespace
}  // namespace fxc::passes
