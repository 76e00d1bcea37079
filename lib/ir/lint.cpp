#include "ir/lint.h"

#include <algorithm>
#include <unordered_set>

#include "ir/graph_module.h"

namespace fxc::ir {
namespace {

bool references(const Node& user, const Node* input) {
  bool found = false;
  auto check = [&](Node* n) { found = found || n == input; };
  for (const Argument& arg : user.args()) arg.forEachNode(check);
  for (const auto& [key, arg] : user.kwargs()) arg.forEachNode(check);
  return found;
}

std::string checkTarget(const Node& node, const GraphModule& owner) {
  const std::string& target = node.target();
  const Module* module = &owner.root();
  std::string seen;
  size_t start = 0;
  while (true) {
    size_t dot = target.find('.', start);
    std::string atom = target.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    bool last = dot == std::string::npos;
    const Module* child = module->child(atom);
    bool is_tensor = module->tensor(atom) != nullptr;
    if (!child && !is_tensor) {
      return "Node " + node.name() + " target " + target + " references nonexistent attribute " +
             atom + " of " + seen;
    }
    if (node.op() == Opcode::kCallModule && !child) {
      return "Node " + node.name() + " target " + target + " " + atom + " of " + seen +
             " does not reference an nn.Module";
    }
    if (last) return "";
    if (!child) {
      return "Node " + node.name() + " target " + target + " references nonexistent attribute " +
             target.substr(dot + 1) + " of " + target.substr(0, dot);
    }
    module = child;
    seen = target.substr(0, dot);
    start = dot + 1;
  }
}

}  // namespace

std::string lintGraph(const Graph& graph, const GraphModule* owner) {
  // The list itself: every link symmetric, every node owned, the count right.
  size_t count = 0;
  for (const Node* node = graph.root_->next_; node != graph.root_; node = node->next_) {
    if (node->next_->prev_ != node || node->prev_->next_ != node)
      return "Node '" + node->name() + "' has inconsistent list links";
    if (node->graph_ != &graph) return "Node '" + node->name() + "' does not belong to this Graph!";
    if (++count > graph.size_) break;
  }
  if (count != graph.size_) return "Graph lists " + std::to_string(count) + " nodes but counts " +
                                   std::to_string(graph.size_);

  std::unordered_set<const Node*> seen_values;
  std::unordered_set<std::string> seen_names;
  seen_values.reserve(graph.size());
  seen_names.reserve(graph.size());
  size_t outputs = 0;
  for (const Node* node : graph) {
    if (static_cast<size_t>(node->op()) > static_cast<size_t>(Opcode::kOutput))
      return "Node " + node->name() + " had unknown opcode " +
             std::to_string(static_cast<int>(node->op())) + "!";
    std::string problem;
    auto check_arg = [&](Node* arg) {
      if (!problem.empty()) return;
      if (arg->graph() != &graph) {
        problem = "Argument '" + arg->name() + "' of Node '" + node->name() +
                  "' does not belong to this Graph, but was used as an argument!";
      } else if (!seen_values.count(arg)) {
        problem = "Argument '" + arg->name() + "' of Node '" + node->name() +
                  "' was used before it has been defined! Please check that Nodes in the graph "
                  "are topologically ordered";
      } else if (std::count(arg->users().begin(), arg->users().end(), node) != 1) {
        problem = "Node '" + arg->name() + "' is an argument of '" + node->name() +
                  "' but does not list it as a user exactly once";
      }
    };
    for (const Argument& arg : node->args()) arg.forEachNode(check_arg);
    for (const auto& [key, arg] : node->kwargs()) arg.forEachNode(check_arg);
    if (!problem.empty()) return problem;
    for (const Node* user : node->users()) {
      if (user->graph() != &graph || !references(*user, node))
        return "Node '" + node->name() + "' lists '" + user->name() +
               "' as a user, but it does not use it";
    }
    seen_values.insert(node);
    if (!seen_names.insert(node->name()).second) return "Node redefined name " + node->name() + "!";
    if (node->op() == Opcode::kOutput && ++outputs > 1) return "Graph has more than one output node";
    if (node->target().empty())
      return "Node " + node->name() + " target is empty but a " +
             (node->op() == Opcode::kCallFunction ? "Callable" : "str") + " is expected";
  }

  if (owner) {
    for (const Node* node : graph) {
      if (node->op() != Opcode::kCallModule && node->op() != Opcode::kGetAttr) continue;
      std::string problem = checkTarget(*node, *owner);
      if (!problem.empty()) return problem;
    }
  }
  return "";
}

}  // namespace fxc::ir
