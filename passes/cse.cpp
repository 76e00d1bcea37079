// cse: common subexpression elimination — identical nodes on identical inputs become one.
//
//   %a = f(%x, %y){k}; %b = f(%x, %y){k}    ⇒   uses of %b read %a
//
// Identical: the same opcode, target (function, module path, or get_attr tensor), arguments
// (the same nodes, the same literals), kwargs, tensor-valued attributes byte for byte, and the
// same subgraphs (a control-flow op's kwargs only summarize them: two Ifs on one condition
// whose branches differ are two values), and both read as a tuple (through getitem) or both not.
// Never merged: placeholders, outputs, impure calls, random ops (two draws are two values), nodes
// with an attribute the key holds only as a summary (a sparse or string tensor, a type), and
// calls of ops not known to be functions of their inputs (custom domains, local functions).
// The first node stays, with its name; a merged node's value name is lost only where it was not
// a graph output (export writes the outputs' names either way).
#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "ir/printers.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

std::string keyOf(const ir::Node& node) {
  std::string key = std::string(ir::opcodeName(node.op())) + "|" + node.target() + "|" +
                    ir::pyRepr(node.args()) + "|" + ir::pyRepr(node.kwargs());
  for (const auto& [name, tensor] : node.meta.tensor_attributes) {
    key += "|" + name + ":" + std::to_string(static_cast<int>(tensor->dtype)) + ":";
    for (int64_t d : tensor->dims) key += std::to_string(d) + ",";
    key.append(tensor->bytes(), tensor->byteSize());
  }
  for (const ir::Subgraph& subgraph : node.meta.subgraphs) {  // the same graph objects, shared
    key += "|" + subgraph.attribute + "@" +
           std::to_string(reinterpret_cast<uintptr_t>(subgraph.graph.get()));
  }
  // A node read through getitem produces a tuple (a MaxPool with its indices); one read directly
  // is one value (a MaxPool without): merged, a reader of the value would read the tuple.
  for (const ir::Node* user : node.users()) {
    if (user->target() == "operator.getitem" && !user->args().empty() && user->args()[0].isNode() &&
        user->args()[0].toNode() == &node) {
      key += "|tuple";
      break;
    }
  }
  return key;
}

// A kwarg the frontend could only summarize ("<tensor float32[3]>", "<sparse_value>", a list of
// tensors, a type): its value is not in the key.
bool isSummary(const ir::Argument& value) {
  if (value.isSequence()) {
    for (const ir::Argument& item : value.items()) {
      if (isSummary(item)) return true;
    }
    return false;
  }
  if (value.kind() != ir::Argument::Kind::kString) return false;
  const std::string& text = value.toString();
  return text.size() >= 2 && text.front() == '<' && text.back() == '>';
}

// Whether the key holds every attribute's whole value: a summarized kwarg only when it is a
// tensor attribute whose elements are bytes in the key (numbers; a string tensor's are not).
bool keyIsWhole(const ir::Node& node) {
  for (const auto& [name, value] : node.kwargs()) {
    if (!isSummary(value)) continue;
    bool whole = false;
    for (const auto& [tensor_name, tensor] : node.meta.tensor_attributes) {
      if (tensor_name != name) continue;
      size_t width = ir::dtypeSize(tensor->dtype);
      whole = width > 0 && tensor->numel() >= 0 &&
              tensor->byteSize() == static_cast<size_t>(tensor->numel()) * width;
    }
    if (!whole) return false;
  }
  for (const auto& [name, tensor] : node.meta.tensor_attributes) {
    if (ir::dtypeSize(tensor->dtype) == 0) return false;
  }
  return true;
}

// A call of an op whose value is a function of its inputs (unless isRandom says otherwise): an
// op of ONNX's default domain (the frontend's onnx.*, torch.* and operator.* targets: a model's
// own domain of those names is refused when traced), Microsoft's contrib ops, fxc's own. A
// custom domain's op or a model's local function is not known to be (its body may draw random
// numbers), so it is never merged.
bool knownOp(const ir::Node& node) {
  if (node.op() != ir::Opcode::kCallFunction) return true;
  const std::string& target = node.target();
  for (const char* prefix : {"onnx.", "torch.", "operator.", "com.microsoft.", "fxc."}) {
    if (target.compare(0, std::strlen(prefix), prefix) == 0) return true;
  }
  return false;
}

bool mergeable(const ir::Node& node) {
  return !ir::isImpure(node) && !ir::isRandom(node) && node.op() != ir::Opcode::kCallMethod &&
         knownOp(node) && keyIsWhole(node);
}

Expected<PassResult> run(ir::GraphModule& gm, const Options&) {
  PassResult result;
  std::unordered_map<std::string, ir::Node*> seen;
  std::vector<ir::Node*> nodes;
  for (ir::Node* node : gm.graph()) nodes.push_back(node);
  for (ir::Node* node : nodes) {  // graph order: a node's inputs are merged before it is keyed
    if (!mergeable(*node)) continue;
    auto [it, fresh] = seen.emplace(keyOf(*node), node);
    if (fresh) continue;
    node->replaceAllUsesWith(it->second);
    gm.graph().eraseNode(node);
    result.add("merged");
  }
  return result;
}

RegisterPass registration{
    {"cse", "merges identical nodes on identical inputs (common subexpressions)", {}, run}};

}  // namespace
}  // namespace fxc::passes
