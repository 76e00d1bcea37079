#include "ir/graph.h"

#include <algorithm>

#include "ir/graph_module.h"
#include "ir/torch_call.h"

namespace fxc::ir {

namespace {
constexpr std::string_view kOpcodeNames[] = {"placeholder", "get_attr",    "call_function",
                                             "call_module", "call_method", "output"};
}

std::string_view opcodeName(Opcode op) { return kOpcodeNames[static_cast<size_t>(op)]; }

std::optional<Opcode> opcodeFromName(std::string_view name) {
  for (size_t i = 0; i < std::size(kOpcodeNames); ++i) {
    if (kOpcodeNames[i] == name) return static_cast<Opcode>(i);
  }
  return std::nullopt;
}

// ---- Node -------------------------------------------------------------------------------------

std::vector<Node*> Node::inputNodes() const {
  std::vector<Node*> inputs;
  auto add = [&](Node* n) {
    if (std::find(inputs.begin(), inputs.end(), n) == inputs.end()) inputs.push_back(n);
  };
  for (const Argument& arg : args_) arg.forEachNode(add);
  for (const auto& [key, arg] : kwargs_) arg.forEachNode(add);
  return inputs;
}

const Argument* Node::kwarg(std::string_view key) const {
  for (const auto& [name, value] : kwargs_) {
    if (name == key) return &value;
  }
  return nullptr;
}

void Node::detachInputs() {
  for (Node* input : inputNodes()) {
    auto& users = input->users_;
    users.erase(std::find(users.begin(), users.end(), this));
  }
}

void Node::attachInputs() {
  for (Node* input : inputNodes()) input->users_.push_back(this);
}

void Node::setArgs(std::vector<Argument> args) {
  detachInputs();
  args_ = std::move(args);
  attachInputs();
}

void Node::setKwargs(Kwargs kwargs) {
  detachInputs();
  kwargs_ = std::move(kwargs);
  attachInputs();
}

void Node::replaceInputWith(Node* old_input, Node* new_input) {
  auto swap = [&](Node* n) { return n == old_input ? new_input : n; };
  detachInputs();
  for (Argument& arg : args_) arg = arg.mapNodes(swap);
  for (auto& [key, arg] : kwargs_) arg = arg.mapNodes(swap);
  attachInputs();
}

std::vector<Node*> Node::replaceAllUsesWith(Node* replacement) {
  std::vector<Node*> changed = users_;
  for (Node* user : changed) user->replaceInputWith(this, replacement);
  return changed;
}

// ---- Graph ------------------------------------------------------------------------------------

Graph::Graph() : root_(new Node()), insert_before_(root_) {
  root_->op_ = Opcode::kPlaceholder;
  root_->name_ = "root";
  root_->graph_ = this;
  root_->prev_ = root_->next_ = root_;
}

Graph::~Graph() {
  Node* node = root_->next_;
  while (node != root_) {
    Node* next = node->next_;
    delete node;
    node = next;
  }
  delete root_;
}

void Graph::forEachReverse(const std::function<void(Node*)>& fn) {
  Node* node = root_->prev_;
  while (node != root_) {
    Node* prev = node->prev_;
    fn(node);
    node = prev;
  }
}

void Graph::link(Node* node, Node* before) {
  node->prev_ = before->prev_;
  node->next_ = before;
  before->prev_->next_ = node;
  before->prev_ = node;
  ++size_;
}

void Graph::unlink(Node* node) {
  node->prev_->next_ = node->next_;
  node->next_->prev_ = node->prev_;
  node->prev_ = node->next_ = nullptr;
  --size_;
}

Node* Graph::createNode(Opcode op, std::string target, std::vector<Argument> args, Kwargs kwargs,
                        std::optional<std::string> name) {
  auto* node = new Node();
  node->op_ = op;
  node->graph_ = this;
  if (name) {
    node->name_ = names_.createName(*name);
  } else {
    // torch.fx's _target_to_str: the last component of a qualified callable, the string of a
    // module path or method; dunder names lose their underscores; then snake_case.
    std::string_view candidate = target;
    if (op == Opcode::kCallFunction) {
      size_t dot = candidate.rfind('.');
      if (dot != std::string_view::npos) candidate = candidate.substr(dot + 1);
    }
    if (candidate.size() > 4 && candidate.substr(0, 2) == "__" &&
        candidate.substr(candidate.size() - 2) == "__")
      candidate = candidate.substr(2, candidate.size() - 4);
    node->name_ = names_.createName(snakeCase(candidate));
  }
  node->target_ = std::move(target);
  node->args_ = std::move(args);
  node->kwargs_ = std::move(kwargs);
  for (Node* input : node->inputNodes()) {
    if (input->graph_ != this) {
      delete node;
      throw IrError("Argument '" + input->name() + "' does not belong to this Graph");
    }
  }
  node->attachInputs();
  link(node, insert_before_);
  return node;
}

Node* Graph::placeholder(const std::string& name) {
  Node* node = createNode(Opcode::kPlaceholder, name, {}, {}, name);
  node->target_ = node->name_;
  return node;
}

Node* Graph::getAttr(const std::string& target) { return createNode(Opcode::kGetAttr, target); }

Node* Graph::callFunction(const std::string& target, std::vector<Argument> args, Kwargs kwargs) {
  return createNode(Opcode::kCallFunction, target, std::move(args), std::move(kwargs));
}

Node* Graph::callModule(const std::string& target, std::vector<Argument> args, Kwargs kwargs) {
  return createNode(Opcode::kCallModule, target, std::move(args), std::move(kwargs));
}

Node* Graph::callMethod(const std::string& method, std::vector<Argument> args, Kwargs kwargs) {
  return createNode(Opcode::kCallMethod, method, std::move(args), std::move(kwargs));
}

Node* Graph::output(Argument result) {
  return createNode(Opcode::kOutput, "output", {std::move(result)}, {}, std::string("output"));
}

Graph::InsertGuard::InsertGuard(Graph& graph, Node* before)
    : graph_(graph), saved_(graph.insert_before_) {
  graph_.insert_before_ = before;
}

Graph::InsertGuard::~InsertGuard() { graph_.insert_before_ = saved_; }

void takeOverValue(Node& node, const Node& old) {
  std::string value = old.meta.value_name;  // `old` may be `node` itself
  node.meta.value_name = std::move(value);
  node.meta.source_op.clear();
  node.meta.source_ops = 0;
  node.meta.source.reset();
}

void Graph::eraseNode(Node* node) {
  if (!node->users_.empty()) {
    std::string users = "{";
    for (size_t i = 0; i < node->users_.size(); ++i) {
      users += (i ? ", " : "") + node->users_[i]->name() + ": None";
    }
    users += "}";
    throw IrError("Tried to erase Node " + node->name() + " but it still had " +
                  std::to_string(node->users_.size()) + " users in the graph: " + users + "!");
  }
  if (node->graph_ != this)
    throw IrError("Node '" + node->name() + "' does not belong to this Graph");
  if (insert_before_ == node) insert_before_ = node->next_;
  node->detachInputs();
  unlink(node);
  delete node;
}

void Graph::moveBefore(Node* node, Node* anchor) {
  if (node == anchor) return;
  unlink(node);
  link(node, anchor);
}

bool isImpure(const Node& node) {
  // torch.fx's _side_effectful_functions, plus the ONNX ops whose value is their effect.
  static const std::unordered_set<std::string_view> side_effects = {
      "torch._assert", "torch._ops.profiler._record_function_enter",
      "torch._ops.profiler._record_function_exit", "builtins.print", "operator.setitem"};
  if (node.op() == Opcode::kPlaceholder || node.op() == Opcode::kOutput) return true;
  return node.op() == Opcode::kCallFunction && side_effects.count(node.target()) != 0;
}

bool isRandom(const Node& node) {
  if (node.op() != Opcode::kCallFunction && node.op() != Opcode::kCallModule) return false;
  for (const char* word : {"Random", "Bernoulli", "Multinomial", "dropout", "Dropout"}) {
    if (node.target().find(word) != std::string::npos) return true;
  }
  // A control-flow op is as random as anything its subgraphs run (one not traced may be).
  for (const Subgraph& subgraph : node.meta.subgraphs) {
    if (!subgraph.graph) return true;
    for (const Node* inner : subgraph.graph->graph()) {
      if (isRandom(*inner)) return true;
    }
  }
  return false;
}

bool Graph::eliminateDeadCode(const std::function<bool(const Node&)>& is_impure) {
  bool changed = false;
  forEachReverse([&](Node* node) {
    if (!node->users_.empty() || isImpure(*node) || (is_impure && is_impure(*node))) return;
    eraseNode(node);
    changed = true;
  });
  return changed;
}

std::unordered_map<const Node*, Node*> Graph::copyFrom(const Graph& other) {
  std::unordered_map<const Node*, Node*> mapping;
  mapping.reserve(other.size());
  auto remap = [&](Node* n) { return mapping.at(n); };
  for (const Node* node : other) {
    std::vector<Argument> args;
    for (const Argument& arg : node->args_) args.push_back(arg.mapNodes(remap));
    Kwargs kwargs;
    for (const auto& [key, arg] : node->kwargs_) kwargs.emplace_back(key, arg.mapNodes(remap));
    Node* copy =
        createNode(node->op_, node->target_, std::move(args), std::move(kwargs), node->name_);
    copy->meta = node->meta;
    mapping.emplace(node, copy);
  }
  return mapping;
}

// ---- str(graph) -------------------------------------------------------------------------------

std::string formatNode(const Node& node) {
  std::string users = "[#users=" + std::to_string(node.users().size()) + "] = ";
  std::string op(opcodeName(node.op()));
  switch (node.op()) {
    case Opcode::kPlaceholder:
      // torch.fx shows the annotation of forward's parameter: every ONNX input is a tensor.
      if (!node.meta.dtype.empty() || node.meta.shape)
        return "%" + node.name() + " : torch.Tensor " + users + op + "[target=" + node.target() +
               "]";
      return "%" + node.name() + " : " + users + op + "[target=" + node.target() + "]";
    case Opcode::kGetAttr:
      return "%" + node.name() + " : " + users + op + "[target=" + node.target() + "]";
    case Opcode::kOutput:
      return "return " + (node.args().empty() ? std::string("None") : pyRepr(node.args()[0]));
    default: {
      // call_function in PyTorch's signature, as in the code view (torch_call.h).
      auto call = torchCall(node);
      return "%" + node.name() + " : " + users + op + "[target=" + node.target() +
             "](args = " + fxFormat(call ? call->args : node.args()) +
             ", kwargs = " + fxFormat(call ? call->kwargs : node.kwargs()) + ")";
    }
  }
}

std::string formatGraph(const Graph& graph) {
  std::string out = "graph():\n";
  for (const Node* node : graph) out += "    " + formatNode(*node) + "\n";
  return out;
}

}  // namespace fxc::ir
