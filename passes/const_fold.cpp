// const-fold: evaluates every op whose inputs are all constants, once, here; with static input
// shapes, also Shape and Size of the values whose shapes a run proves (foldShapes below).
//
//   %c = f(get_attr a, get_attr b)          ⇒  %c = get_attr _folded   (f(a, b), computed now)
//   %s = split(get_attr a);  getitem(%s, k) ⇒  get_attr of output k, for each k read
//
// The value comes from the reference kernel the interpreter runs for the op, so a folded graph
// computes what the graph as written computes. Not folded: ops with no reference kernel, random
// ops (RandomNormal, Bernoulli, ...), ops with subgraphs, calls of modules, results larger than
// `max-bytes`, values of a dtype a tensor would not hold exactly, and ops the kernel refuses
// (their error stays for the run to report). The constant keeps the op's value name, so an
// export names the initializer as the model named the value. Dead inputs are left to dce.
#include <spdlog/spdlog.h>

#include <unordered_set>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "passes/registry.h"
#include "passes/shape_prop.h"

namespace fxc::passes {
namespace {

// The constant inputs of `node` as values (nullptr for None), or nullopt when one is not a
// constant (or is a tensor the executor does not hold).
std::optional<std::vector<exec::Value>> constantInputs(const ir::GraphModule& gm,
                                                       const ir::Node& node) {
  for (const auto& [key, value] : node.kwargs()) {
    bool has_node = false;
    ir::visitNodes(value, [&](const ir::Node*) { has_node = true; });
    if (has_node) return std::nullopt;  // subgraph captures
  }
  std::vector<exec::Value> values;
  for (const ir::Argument& arg : node.args()) {
    if (arg.isNone()) {
      values.emplace_back();
      continue;
    }
    if (!arg.isNode() || arg.toNode()->op() != ir::Opcode::kGetAttr) return std::nullopt;
    auto tensor = gm.findTensor(arg.toNode()->target());
    if (!tensor || tensor->dtype == ir::DType::kString) return std::nullopt;
    try {
      values.push_back(exec::fromTensor(*tensor));
    } catch (const exec::ExecError&) {
      return std::nullopt;
    }
  }
  return values;
}

// Given: %v = f(...), and `tensor`, its value for every input. Does: %c = get_attr _folded_v
// (holding the tensor, with %v's meta and value name) takes %v's place; %v is erased and noted in
// `erased`. Then: %v's users read %c.
void replaceByConstant(ir::GraphModule& gm, ir::Node* replaced,
                       const std::shared_ptr<ir::Tensor>& tensor,
                       std::unordered_set<const ir::Node*>& erased) {
  tensor->source_name = replaced->meta.value_name;
  std::string path = gm.freshPath("_folded_" + replaced->name());
  gm.setTensor(path, tensor);
  ir::Node* get_attr;
  {
    auto guard = gm.graph().insertingBefore(replaced);
    get_attr = gm.graph().getAttr(path);
  }
  get_attr->meta.dtype = std::string(ir::dtypeName(tensor->dtype));
  std::vector<std::string> dims;
  for (int64_t d : tensor->dims) dims.push_back(std::to_string(d));
  get_attr->meta.shape = std::move(dims);
  get_attr->meta.value_name = replaced->meta.value_name;
  replaced->replaceAllUsesWith(get_attr);
  erased.insert(replaced);
  gm.graph().eraseNode(replaced);
}

// With every input's shape declared as numbers, Shape and Size of a value whose shape a run of
// the model proves (shape_prop.h: not shaped by the inputs' values) are constants: folded here,
// so that the shape arithmetic after them folds too (onnx-simplifier's and ONNX Runtime's
// folding with static shapes). Returns how many; 0 with symbolic inputs or a model that does not
// run.
int64_t foldShapes(ir::GraphModule& gm, std::unordered_set<const ir::Node*>& erased) {
  bool any = false;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kPlaceholder) {
      if (!node->meta.shape) return 0;
      for (const auto& dim : *node->meta.shape)
        if (ir::isSymbolicDim(dim)) return 0;
    }
    any = any || node->target() == "onnx.Shape" || node->target() == "onnx.Size";
  }
  if (!any) return 0;
  auto inputs = exec::randomInputs(gm, /*seed=*/0, {});
  if (!inputs) return 0;
  auto report = propagateShapes(gm, inputs.take());
  if (!report) {
    spdlog::debug("const-fold: Shape stays: the model did not run: {}", report.error());
    return 0;
  }
  int64_t folded = 0;
  for (auto& [node, value] : report.value().shape_values) {
    auto tensor = exec::toTensor(value);
    if (!tensor || node->users().empty()) continue;
    replaceByConstant(gm, node, tensor, erased);
    ++folded;
  }
  return folded;
}

