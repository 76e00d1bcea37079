// A node of the FX graph: torch.fx's Node (op, name, target, args, kwargs, users, meta).
#pragma once

#include <any>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/argument.h"

namespace fxc::ir {

class Graph;
class GraphModule;
class Tensor;

enum class Opcode : uint8_t {
  kPlaceholder,
  kGetAttr,
  kCallFunction,
  kCallModule,
  kCallMethod,
  kOutput,
};

std::string_view opcodeName(Opcode op);
std::optional<Opcode> opcodeFromName(std::string_view name);

// A dimension of Meta::shape that is not a number: a symbol ("N") or unknown (""). Tensor
// shapes elsewhere are int64; only shapes as the model declares them can hold symbols.
inline bool isSymbolicDim(const std::string& dim) {
  return dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos;
}

// A Meta::shape's dimensions as numbers when every one is known (and fits int64), else nothing.
inline std::optional<std::vector<int64_t>> knownDims(
    const std::optional<std::vector<std::string>>& shape) {
  if (!shape) return std::nullopt;
  std::vector<int64_t> dims;
  for (const std::string& d : *shape) {
    if (isSymbolicDim(d) || d.size() > 18) return std::nullopt;
    dims.push_back(std::stoll(d));
  }
  return dims;
}

// A graph-valued attribute of a node, as its own GraphModule (see Meta::subgraphs).
struct Subgraph {
  std::string attribute;                     // "then_branch", "body", ...
  std::shared_ptr<const GraphModule> graph;  // nullptr when it could not be traced
  std::string error;                         // why, when it could not
};

// What passes and frontends record about a node's value. The frontend keeps its export record
// (the model's ops, written back verbatim while the node still is them) in `source`, opaque to
// passes; everything a pass reads or writes is typed here.
struct Meta {
  std::string dtype;                              // "float32", ... ; empty when unknown
  std::optional<std::vector<std::string>> shape;  // dims as text ("1", "N"); nullopt when unknown
  // Attributes whose value is a tensor (ONNX ConstantOfShape's `value`): the kwargs print a
  // summary, the executor reads the tensor here.
  std::vector<std::pair<std::string, std::shared_ptr<const Tensor>>> tensor_attributes;
  // The subgraphs of a control-flow op (ONNX If's then_branch/else_branch, Loop's and Scan's
  // body), traced by the frontend into graphs of their own, in the node's attribute order. Each
  // graph's placeholders are its formal inputs, then one per item of the node's `captures` kwarg,
  // in that order (every subgraph of the node takes all of them): the executor runs it on the
  // values the node passes. A subgraph the frontend could not trace has no graph and says why.
  std::vector<Subgraph> subgraphs;
  std::any source;
  // Provenance, the IR's own: the model's name for the value this node produces (what export
  // keeps, so that consumers of the written model find it), the model's op the node was made
  // from when it is one op ("Gemm"), and how many of the model's ops it stands for (0: made by a
  // pass; more than 1: a recognized group).
  std::string value_name;
  std::string source_op;
  int source_ops = 0;
};

class Node;
// Given: `node` rewritten by a pass to compute `old`'s value (a fusion's survivor, a quantized
// replacement). Does: it takes over `old`'s value name, and stops being any of the model's ops
// (export writes it from its target or module). Then: a written model keeps the value's name.
void takeOverValue(Node& node, const Node& old);

class Node {
 public:
  Opcode op() const { return op_; }
  const std::string& name() const { return name_; }
  const std::string& target() const { return target_; }
  const std::vector<Argument>& args() const { return args_; }
  const Kwargs& kwargs() const { return kwargs_; }
  // Nodes that take this one as an input, each once, in the order they started using it.
  const std::vector<Node*>& users() const { return users_; }
  Graph* graph() const { return graph_; }
  Node* next() const { return next_; }
  Node* prev() const { return prev_; }

  // Input nodes in map_arg order (args, then kwargs), each once.
  std::vector<Node*> inputNodes() const;
  const Argument* kwarg(std::string_view key) const;

  // Given: %u = f(%a, %b). Does: sets the arguments and moves `users` edges to match.
  // Then: %u = f(<new args>); the old inputs no longer list %u as a user unless still used.
  void setArgs(std::vector<Argument> args);
  void setKwargs(Kwargs kwargs);
  // Given: %u = f(%old, %old, %c). Does: replaces every reference to `old` in args and kwargs.
  // Then: %u = f(%new, %new, %c); %old loses %u as a user, %new gains it.
  void replaceInputWith(Node* old_input, Node* new_input);
  // Given: %3 = f(%1); %4 = g(%3); %5 = h(%3). Does: every user of %3 now uses `replacement`.
  // Then: %4 = g(%2); %5 = h(%2); %3 has no users. Returns the users that changed.
  std::vector<Node*> replaceAllUsesWith(Node* replacement);
  void setTarget(std::string target) { target_ = std::move(target); }
  // Raw rename, as torch.fx's writable node.name: uniqueness is lint's to check. Prefer
  // creating names through the graph's NameSpace.
  void setName(std::string name) { name_ = std::move(name); }

  Meta meta;

 private:
  friend class Graph;
  friend struct NodeTestAccess;  // unit tests corrupt users_ to prove lint catches it
  friend std::string lintGraph(const Graph&, const GraphModule*);

  Node() = default;
  void detachInputs();
  void attachInputs();

  Opcode op_ = Opcode::kPlaceholder;
  std::string name_;
  std::string target_;
  std::vector<Argument> args_;
  Kwargs kwargs_;
  std::vector<Node*> users_;
  Graph* graph_ = nullptr;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
  mutable uint64_t lint_mark_ = 0;  // lint's "defined already" mark, valid for one lint epoch
};

// Whether `node` is a call_function of `target` (false for nullptr): what passes match ops by.
inline bool isCall(const Node* node, const char* target) {
  return node && node->op() == Opcode::kCallFunction && node->target() == target;
}

}  // namespace fxc::ir
