// The views' PyTorch signatures (ir/torch_call.h): each rewrite where PyTorch's call computes what
// the ONNX op does, and none where it would not.
#include "ir/torch_call.h"

#include <doctest/doctest.h>

#include "ir/graph.h"

using namespace fxc::ir;

namespace {

// The call as the views print it: "(args) {kwargs}", or "none".
std::string shown(const Node* node) {
  auto call = torchCall(*node);
  return call ? pyRepr(call->args) + " " + pyRepr(call->kwargs) : "none";
}

Argument ints(std::vector<int64_t> values) {
  std::vector<Argument> items(values.begin(), values.end());
  return Argument::list(std::move(items));
}

}  // namespace

TEST_CASE("torch.flatten(x, 1) only for ONNX's axis 1") {
  Graph g;
  Node* x = g.placeholder("x");
  CHECK(shown(g.callFunction("torch.flatten", {x}, {{"axis", 1}})) == "(x, 1) {}");
  CHECK(shown(g.callFunction("torch.flatten", {x})) == "(x, 1) {}");  // ONNX's default
  CHECK(shown(g.callFunction("torch.flatten", {x}, {{"axis", 2}})) == "none");
  CHECK(shown(g.callFunction("torch.flatten", {x}, {{"axis", 0}})) == "none");
  x->meta.shape = std::vector<std::string>{"5"};  // rank 1: ONNX gives [5, 1], torch an error
  CHECK(shown(g.callFunction("torch.flatten", {x}, {{"axis", 1}})) == "none");
}

TEST_CASE("torch.cat takes a list; adaptive_avg_pool2d its output size") {
  Graph g;
  Node* a = g.placeholder("a");
  Node* b = g.placeholder("b");
  CHECK(shown(g.callFunction("torch.cat", {a, b}, {{"axis", 1}})) == "([a, b], 1) {}");
  CHECK(shown(g.callFunction("torch.nn.functional.adaptive_avg_pool2d", {a})) == "(a, (1, 1)) {}");
  a->meta.shape = std::vector<std::string>{"1", "2", "3"};  // GlobalAveragePool on 1-D data
  CHECK(shown(g.callFunction("torch.nn.functional.adaptive_avg_pool2d", {a})) == "none");
}

TEST_CASE("pools and convolutions: symmetric pads only, ONNX's counting of padding") {
  Graph g;
  Node* x = g.placeholder("x");
  Node* w = g.placeholder("w");
  Kwargs pool = {
      {"kernel_shape", ints({3, 3})}, {"pads", ints({1, 1, 1, 1})}, {"strides", ints({2, 2})}};
  CHECK(shown(g.callFunction("torch.nn.functional.max_pool2d", {x}, pool)) ==
        "(x, (3, 3), (2, 2), (1, 1)) {}");
  // ONNX's AveragePool leaves the padding out of the count unless told; PyTorch counts it.
  CHECK(shown(g.callFunction("torch.nn.functional.avg_pool2d", {x}, pool)) ==
        "(x, (3, 3), (2, 2), (1, 1)) {'count_include_pad': False}");
  Kwargs asymmetric = {{"kernel_shape", ints({2, 2})}, {"pads", ints({0, 0, 1, 1})}};
  CHECK(shown(g.callFunction("torch.nn.functional.max_pool2d", {x}, asymmetric)) == "none");
  Kwargs conv = {{"dilations", ints({1, 1})},
                 {"group", 4},
                 {"kernel_shape", ints({3, 3})},
                 {"pads", ints({1, 1, 1, 1})},
                 {"strides", ints({2, 2})}};
  CHECK(shown(g.callFunction("torch.nn.functional.conv2d", {x, w}, conv)) ==
        "(x, w, None, (2, 2), (1, 1), (1, 1), 4) {}");
  Kwargs same = {{"auto_pad", std::string("SAME_UPPER")}};
  CHECK(shown(g.callFunction("torch.nn.functional.conv2d", {x, w}, same)) == "none");
}

TEST_CASE("reductions and permutations keep ONNX's axes and keepdims") {
  Graph g;
  Node* x = g.placeholder("x");
  CHECK(shown(g.callFunction("torch.mean", {x}, {{"axes", ints({2, 3})}})) ==
        "(x, [2, 3], True) {}");
  CHECK(shown(g.callFunction("torch.mean", {x}, {{"axes", ints({1})}, {"keepdims", 0}})) ==
        "(x, [1]) {}");
  CHECK(shown(g.callFunction("torch.mean", {x})) == "none");  // every axis, or axes as an input
  CHECK(shown(g.callFunction("torch.permute", {x}, {{"perm", ints({0, 2, 1})}})) ==
        "(x, [0, 2, 1]) {}");
  CHECK(shown(g.callFunction("torch.permute", {x})) == "none");  // ONNX reverses the axes
}

TEST_CASE("operators and functions already in PyTorch's form are left alone") {
  Graph g;
  Node* x = g.placeholder("x");
  CHECK(shown(g.callFunction("operator.add", {x, x})) == "none");
  CHECK(shown(g.callFunction("torch.relu", {x})) == "none");
  CHECK(shown(g.callFunction("torch.nn.functional.gelu", {x},
                             {{"approximate", std::string("tanh")}})) ==
        "(x,) {'approximate': 'tanh'}");
  CHECK(shown(g.callFunction("torch.nn.functional.leaky_relu", {x}, {{"alpha", 0.2}})) ==
        "(x, 0.2) {}");
}
