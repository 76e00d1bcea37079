// cse: common subexpression elimination — identical nodes on identical inputs become one.
//
//   %a = f(%x, %y){k}; %b = f(%x, %y){k}    ⇒   uses of %b read %a
//
// Identical: the same opcode, target (function, module path, or get_attr tensor), arguments
// (the same nodes, the same literals), kwargs, tensor-valued attributes byte for byte, and the
// same subgraphs (a control-flow op's kwargs only summarize them: two Ifs on one condition
// whose branches differ are two values).
// Never merged: placeholders, outputs, impure calls and random ops (two draws are two values).
// The first node stays, with its name; a merged node's value name is lost only where it was not
// a graph output (export writes the outputs' names either way).
#include <spdlog/spdlog.h>

#include <cstdint>
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
  return key;
}

bool mergeable(const ir::Node& node) {
  return !ir::isImpure(node) && !ir::isRandom(node) && node.op() != ir::Opcode::kCallMethod;
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
