// The one subgraph matcher (torch.fx's SubgraphMatcher, ONNX Runtime's fusion rules): trace
// recognition and every fusion pass state what they rewrite as a Pattern and ask it for a match.
//
// A pattern is a small graph built bottom-up:
//   Pattern p;
//   auto x = p.input("x");                                   // any value; the same name binds
//   auto g = p.op("torch.sigmoid", {x});                     //   the same node everywhere
//   auto y = p.op("operator.mul", {x, g}, {.commutative = true});
//   p.setOutput(y);
// A match proves, from the graph's own values:
//   - each op node has the pattern's opcode and target (or module kind) and exactly its arguments;
//   - every attribute and constant predicate holds (exact exponents, axes, permutations; scalar
//     constants within a stated tolerance), and captured constants come back with the match;
//   - an input variable binds one node, wherever it appears, and that node is outside the match;
//   - no value inside the match is used outside it, except the pattern's output;
// Replacing a match by one node at the output's place creates no cycle: every path from inside
// the match to outside leaves through the output, so the inputs are all defined before it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/graph_module.h"

namespace fxc::ir {

// A constant tensor's values, as double (float16/32/64 and the integer types).
std::optional<std::vector<double>> tensorValues(const Tensor& tensor);
// The constant behind `node` (a get_attr of a module tensor), or nullptr.
std::shared_ptr<Tensor> constantOf(const GraphModule& gm, const Node& node);

// Extra checks on a matched op node: its kwargs, its module's attributes. Without one, a node
// with kwargs (attributes) does not match.
using NodeCheck = std::function<bool(const GraphModule&, const Node&)>;

// Checks of one kwarg's value, and a NodeCheck from them: the node's kwargs are among `allowed`
// (any may be absent) and each passes its check; an attribute absent from the node whose default
// `defaults` gives must pass with that (HardSigmoid's α is 0.2 when left out).
using ArgumentCheck = std::function<bool(const Argument&)>;
NodeCheck kwargsAre(std::vector<std::pair<std::string, ArgumentCheck>> allowed,
                    std::vector<std::pair<std::string, Argument>> defaults = {});
ArgumentCheck intIs(int64_t expected);
ArgumentCheck anyIntList();
// The ints of a list kwarg (anyIntList's); empty when it is absent.
std::vector<int64_t> intList(const Argument* list);
struct OpOptions {
  bool commutative = false;  // two arguments, either order
  NodeCheck check;
};

class Pattern {
 public:
  // What a constant must hold; empty when it is only captured.
  using ConstantCheck = std::function<bool(const Tensor&)>;
  using NodeCheck = ir::NodeCheck;
  using OpOptions = ir::OpOptions;

  int input(std::string name);
  // A get_attr node whose tensor passes `check`; captured under `name`.
  int constant(std::string name, ConstantCheck check = nullptr);
  // A call_function of `target` on exactly `args`.
  int op(std::string target, std::vector<int> args, OpOptions options = {});
  // A call_module whose module has type exactly `type` (a kind, not a prefix), on `args`.
  int module(std::string type, std::vector<int> args, OpOptions options = {});
  // ... whose module has exactly one of `types`.
  int module(std::vector<std::string> types, std::vector<int> args, OpOptions options = {});
  void setOutput(int node) { output_ = node; }
  // Names an op element, so that the code using a match finds its node: Match::node(name).
  int label(int element, std::string name) {
    labels_.emplace_back(std::move(name), element);
    return element;
  }
  const std::vector<std::pair<std::string, int>>& labels() const { return labels_; }

  // Scalar constant (rank 0: a [1, 1] broadcasts what it meets to rank 2) equal to `value` within
  // `tolerance` (relative to |value|, at least absolute).
  static ConstantCheck scalar(double value, double tolerance = 0);
  // Any finite floating-point scalar of rank 0.
  static ConstantCheck anyScalar();

  struct Element {
    enum class Kind { kInput, kConstant, kFunction, kModule } kind;
    std::string name;                // input/constant name, call target
    std::vector<std::string> types;  // the module types a kModule element accepts
    std::vector<int> args;
    OpOptions options;
    ConstantCheck check;
  };
  const std::vector<Element>& elements() const { return elements_; }
  int output() const { return output_; }

 private:
  std::vector<Element> elements_;
  std::vector<std::pair<std::string, int>> labels_;
  int output_ = -1;
};

struct Match {
  Node* output = nullptr;
  std::vector<Node*> nodes;  // the matched op nodes (not inputs, not constants), in graph order
  std::vector<std::pair<std::string, Node*>> inputs;                       // by input name
  std::vector<std::pair<std::string, std::shared_ptr<Tensor>>> constants;  // by constant name
  std::vector<Node*> constant_nodes;  // the get_attr nodes bound, each once
  std::vector<Node*> bound;           // by pattern element (what Pattern::op etc. returned)
  std::vector<std::pair<std::string, Node*>> labelled;  // Pattern::label's names

  Node* at(int element) const { return bound[static_cast<size_t>(element)]; }
  Node* input(const std::string& name) const;
  Node* node(const std::string& label) const;
  std::shared_ptr<Tensor> constant(const std::string& name) const;
};

// The match of `pattern` whose output is `anchor`, or nullopt with the reason in `why` (for
// debug logs; "did not match" is not an error).
std::optional<Match> matchAt(const GraphModule& gm, const Pattern& pattern, Node* anchor,
                             std::string* why = nullptr);

}  // namespace fxc::ir
