// replace-op: one op for another with the same operands (the seed's add → mul, generalised).
//
//   %y = from(%a, %b)    ⇒   %y' = to(%a, %b);  uses of %y read %y'
//
// Every spelling of `from` matches: its call_function target (operator.add), torch's function
// (torch.add) and the tensor method (x.add(y)). As the seed does it: insert the new node after
// the old, replace all uses, erase the old. Attributes the new op does not know are dropped; a
// call whose operand count the new op does not accept is left alone (and said why at -v).
#include "passes/replace_op.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include "ir/name_space.h"
#include "onnx/op_table.h"

namespace fxc::passes {

Expected<PassResult> replaceOp(ir::GraphModule& gm, const std::string& from,
                               const std::string& to) {
  const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(to);  // the latest version
  if (!schema) return Error{"replace-op: '" + to + "' is not an ONNX op"};
  if (!::onnx::OpSchemaRegistry::Schema(from))
    return Error{"replace-op: '" + from + "' is not an ONNX op"};
  ::onnx::NodeProto probe;
  probe.set_op_type(from);
  std::string from_target = onnx::functionTarget(probe);
  probe.set_op_type(to);
  std::string to_target = onnx::functionTarget(probe);
  std::string lower = ir::snakeCase(from);

  PassResult result;
  std::vector<ir::Node*> matches;
  for (ir::Node* node : gm.graph()) {
    bool function = node->op() == ir::Opcode::kCallFunction &&
                    (node->target() == from_target || node->target() == "torch." + lower ||
                     node->target() == "onnx." + from);
    bool method = node->op() == ir::Opcode::kCallMethod && node->target() == lower;
    if (function || method) matches.push_back(node);
  }
  for (ir::Node* node : matches) {
    int operands = static_cast<int>(node->args().size());
    if (operands < schema->min_input() || operands > schema->max_input()) {
      spdlog::debug("replace-op: keeping {}: {} takes {} to {} operands, not {}", node->name(), to,
                    schema->min_input(), schema->max_input(), operands);
      result.add("kept");
      continue;
    }
    ir::Kwargs kwargs;
    for (const auto& [key, value] : node->kwargs()) {
      if (schema->attributes().count(key)) kwargs.emplace_back(key, value);
    }
    ir::Node* replacement;
    {
      auto guard = gm.graph().insertingAfter(node);
      replacement = gm.graph().callFunction(to_target, node->args(), std::move(kwargs));
    }
    replacement->meta.dtype = node->meta.dtype;
    replacement->meta.shape = node->meta.shape;
    node->replaceAllUsesWith(replacement);
    gm.graph().eraseNode(node);
    result.add("replaced");
  }
  return result;
}

namespace {

Expected<PassResult> run(ir::GraphModule& gm, const Options& options) {
  return replaceOp(gm, options.get("from"), options.get("to"));
}

Expected<bool> validate(const Options& options) {
  for (const char* key : {"from", "to"}) {
    if (options.get(key).empty())
      return Error{"pass replace-op needs both from= and to= (e.g. replace-op:from=Add,to=Mul)"};
  }
  for (const char* key : {"from", "to"}) {
    if (!::onnx::OpSchemaRegistry::Schema(options.get(key)))
      return Error{"pass replace-op: " + std::string(key) + "='" + options.get(key) +
                   "' is not an ONNX op"};
  }
  return true;
}

RegisterPass registration{
    {"replace-op",
     "replaces every call of one ONNX op by another on the same operands",
     {{"from", OptionKind::kString, "", "the op to replace (required)"},
      {"to", OptionKind::kString, "", "the op to put in its place (required)"}},
     run,
     validate}};

}  // namespace
}  // namespace fxc::passes
