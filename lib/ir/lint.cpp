#include "ir/lint.h"

#include <algorithm>
#include <unordered_set>

#include "ir/flat_map.h"
#include "ir/graph_module.h"

namespace fxc::ir {
namespace {

bool references(const Node& user, const Node* input) {
  bool found = false;
  auto check = [&](Node* n) { found = found || n == input; };
  for (const Argument& arg : user.args()) visitNodes(arg, check);
  for (const auto& [key, arg] : user.kwargs()) visitNodes(arg, check);
  return found;
}

std::string checkTarget(const Node& node, const GraphModule& owner) {
  const std::string& target = node.target();
  const Module* module = &owner.root();
  std::string seen;
  size_t start = 0;
  while (true) {
    size_t dot = target.find('.', start);
    std::string atom =
        target.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
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
  if (count != graph.size_)
    return "Graph lists " + std::to_string(count) + " nodes but counts " +
           std::to_string(graph.size_);

  // A node is "defined" once visited in this epoch: O(1) without a set of a million pointers.
  const uint64_t epoch = ++graph.lint_epoch_;
  FlatMap<std::string_view, bool> seen_names;
  seen_names.reserve(graph.size());
  std::vector<Node*> inputs;
  size_t outputs = 0;
  size_t input_edges = 0;  // distinct (input, user) pairs, from args and kwargs
  size_t user_edges = 0;   // entries in users lists
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
      } else if (arg->lint_mark_ != epoch) {
        problem = "Argument '" + arg->name() + "' of Node '" + node->name() +
                  "' was used before it has been defined! Please check that Nodes in the graph "
                  "are topologically ordered";
      }
    };
    inputs.clear();
    auto collect = [&](Node* arg) {
      check_arg(arg);
      if (std::find(inputs.begin(), inputs.end(), arg) == inputs.end()) inputs.push_back(arg);
    };
    for (const Argument& arg : node->args()) visitNodes(arg, collect);
    for (const auto& [key, arg] : node->kwargs()) visitNodes(arg, collect);
    if (!problem.empty()) return problem;
    input_edges += inputs.size();
    // Each user once, and each really a user: O(users) with a set only for long lists.
    const auto& users = node->users();
    user_edges += users.size();
    FlatMap<const Node*, bool> distinct;
    for (size_t i = 0; i < users.size(); ++i) {
      const Node* user = users[i];
      bool repeated = users.size() > 16
                          ? !distinct.emplace(user, true).second
                          : std::find(users.begin(), users.begin() + static_cast<std::ptrdiff_t>(i),
                                      user) != users.begin() + static_cast<std::ptrdiff_t>(i);
      if (repeated)
        return "Node '" + node->name() + "' lists '" + user->name() + "' as a user twice";
      if (user->graph() != &graph || !references(*user, node))
        return "Node '" + node->name() + "' lists '" + user->name() +
               "' as a user, but it does not use it";
    }
    node->lint_mark_ = epoch;
    if (!seen_names.emplace(node->name(), true).second)
      return "Node redefined name " + node->name() + "!";
    if (node->op() == Opcode::kOutput && ++outputs > 1)
      return "Graph has more than one output node";
    if (node->target().empty())
      return "Node " + node->name() + " target is empty but a " +
             (node->op() == Opcode::kCallFunction ? "Callable" : "str") + " is expected";
  }
  if (input_edges != user_edges) {
    // Some argument is missing from its input's users: find it (only on this failure path).
    for (const Node* node : graph) {
      for (Node* input : node->inputNodes()) {
        const auto& users = input->users();
        if (std::find(users.begin(), users.end(), node) == users.end())
          return "Node '" + input->name() + "' is an argument of '" + node->name() +
                 "' but does not list it as a user";
      }
    }
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
