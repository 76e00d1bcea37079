#include "onnx/scopes.h"

#include <unordered_map>
#include <unordered_set>

#include "onnx/node_info.h"
#include "onnx/op_table.h"
#include "onnx/recognize.h"

namespace fxc::onnx {

using ::onnx::NodeProto;
namespace {

constexpr int kLargestGroup = 9;  // LayerNorm's decomposition

}  // namespace

ScopeIndex::ScopeIndex(const ::onnx::GraphProto& graph, const std::vector<int>& order) {
  for (int i : order) {
    const ::onnx::NodeProto& node = graph.node(i);
    if (mayAliasConstant(node)) continue;
    std::string_view key = scopeKey(node.name());
    if (key.empty()) continue;
    for (size_t slash = key.find('/', 1); slash != std::string_view::npos;
         slash = key.find('/', slash + 1))
      has_children_[key.substr(0, slash)] = true;
    ++ops_[key];
  }
}

int ScopeIndex::opCount(std::string_view key) const {
  const int* count = ops_.find(key);
  return count ? *count : 0;  // an Identity of a value is traced but not counted
}

bool ScopeIndex::isSingleOpLeaf(std::string_view key) const {
  return !key.empty() && !hasChildren(key) && opCount(key) == 1;
}

std::vector<std::vector<int>> findModuleGroups(
    const ::onnx::GraphProto& graph, const std::vector<int>& order, const ScopeIndex& scopes,
    const std::function<int(std::string_view)>& producer,
    const std::function<bool(const ::onnx::NodeProto&)>& leaf_call) {
  std::vector<std::vector<int>> groups;
  ir::FlatMap<std::string_view, bool> constant_values;
  for (const auto& init : graph.initializer()) constant_values[init.name()] = true;
  ir::FlatMap<std::string_view, std::vector<int>> by_scope;
  std::vector<size_t> position(static_cast<size_t>(graph.node_size()));
  for (size_t p = 0; p < order.size(); ++p) {
    int i = order[p];
    position[static_cast<size_t>(i)] = p;
    const NodeProto& node = graph.node(i);
    if (mayAliasConstant(node) && node.output_size() == 1 &&
        (node.op_type() == "Constant" ||
         (node.input_size() == 1 && constant_values.count(node.input(0))))) {
      constant_values[node.output(0)] = true;
      continue;
    }
    std::string_view key = scopeKey(node.name());
    if (key.empty() || scopes.hasChildren(key) || scopes.opCount(key) > kLargestGroup) continue;
    by_scope[key].push_back(i);
  }
  // Cheap test first: only decompositions of torch.nn modules are leaves; a custom module is
  // traced through, as torch.fx does.
  std::vector<std::vector<int>> candidates;
  by_scope.forEach([&](std::string_view, const std::vector<int>& members) {
    std::vector<std::string> ops;
    bool has_weight = false;
    for (int i : members) {
      const NodeProto& node = graph.node(i);
      ops.push_back(node.op_type());
      for (const auto& input : node.input())
        has_weight = has_weight || constant_values.count(input);
    }
    if (!candidateModuleType(ops, has_weight).empty()) candidates.push_back(members);
  });
  if (candidates.empty()) return groups;
  std::unordered_map<std::string_view, std::vector<int>> consumers;
  for (int i : order) {
    const NodeProto& node = graph.node(i);
    for (const auto& input : node.input()) consumers[input].push_back(i);
    // A control-flow op reads the outer values its subgraphs use too (an If's branch reading
    // a value inside the group: the group is not closed).
    if (hasSubgraphs(node)) {
      for (std::string_view captured : capturesOf(node)) consumers[captured].push_back(i);
    }
  }
  std::unordered_set<std::string> graph_outputs;
  for (const auto& output : graph.output()) graph_outputs.insert(output.name());
  // Then the region must be closed: one value used outside, every input defined before it.
  for (const auto& members : candidates) {
    std::unordered_set<int> inside(members.begin(), members.end());
    std::unordered_set<std::string> produced;
    bool ok = true;
    for (int i : members) {
      const NodeProto& node = graph.node(i);
      ok = ok && isDefaultDomain(node.domain()) && !hasSubgraphs(node) && node.output_size() == 1 &&
           !leaf_call(node);
      for (const auto& output : node.output()) produced.insert(output);
    }
    size_t first = position[static_cast<size_t>(members.front())];
    for (int i : members) {
      for (const auto& input : graph.node(i).input()) {
        if (input.empty() || produced.count(input) || constant_values.count(input)) continue;
        int from = producer(input);
        if (from >= 0 && position[static_cast<size_t>(from)] > first) ok = false;
      }
    }
    std::unordered_set<std::string> external_outputs;
    for (const auto& value : produced) {
      if (graph_outputs.count(value)) external_outputs.insert(value);
      for (int user : consumers[value]) {
        if (!inside.count(user)) external_outputs.insert(value);
      }
    }
    // ... and that value is the last op's: the module replaces that op, and the others are
    // erased (a LayerNorm whose result nobody reads but whose Pow a later op does: erased, the
    // later op read a freed node).
    const NodeProto& last = graph.node(members.back());
    if (!ok || external_outputs.size() != 1 || last.output_size() != 1 ||
        !external_outputs.count(last.output(0)))
      continue;
    groups.push_back(members);
  }
  return groups;
}

}  // namespace fxc::onnx
