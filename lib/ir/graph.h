// torch.fx's Graph in C++: nodes in a doubly linked list around a sentinel, in topological
// order; all edits go through the mutators here and on Node, which keep `users` consistent.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/argument.h"
#include "ir/name_space.h"
#include "ir/node.h"

namespace fxc::ir {

// A broken precondition of an IR mutator (torch.fx raises RuntimeError for the same cases).
class GraphModule;

class IrError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  class Iterator {
   public:
    explicit Iterator(Node* node) : node_(node) {}
    Node* operator*() const { return node_; }
    Iterator& operator++() {
      node_ = node_->next();
      return *this;
    }
    bool operator!=(const Iterator& other) const { return node_ != other.node_; }

   private:
    Node* node_;
  };
  Iterator begin() const { return Iterator(root_->next()); }
  Iterator end() const { return Iterator(root_); }
  Node* first() const { return root_->next() == root_ ? nullptr : root_->next(); }
  Node* last() const { return root_->prev() == root_ ? nullptr : root_->prev(); }
  size_t size() const { return size_; }
  // Iterates in reverse; safe against erasing the node being visited.
  void forEachReverse(const std::function<void(Node*)>& fn);

  // Given: a graph and the insertion point (default: the end). Does: creates a node with a
  // unique name (from `name`, else from the target, torch.fx style) and links it in.
  // Then: the node's inputs list it as a user.
  Node* createNode(Opcode op, std::string target, std::vector<Argument> args = {},
                   Kwargs kwargs = {}, std::optional<std::string> name = std::nullopt);
  Node* placeholder(const std::string& name);
  Node* getAttr(const std::string& target);
  Node* callFunction(const std::string& target, std::vector<Argument> args, Kwargs kwargs = {});
  Node* callModule(const std::string& target, std::vector<Argument> args, Kwargs kwargs = {});
  Node* callMethod(const std::string& method, std::vector<Argument> args, Kwargs kwargs = {});
  Node* output(Argument result);

  // Scoped insertion point: new nodes go before/after `anchor` until the guard is destroyed.
  class InsertGuard {
   public:
    InsertGuard(Graph& graph, Node* before);
    ~InsertGuard();
    InsertGuard(const InsertGuard&) = delete;
    InsertGuard& operator=(const InsertGuard&) = delete;

   private:
    Graph& graph_;
    Node* saved_;
  };
  InsertGuard insertingBefore(Node* anchor) { return InsertGuard(*this, anchor); }
  InsertGuard insertingAfter(Node* anchor) { return InsertGuard(*this, anchor->next()); }

  // Given: %a with no users. Does: unlinks and destroys it, dropping it from its inputs' users.
  // Refuses (IrError, torch.fx's message) when the node still has users.
  void eraseNode(Node* node);
  // Given: a node of this graph. Does: moves it to just before `anchor` (torch.fx's prepend).
  void moveBefore(Node* node, Node* anchor);
  // Given: any graph. Does: removes nodes without users whose op is pure, last to first, so
  // chains of dead nodes go in one call. Then: returns whether anything was removed.
  // Purity: the table in isImpure(), plus whatever `is_impure` adds.
  bool eliminateDeadCode(const std::function<bool(const Node&)>& is_impure = nullptr);
  // Given: another graph. Does: appends copies of its nodes (names kept where free, meta copied).
  // Then: returns the old→new node map.
  std::unordered_map<const Node*, Node*> copyFrom(const Graph& other);

  NameSpace& names() { return names_; }
  bool owns(const Node* node) const { return node->graph_ == this; }

 private:
  friend std::string lintGraph(const Graph&, const GraphModule*);
  void link(Node* node, Node* before);
  void unlink(Node* node);

  Node* root_;  // sentinel: root_->next() is the first node, root_->prev() the last
  Node* insert_before_;
  size_t size_ = 0;
  mutable uint64_t lint_epoch_ = 0;
  NameSpace names_;
};

// The explicit purity table: placeholders, outputs and calls with side effects (torch._assert,
// print, setitem, ...) are never removed as dead.
bool isImpure(const Node& node);
// Calls whose value may differ from run to run: the random generators (RandomNormal, Bernoulli,
// Multinomial, ...), dropout (random in training mode), and control-flow ops whose subgraphs
// run one (Meta::subgraphs). Never folded, merged, or taken as a function of their inputs alone.
bool isRandom(const Node& node);

// torch.fx's str(graph).
std::string formatGraph(const Graph& graph);
// torch.fx's Node.format_node.
std::string formatNode(const Node& node);

}  // namespace fxc::ir
