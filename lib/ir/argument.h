// Node arguments: torch.fx's argument language in C++. A small tagged value: None, bool, int,
// float, string, a reference to a Node, or a tuple/list of these.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace fxc::ir {

class Node;

class Argument {
 public:
  enum class Kind : uint8_t { kNone, kBool, kInt, kFloat, kString, kNode, kTuple, kList };

  Argument() = default;  // None
  Argument(bool value) : kind_(Kind::kBool) { scalar_.b = value; }
  Argument(int value) : Argument(static_cast<int64_t>(value)) {}
  Argument(int64_t value) : kind_(Kind::kInt) { scalar_.i = value; }
  Argument(double value) : kind_(Kind::kFloat) { scalar_.f = value; }
  Argument(std::string value) : kind_(Kind::kString), str_(std::move(value)) {}
  Argument(const char* value) : Argument(std::string(value)) {}
  Argument(Node* node) : kind_(Kind::kNode) { scalar_.node = node; }
  // No other pointer becomes an argument: without this, a `const Node*` would silently be a bool.
  Argument(const void*) = delete;

  static Argument tuple(std::vector<Argument> items) {
    return Argument(Kind::kTuple, std::move(items));
  }
  static Argument list(std::vector<Argument> items) {
    return Argument(Kind::kList, std::move(items));
  }

  Kind kind() const { return kind_; }
  bool isNone() const { return kind_ == Kind::kNone; }
  bool isNode() const { return kind_ == Kind::kNode; }
  bool isSequence() const { return kind_ == Kind::kTuple || kind_ == Kind::kList; }

  // Checked: asking an argument for another kind than it holds is an InternalError (a bug in
  // the caller), never a reinterpretation of its bits.
  bool toBool() const {
    expect(Kind::kBool);
    return scalar_.b;
  }
  int64_t toInt() const {
    expect(Kind::kInt);
    return scalar_.i;
  }
  double toFloat() const {
    expect(Kind::kFloat);
    return scalar_.f;
  }
  const std::string& toString() const {
    expect(Kind::kString);
    return str_;
  }
  Node* toNode() const {
    expect(Kind::kNode);
    return scalar_.node;
  }
  const std::vector<Argument>& items() const { return items_; }
  std::vector<Argument>& mutableItems() { return items_; }

  // Calls fn on every Node reference, depth first, in argument order (torch.fx's map_arg order).
  void forEachNode(const std::function<void(Node*)>& fn) const;
  // Replaces every Node reference by fn(node).
  Argument mapNodes(const std::function<Node*(Node*)>& fn) const;

 private:
  Argument(Kind kind, std::vector<Argument> items) : kind_(kind), items_(std::move(items)) {}
  void expect(Kind kind) const {
    if (kind_ != kind) wrongKind(kind);
  }
  [[noreturn]] void wrongKind(Kind wanted) const;

  Kind kind_ = Kind::kNone;
  union {
    bool b;
    int64_t i;
    double f;
    Node* node;
  } scalar_{};
  std::string str_;
  std::vector<Argument> items_;
};

using Kwargs = std::vector<std::pair<std::string, Argument>>;

// forEachNode without the std::function call, for hot loops (lint, codegen).
template <typename F>
void visitNodes(const Argument& arg, F&& fn) {
  if (arg.kind() == Argument::Kind::kNode) {
    fn(arg.toNode());
  } else if (arg.isSequence()) {
    for (const Argument& item : arg.items()) visitNodes(item, fn);
  }
}

// Python's repr() of a float (shortest round-trip digits, Python's exponent rules).
std::string pyFloatRepr(double value);
// Python's repr() of a str.
std::string pyStringRepr(const std::string& value);
// repr() as torch.fx's tabular view shows args: nodes by name, Python literals otherwise.
std::string pyRepr(const Argument& arg);
std::string pyRepr(const std::vector<Argument>& args);  // as a tuple
std::string pyRepr(const Kwargs& kwargs);               // as a dict
// torch.fx's _format_arg, used by str(graph): nodes as %name, strings unquoted.
std::string fxFormat(const Argument& arg);
std::string fxFormat(const std::vector<Argument>& args);  // as a tuple
std::string fxFormat(const Kwargs& kwargs);               // as a dict

}  // namespace fxc::ir