// A Loop, or a node whose subgraphs hold one: its trip count is the model's to bound (ONNX allows
// a loop without end), so folding it could take any time. Left to run.
bool mayLoop(const ir::Node& node) {
  if (node.target() == "onnx.Loop") return true;
  for (const ir::Subgraph& subgraph : node.meta.subgraphs) {
    if (!subgraph.graph) return true;
    for (const ir::Node* inner : subgraph.graph->graph()) {
      if (mayLoop(*inner)) return true;
    }
  }
  return false;
}

Expected<PassResult> run(ir::GraphModule& gm, const Options& options) {
  PassResult result;
  const int64_t max_bytes = options.getInt("max-bytes");
  std::unordered_set<const ir::Node*> erased;  // getitems folded with their producer
  if (int64_t shapes = foldShapes(gm, erased)) result.add("shapes", shapes);
  std::vector<ir::Node*> nodes;
  for (ir::Node* node : gm.graph()) nodes.push_back(node);
  for (ir::Node* node : nodes) {
    if (erased.count(node)) continue;
    if (node->op() != ir::Opcode::kCallFunction || node->target() == "operator.getitem" ||
        ir::isRandom(*node) || ir::isImpure(*node) || node->users().empty() || mayLoop(*node))
      continue;
    auto inputs = constantInputs(gm, *node);
    if (!inputs) continue;
    std::vector<const exec::Value*> pointers;
    for (size_t k = 0; k < inputs->size(); ++k)
      pointers.push_back(node->args()[k].isNone() ? nullptr : &(*inputs)[k]);
    std::optional<std::vector<exec::Value>> outputs;
    try {
      outputs = exec::evaluateCall(gm, *node, std::move(pointers));
    } catch (const exec::ExecError& error) {
      spdlog::debug("const-fold: not folding {}: {}", node->name(), error.what());
      result.add("refused");
      continue;
    }
    if (!outputs || outputs->empty()) continue;
    // Which outputs are read: the value itself, or through getitem for a multi-output op.
    bool through_getitem = false;
    for (ir::Node* user : node->users()) through_getitem |= user->target() == "operator.getitem";
    std::vector<std::shared_ptr<ir::Tensor>> tensors;
    bool fits = true;
    for (const auto& value : *outputs) {
      auto tensor = exec::toTensor(value);
      fits = fits && tensor && static_cast<int64_t>(tensor->byteSize()) <= max_bytes;
      tensors.push_back(std::move(tensor));
    }
    if (!fits) {
      result.add("too large or not exact");
      continue;
    }
    auto constant = [&](ir::Node* replaced, const std::shared_ptr<ir::Tensor>& tensor) {
      replaceByConstant(gm, replaced, tensor, erased);
    };
    if (through_getitem) {
      bool all_getitem = true;
      for (ir::Node* user : node->users()) {
        all_getitem =
            all_getitem && user->target() == "operator.getitem" && user->args().size() == 2 &&
            user->args()[1].kind() == ir::Argument::Kind::kInt && user->args()[1].toInt() >= 0 &&
            static_cast<size_t>(user->args()[1].toInt()) < tensors.size();
      }
      if (!all_getitem) continue;
      for (ir::Node* user : std::vector<ir::Node*>(node->users()))
        constant(user, tensors[static_cast<size_t>(user->args()[1].toInt())]);
      gm.graph().eraseNode(node);
    } else {
      constant(node, tensors[0]);
    }
    result.add("folded");
  }
  return result;
}

RegisterPass registration{
    {"const-fold",
     "evaluates ops whose inputs are all constants (reference kernels), "
     "up to max-bytes per result",
     {{"max-bytes", OptionKind::kInt, "67108864", "results larger than this stay ops"}},
     run}};

}  // namespace
}  // namespace fxc::passes
