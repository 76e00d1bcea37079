// dce: dead-code elimination.
//
//   %y = f(%x)   with no users and f pure   ⇒   (removed), repeatedly, last to first
//
// Purity is ir::isImpure's explicit table (placeholders, outputs, calls with side effects stay).
// Then the modules no call_module reaches and the tensors no node reads go too.
#include <unordered_set>

#include "passes/registry.h"

namespace fxc::passes {
namespace {

// Removes what `used` does not name below `module` (whose path is `prefix`); returns the counts.
void prune(ir::Module& module, const std::string& prefix,
           const std::unordered_set<std::string>& used, bool called, PassResult& result) {
  auto pathOf = [&](const std::string& name) {
    return prefix.empty() ? name : prefix + "." + name;
  };
  for (const auto& [name, child] : module.children()) {
    std::string path = pathOf(name);
    if (used.count(path)) prune(*child, path, used, used.count("call:" + path) != 0, result);
  }
  auto count = [&](const char* what, size_t n) {
    if (n > 0) result.add(what, static_cast<int64_t>(n));
  };
  count("modules", module.removeChildrenIf(
                       [&](const std::string& name) { return !used.count(pathOf(name)); }));
  if (called) return;  // a called module needs all its tensors
  count("tensors", module.removeTensorsIf([&](const std::string& name) {
    return !used.count("tensor:" + pathOf(name));
  }));
}

Expected<PassResult> run(ir::GraphModule& gm, const Options&) {
  PassResult result;
  size_t before = gm.graph().size();
  gm.graph().eliminateDeadCode();
  result.add("nodes", static_cast<int64_t>(before - gm.graph().size()));
  // Every module path that is called or holds a read tensor, with its ancestors.
  std::unordered_set<std::string> used;
  auto keepPath = [&](const std::string& path) {
    for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1))
      used.insert(path.substr(0, dot));
    used.insert(path);
  };
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kCallModule) {
      keepPath(node->target());
      used.insert("call:" + node->target());
    } else if (node->op() == ir::Opcode::kGetAttr) {
      size_t dot = node->target().rfind('.');
      if (dot != std::string::npos) keepPath(node->target().substr(0, dot));
      used.insert("tensor:" + node->target());
    }
  }
  prune(gm.root(), "", used, false, result);
  return result;
}

RegisterPass registration{
    {"dce",
     "dead-code elimination: unused pure nodes, then unreachable modules and tensors",
     {},
     run}};

}  // namespace
}  // namespace fxc::passes
