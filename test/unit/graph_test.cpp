#include "ir/graph.h"

#include <doctest/doctest.h>

#include <type_traits>

#include "ir/expected.h"
#include "ir/lint.h"

using namespace fxc::ir;

namespace {
std::vector<std::string> names(const std::vector<Node*>& nodes) {
  std::vector<std::string> out;
  for (const Node* n : nodes) out.push_back(n->name());
  return out;
}
std::vector<std::string> order(const Graph& g) {
  std::vector<std::string> out;
  for (const Node* n : g) out.push_back(n->name());
  return out;
}
}  // namespace

TEST_CASE("create_node names from the target and records users in order") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a = g.callFunction("operator.add", {x, y});
  Node* m = g.callFunction("torch.mul", {a, x});
  Node* c = g.callModule("layer1.0.conv1", {m});
  Node* r = g.callMethod("relu", {c});
  Node* gm = g.callFunction("builtins.getattr", {r, "shape"});
  g.output(Argument::tuple({gm, a}));
  CHECK(a->name() == "add");
  CHECK(m->name() == "mul");
  CHECK(c->name() == "layer1_0_conv1");
  CHECK(gm->name() == "getattr_1");
  CHECK(names(x->users()) == std::vector<std::string>{"add", "mul"});
  CHECK(names(a->users()) == std::vector<std::string>{"mul", "output"});
  CHECK(g.size() == 8);
  CHECK(lintGraph(g).empty());
}

TEST_CASE("a user that reads a node twice is listed once") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("operator.add", {x, x});
  CHECK(x->users().size() == 1);
  CHECK(a->inputNodes().size() == 1);
}

TEST_CASE("inserting_before and inserting_after are scoped") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("operator.add", {x, x});
  Node* out = g.output(a);
  {
    auto guard = g.insertingAfter(x);
    g.callFunction("torch.relu", {x});
  }
  {
    auto guard = g.insertingBefore(out);
    g.callFunction("torch.sigmoid", {a});
  }
  g.callFunction("torch.tanh", {a});  // back at the end
  CHECK(order(g) == std::vector<std::string>{"x", "relu", "add", "sigmoid", "output", "tanh"});
}

TEST_CASE("erase_node refuses a node with users, with torch.fx's message") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("operator.add", {x, x});
  g.callFunction("torch.relu", {a});
  g.callFunction("torch.relu", {a});
  CHECK_THROWS_WITH_AS(g.eraseNode(a),
                       "Tried to erase Node add but it still had 2 users in the graph: "
                       "{relu: None, relu_1: None}!",
                       IrError);
}

TEST_CASE("erase_node unlinks and drops the node from its inputs' users") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("operator.add", {x, x});
  g.eraseNode(a);
  CHECK(x->users().empty());
  CHECK(g.size() == 1);
  CHECK(lintGraph(g).empty());
}

TEST_CASE("replace_all_uses_with moves every use, as the seed's add→mul rewrite") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* add = g.callFunction("operator.add", {x, y});
  Node* out = g.output(Argument::tuple({add, add}));
  Node* mul;
  {
    auto guard = g.insertingAfter(add);
    mul = g.callFunction("operator.mul", {add->args()[0], add->args()[1]});
  }
  auto changed = add->replaceAllUsesWith(mul);
  CHECK(names(changed) == std::vector<std::string>{"output"});
  g.eraseNode(add);
  CHECK(pyRepr(out->args()[0]) == "(mul, mul)");
  CHECK(names(mul->users()) == std::vector<std::string>{"output"});
  CHECK(lintGraph(g).empty());
}

TEST_CASE("replace_input_with changes one user only") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* a = g.callFunction("operator.add", {x, x}, {{"alpha", x}});
  Node* b = g.callFunction("operator.mul", {x, y});
  a->replaceInputWith(x, y);
  CHECK(pyRepr(a->args()) == "(y, y)");
  CHECK(pyRepr(a->kwargs()) == "{'alpha': y}");
  CHECK(names(x->users()) == std::vector<std::string>{"mul"});
  CHECK(names(y->users()) == std::vector<std::string>{"mul", "add"});
  (void)b;
  CHECK(lintGraph(g).empty());
}

TEST_CASE("eliminate_dead_code removes dead chains and keeps impure nodes") {
  Graph g;
  Node* x = g.placeholder("x");
  g.placeholder("unused_input");
  Node* a = g.callFunction("torch.relu", {x});
  Node* b = g.callFunction("torch.sigmoid", {a});
  g.callFunction("torch.tanh", {b});  // dead, and makes b and a dead with it
  g.callFunction("torch._assert", {x});
  g.callFunction("onnx.Custom", {x});
  g.output(x);
  bool changed = g.eliminateDeadCode([](const Node& n) { return n.target() == "onnx.Custom"; });
  CHECK(changed);
  CHECK(order(g) == std::vector<std::string>{"x", "unused_input", "_assert", "custom", "output"});
  CHECK(g.eliminateDeadCode());  // without the extra predicate, custom goes; _assert stays
  CHECK(order(g) == std::vector<std::string>{"x", "unused_input", "_assert", "output"});
  CHECK_FALSE(g.eliminateDeadCode());
  CHECK(lintGraph(g).empty());
}

TEST_CASE("copy keeps names, structure and meta") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("operator.add", {x, 1.5});
  a->meta.dtype = "float32";
  g.output(a);
  Graph h;
  auto mapping = h.copyFrom(g);
  CHECK(order(h) == order(g));
  CHECK(mapping.at(a)->meta.dtype == "float32");
  CHECK(mapping.at(a)->args()[0].toNode() == mapping.at(x));
  CHECK(lintGraph(h).empty());
}

TEST_CASE("Argument: accessors check the kind; no pointer but Node* becomes an argument") {
  static_assert(!std::is_constructible_v<Argument, const Node*>,
                "a const Node* must not silently become a bool argument");
  static_assert(!std::is_constructible_v<Argument, const int*>);
  CHECK_THROWS_AS(Argument(2.5).toInt(), fxc::InternalError);
  CHECK_THROWS_AS(Argument(int64_t{3}).toFloat(), fxc::InternalError);
  CHECK_THROWS_AS(Argument(true).toInt(), fxc::InternalError);
  CHECK_THROWS_AS(Argument().toNode(), fxc::InternalError);
  CHECK_THROWS_WITH(Argument(2.5).toInt(), "argument 2.5 is a float, not an int");
  CHECK(Argument(int64_t{3}).toInt() == 3);
  CHECK(Argument(2.5).toFloat() == 2.5);
}
