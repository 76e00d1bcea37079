#include "ir/lint.h"

#include <doctest/doctest.h>

#include "ir/graph_module.h"

namespace fxc::ir {
struct NodeTestAccess {
  static std::vector<Node*>& users(Node* n) { return n->users_; }
};
}  // namespace fxc::ir

using namespace fxc::ir;

TEST_CASE("lint: use before definition") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("torch.relu", {x});
  Node* b = g.callFunction("torch.sigmoid", {a});
  g.moveBefore(b, a);
  CHECK(lintGraph(g) ==
        "Argument 'relu' of Node 'sigmoid' was used before it has been defined! Please check "
        "that Nodes in the graph are topologically ordered");
}

TEST_CASE("lint: an argument from another graph") {
  Graph g, other;
  Node* foreign = other.placeholder("z");
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("torch.relu", {x});
  CHECK_THROWS_AS(g.callFunction("torch.relu", {foreign}), IrError);
  a->setArgs({foreign});
  CHECK(lintGraph(g) ==
        "Argument 'z' of Node 'relu' does not belong to this Graph, but was used as an argument!");
  a->setArgs({x});  // leave `other` without a dangling user
}

TEST_CASE("lint: duplicate names") {
  Graph g;
  g.placeholder("x");
  Node* y = g.placeholder("y");
  y->setName("x");
  CHECK(lintGraph(g) == "Node redefined name x!");
}

TEST_CASE("lint: users/args symmetry, both ways") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("torch.relu", {x});
  NodeTestAccess::users(x).clear();
  CHECK(lintGraph(g) == "Node 'x' is an argument of 'relu' but does not list it as a user");
  NodeTestAccess::users(x).push_back(a);
  Node* b = g.callFunction("torch.tanh", {a});
  NodeTestAccess::users(x).push_back(b);
  CHECK(lintGraph(g) == "Node 'x' lists 'tanh' as a user, but it does not use it");
  NodeTestAccess::users(x).pop_back();
}

TEST_CASE("lint: more than one output") {
  Graph g;
  Node* x = g.placeholder("x");
  g.output(x);
  g.output(x);
  CHECK(lintGraph(g) == "Graph has more than one output node");
}

TEST_CASE("lint: call_module and get_attr targets must resolve") {
  GraphModule gm;
  gm.addModule("layer1.0.conv1", "Conv2d");
  gm.setTensor("layer1.0.conv1.weight", std::make_shared<Tensor>());
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* c = g.callModule("layer1.0.conv1", {x});
  Node* w = g.getAttr("layer1.0.conv1.weight");
  g.output(Argument::tuple({c, w}));
  CHECK(lintGraph(g, &gm).empty());

  c->setTarget("layer1.1.conv1");
  CHECK(lintGraph(g, &gm) ==
        "Node layer1_0_conv1 target layer1.1.conv1 references nonexistent attribute 1 of layer1");
  c->setTarget("layer1.0.conv1.weight");
  CHECK(lintGraph(g, &gm) ==
        "Node layer1_0_conv1 target layer1.0.conv1.weight weight of layer1.0.conv1 does not "
        "reference an nn.Module");
  c->setTarget("layer1.0.conv1");
  w->setTarget("layer1.0.conv1.bias");
  CHECK(lintGraph(g, &gm) ==
        "Node layer1_0_conv1_weight target layer1.0.conv1.bias references nonexistent attribute "
        "bias of layer1.0.conv1");
}

TEST_CASE("lint: an empty target") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* a = g.callFunction("torch.relu", {x});
  a->setTarget("");
  CHECK(lintGraph(g) == "Node relu target is empty but a Callable is expected");
}
