#include "ir/printers.h"

#include <doctest/doctest.h>

#include "ir/graph_module.h"

using namespace fxc::ir;

TEST_CASE("floats print as Python's repr") {
  CHECK(pyFloatRepr(1.0) == "1.0");
  CHECK(pyFloatRepr(0.5) == "0.5");
  CHECK(pyFloatRepr(1e-05) == "1e-05");
  CHECK(pyFloatRepr(0.0001) == "0.0001");
  CHECK(pyFloatRepr(1e16) == "1e+16");
  CHECK(pyFloatRepr(1e15) == "1000000000000000.0");
  CHECK(pyFloatRepr(123.456) == "123.456");
  CHECK(pyFloatRepr(-2.5e-7) == "-2.5e-07");
  CHECK(pyFloatRepr(0.1) == "0.1");
  CHECK(pyFloatRepr(0.0) == "0.0");
  CHECK(pyFloatRepr(1.0 / 0.0) == "inf");
}

TEST_CASE("strings print as Python's repr") {
  CHECK(pyStringRepr("values") == "'values'");
  CHECK(pyStringRepr("it's") == "\"it's\"");
  CHECK(pyStringRepr("a\nb\\") == "'a\\nb\\\\'");
}

TEST_CASE("arguments print as torch.fx prints them") {
  Graph g;
  Node* x = g.placeholder("x");
  std::vector<Argument> args = {x, 10, "values", Argument(), true, Argument::list({1, 2})};
  CHECK(pyRepr(args) == "(x, 10, 'values', None, True, [1, 2])");
  CHECK(fxFormat(args) == "(%x, 10, values, None, True, [1, 2])");
  CHECK(pyRepr(std::vector<Argument>{x}) == "(x,)");
  CHECK(pyRepr(Argument::tuple({Argument::tuple({x, x})})) == "((x, x),)");
  CHECK(pyRepr(Kwargs{{"dim", 1}}) == "{'dim': 1}");
  CHECK(fxFormat(Kwargs{{"dim", 1}}) == "{dim: 1}");
}

namespace {
// The seed's MyModule, built by hand: linear, topk, getattr, relu, constant, add.
void buildSeedModule(GraphModule& gm) {
  gm.addModule("linear", "Linear");
  gm.setTensor("_tensor_constant0", std::make_shared<Tensor>());
  Graph& g = gm.graph();
  Node* x = g.placeholder("x");
  Node* linear = g.callModule("linear", {x});
  Node* topk = g.callFunction("torch.topk", {linear, 10});
  Node* values = g.callFunction("builtins.getattr", {topk, "values"});
  Node* relu = g.callMethod("relu", {values});
  Node* constant = g.getAttr("_tensor_constant0");
  Node* add = g.callFunction("operator.add", {relu, constant});
  g.output(add);
}
}  // namespace

TEST_CASE("print_tabular matches torch.fx's layout") {
  GraphModule gm;
  buildSeedModule(gm);
  CHECK(printTabular(gm.graph()) ==
        "opcode         name               target             args                       kwargs\n"
        "-------------  -----------------  -----------------  -------------------------  --------\n"
        "placeholder    x                  x                  ()                         {}\n"
        "call_module    linear             linear             (x,)                       {}\n"
        "call_function  topk               torch.topk         (linear, 10)               {}\n"
        "call_function  getattr_1          builtins.getattr   (topk, 'values')           {}\n"
        "call_method    relu               relu               (getattr_1,)               {}\n"
        "get_attr       _tensor_constant0  _tensor_constant0  ()                         {}\n"
        "call_function  add                operator.add       (relu, _tensor_constant0)  {}\n"
        "output         output             output             (add,)                     {}\n");
}

TEST_CASE("generated code matches torch.fx's, with frees after last use") {
  GraphModule gm;
  buildSeedModule(gm);
  CHECK(pythonCode(gm.graph()) ==
        "\n\n\ndef forward(self, x):\n"
        "    linear = self.linear(x);  x = None\n"
        "    topk = torch.topk(linear, 10);  linear = None\n"
        "    getattr_1 = topk.values;  topk = None\n"
        "    relu = getattr_1.relu();  getattr_1 = None\n"
        "    _tensor_constant0 = self._tensor_constant0\n"
        "    add = relu + _tensor_constant0;  relu = _tensor_constant0 = None\n"
        "    return add\n"
        "    ");
}

TEST_CASE("code: module paths with digits, getitem, kwargs and tuple outputs") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* y = g.placeholder("y");
  Node* d = g.callModule("layer2.0.downsample.0", {x});
  Node* split = g.callFunction("torch.split", {d}, {{"axis", 1}});
  Node* first = g.callFunction("operator.getitem", {split, 0});
  Node* neg = g.callFunction("operator.neg", {y});
  g.output(Argument::tuple({first, neg}));
  CHECK(pythonCode(g) ==
        "\n\n\ndef forward(self, x, y):\n"
        "    layer2_0_downsample_0 = getattr(getattr(self.layer2, \"0\").downsample, \"0\")(x);  x "
        "= None\n"
        "    split = torch.split(layer2_0_downsample_0, axis = 1);  layer2_0_downsample_0 = None\n"
        "    getitem = split[0];  split = None\n"
        "    neg = -y;  y = None\n"
        "    return (getitem, neg)\n"
        "    ");
}

TEST_CASE("str(graph) matches torch.fx's format") {
  GraphModule gm;
  buildSeedModule(gm);
  CHECK(formatGraph(gm.graph()) ==
        "graph():\n"
        "    %x : [#users=1] = placeholder[target=x]\n"
        "    %linear : [#users=1] = call_module[target=linear](args = (%x,), kwargs = {})\n"
        "    %topk : [#users=1] = call_function[target=torch.topk](args = (%linear, 10), kwargs = "
        "{})\n"
        "    %getattr_1 : [#users=1] = call_function[target=builtins.getattr](args = (%topk, "
        "values), kwargs = {})\n"
        "    %relu : [#users=1] = call_method[target=relu](args = (%getattr_1,), kwargs = {})\n"
        "    %_tensor_constant0 : [#users=1] = get_attr[target=_tensor_constant0]\n"
        "    %add : [#users=1] = call_function[target=operator.add](args = (%relu, "
        "%_tensor_constant0), kwargs = {})\n"
        "    return add\n");
}

TEST_CASE("module tree: paths, containers, tensors") {
  GraphModule gm;
  gm.addModule("layer1.0.conv1", "Conv2d");
  gm.setTensor("layer1.0.conv1.weight", std::make_shared<Tensor>());
  CHECK(gm.findModule("layer1")->type() == "Module");
  CHECK(gm.findModule("layer1.0.conv1")->type() == "Conv2d");
  CHECK(static_cast<bool>(gm.findTensor("layer1.0.conv1.weight")));
  CHECK_FALSE(static_cast<bool>(gm.findTensor("layer1.0.conv1.bias")));
  auto modules = gm.namedModules();
  REQUIRE(modules.size() == 3);
  CHECK(modules[2].first == "layer1.0.conv1");
}
