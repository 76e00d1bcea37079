// Einsum against sums written out by hand: products, diagonals, traces, transposes (explicit and
// implicit output), "..." batches with broadcasting, integer wrap-around, and bad equations.
#include <doctest/doctest.h>

#include "exec/interpreter.h"
#include "ir/graph_module.h"

namespace ir = fxc::ir;
using fxc::exec::Backend;
using fxc::exec::Interpreter;
using fxc::exec::Value;

namespace {

Value iota(std::vector<int64_t> shape, float start = 1) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> data;
  for (int64_t k = 0; k < n; ++k) data.push_back(start + static_cast<float>(k));
  return Value::floats(std::move(shape), std::move(data));
}

// torch.einsum(equation, operands...) on the reference kernels.
fxc::Expected<std::vector<Value>> einsum(const std::string& equation, std::vector<Value> operands) {
  ir::GraphModule gm;
  std::vector<ir::Argument> args;
  for (size_t k = 0; k < operands.size(); ++k)
    args.emplace_back(gm.graph().placeholder("x" + std::to_string(k)));
  gm.graph().output(gm.graph().callFunction("torch.einsum", std::move(args),
                                            {{"equation", ir::Argument(equation)}}));
  return Interpreter(gm, Backend::kReference).run(std::move(operands));
}

Value result(const std::string& equation, std::vector<Value> operands) {
  auto out = einsum(equation, std::move(operands));
  REQUIRE_MESSAGE(out, (out ? "" : out.error()));
  return out.value().at(0);
}

}  // namespace

TEST_CASE("Einsum: products, diagonals and transposes") {
  Value a = iota({2, 3}), b = iota({3, 2}, 7), square = iota({3, 3});
  // [[1,2,3],[4,5,6]] · [[7,8],[9,10],[11,12]]
  Value product = result("ij,jk->ik", {a, b});
  CHECK(product.shape == std::vector<int64_t>{2, 2});
  CHECK(product.f == std::vector<float>{58, 64, 139, 154});
  CHECK(result("ij, jk", {a, b}).f == product.f);  // implicit output "ik", spaces ignored
  CHECK(result("ii->i", {square}).f == std::vector<float>{1, 5, 9});
  Value trace = result("ii", {square});
  CHECK(trace.shape.empty());
  CHECK(trace.f == std::vector<float>{15});
  CHECK(result("ij->ji", {a}).f == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(result("ji", {a}).f == std::vector<float>{1, 4, 2, 5, 3, 6});  // implicit: "ij"
  CHECK(result("ij", {a}).f == a.f);
  CHECK(result("ij->", {a}).f == std::vector<float>{21});
  CHECK(result("i,i", {iota({3}), iota({3}, 4)}).f == std::vector<float>{32});
  CHECK(result("i,j->ij", {iota({2}), iota({2}, 3)}).f == std::vector<float>{3, 4, 6, 8});
}

TEST_CASE("Einsum: batches under \"...\", broadcast") {
  Value batch = iota({2, 2, 2});  // [[[1,2],[3,4]], [[5,6],[7,8]]]
  Value diagonal = result("...ii->...i", {batch});
  CHECK(diagonal.shape == std::vector<int64_t>{2, 2});
  CHECK(diagonal.f == std::vector<float>{1, 4, 5, 8});
  Value matmul = result("bij,bjk->bik", {batch, batch});
  CHECK(matmul.f == std::vector<float>{7, 10, 15, 22, 67, 78, 91, 106});
  CHECK(result("...j,j->...", {iota({2, 3}), iota({3})}).f == std::vector<float>{14, 32});
  // [2, 1, 2] and [3, 2]: the ellipsis dimensions broadcast to [2, 3].
  Value broadcast = result("...i,...i->...i", {iota({2, 1, 2}), iota({3, 2})});
  CHECK(broadcast.shape == std::vector<int64_t>{2, 3, 2});
  CHECK(broadcast.f == std::vector<float>{1, 4, 3, 8, 5, 12, 3, 8, 9, 16, 15, 24});
  CHECK(result("...", {batch}).f == batch.f);
}

TEST_CASE("Einsum: integers wrap to their type") {
  Value v = Value::ints({2}, {65536, 65536}, ir::DType::kInt32);
  Value dot = result("i,i", {v, v});  // 2 · 2^32 wraps to 0 in int32, as numpy's does
  CHECK(dot.dtype == ir::DType::kInt32);
  CHECK(dot.i == std::vector<int64_t>{0});
  Value w = Value::ints({2, 2}, {1, 2, 3, 4});
  CHECK(result("ij,jk", {w, w}).i == std::vector<int64_t>{7, 10, 15, 22});
}

TEST_CASE("Einsum: bad equations are errors") {
  Value a = iota({2, 3});
  CHECK_FALSE(einsum("ij,jk->ik", {a}));              // two terms, one operand
  CHECK_FALSE(einsum("ijk", {a}));                    // a term longer than the rank
  CHECK_FALSE(einsum("ij,ij", {a, iota({3, 2})}));    // j is 3 and 2
  CHECK_FALSE(einsum("ij->k", {a}));                  // an output label no input has
  CHECK_FALSE(einsum("ij->ii", {a}));                 // a repeated output label
  CHECK_FALSE(einsum("...j->j", {iota({2, 2, 3})}));  // drops "..."
  CHECK_FALSE(einsum("i-j", {a}));
}
