#include "passes/replace_op.h"

#include <doctest/doctest.h>

#include "ir/lint.h"
#include "ir/printers.h"

using namespace fxc;

TEST_CASE("add-to-mul matches every spelling of add: a + b, torch.add(a, b), a.add(b)") {
  ir::GraphModule gm;
  ir::Graph& g = gm.graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* y = g.placeholder("y");
  ir::Node* a = g.callFunction("operator.add", {x, y});
  ir::Node* b = g.callFunction("torch.add", {x, y});
  ir::Node* c = g.callMethod("add", {x, y});
  g.output(ir::Argument::tuple({a, b, c}));
  auto result = passes::replaceOp(gm, "Add", "Mul");
  REQUIRE(result.ok());
  REQUIRE(result.value().counts.size() == 1);
  CHECK(result.value().counts[0] == std::make_pair(std::string("replaced"), int64_t{3}));
  CHECK(ir::lintGraph(g, &gm).empty());
  // The seed's result: three muls of the same operands, in the same order.
  CHECK(ir::pythonCode(g) ==
        "\n\n\ndef forward(self, x, y):\n"
        "    mul = x * y\n"
        "    mul_1 = x * y\n"
        "    mul_2 = x * y;  x = y = None\n"
        "    return (mul, mul_1, mul_2)\n"
        "    ");
}

TEST_CASE("replace-op keeps the attributes the new op knows and drops the others") {
  ir::GraphModule gm;
  ir::Graph& g = gm.graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* r = g.callFunction("torch.nn.functional.leaky_relu", {x}, {{"alpha", 0.1}});
  g.output(r);
  auto result = passes::replaceOp(gm, "LeakyRelu", "Elu");
  REQUIRE(result.ok());
  CHECK(ir::printTabular(g).find("torch.nn.functional.elu  (x, 0.1)  {}") != std::string::npos);
  auto to_relu = passes::replaceOp(gm, "Elu", "Relu");
  REQUIRE(to_relu.ok());
  CHECK(ir::pythonCode(g).find("torch.relu(x)") != std::string::npos);
}

TEST_CASE("replace-op refuses ops that do not exist, and leaves calls of the wrong arity") {
  ir::GraphModule gm;
  ir::Graph& g = gm.graph();
  ir::Node* x = g.placeholder("x");
  ir::Node* s = g.callFunction("operator.add", {x, x});
  g.output(s);
  CHECK_FALSE(passes::replaceOp(gm, "Add", "Frobnicate").ok());
  auto kept = passes::replaceOp(gm, "Add", "Relu");  // Relu takes one operand
  REQUIRE(kept.ok());
  CHECK(kept.value().counts[0] == std::make_pair(std::string("kept"), int64_t{1}));
  CHECK(g.size() == 3);
}
