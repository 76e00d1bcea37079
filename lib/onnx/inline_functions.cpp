// --inline-functions: a call of a model-local ONNX function becomes the function's body, with
// its values renamed under the call's name so that they stay unique and scoped.
#include <onnx/onnx_pb.h>

#include <functional>
#include <unordered_map>

#include "onnx/trace.h"

namespace fxc::onnx {

Expected<bool> inlineFunctions(::onnx::ModelProto& model) {
  std::unordered_map<std::string, const ::onnx::FunctionProto*> functions;
  for (const auto& function : model.functions()) {
    functions[function.domain() + ":" + function.name()] = &function;
  }
  if (functions.empty()) return false;

  auto& graph = *model.mutable_graph();
  google::protobuf::RepeatedPtrField<::onnx::NodeProto> expanded;
  int calls = 0;
  std::string error;
  std::function<void(const ::onnx::NodeProto&, int)> emit = [&](const ::onnx::NodeProto& node,
                                                                int depth) {
    auto found = functions.find(node.domain() + ":" + node.op_type());
    if (found == functions.end()) {
      *expanded.Add() = node;
      return;
    }
    const ::onnx::FunctionProto& function = *found->second;
    if (depth > 64) {
      if (error.empty()) error = "function '" + function.name() + "' calls itself recursively";
      return;
    }
    // Body values and nodes are renamed under the call's name; without the leading '/', so that
    // the body is traced through as plain calls rather than read as an exporter's module scope.
    std::string prefix =
        (node.name().empty() ? function.name() + "_" + std::to_string(calls) : node.name()) + "/";
    while (!prefix.empty() && prefix[0] == '/') prefix.erase(0, 1);
    ++calls;
    std::unordered_map<std::string, std::string> rename;
    for (int i = 0; i < function.input_size(); ++i)
      rename[function.input(i)] = i < node.input_size() ? node.input(i) : "";
    for (int i = 0; i < function.output_size(); ++i)
      rename[function.output(i)] = i < node.output_size() ? node.output(i) : "";
    std::unordered_map<std::string, const ::onnx::AttributeProto*> given;
    for (const auto& attr : node.attribute()) given[attr.name()] = &attr;
    auto mapped = [&](const std::string& value) {
      if (value.empty()) return value;
      auto it = rename.find(value);
      if (it != rename.end()) return it->second;
      return rename[value] = prefix + value;
    };
    for (const auto& body : function.node()) {
      ::onnx::NodeProto copy = body;
      copy.set_name(prefix + (body.name().empty() ? body.op_type() : body.name()));
      for (auto& input : *copy.mutable_input()) input = mapped(input);
      for (auto& output : *copy.mutable_output()) output = mapped(output);
      google::protobuf::RepeatedPtrField<::onnx::AttributeProto> attributes;
      for (const auto& attr : body.attribute()) {
        if (attr.ref_attr_name().empty()) {
          *attributes.Add() = attr;
          continue;
        }
        auto it = given.find(attr.ref_attr_name());
        if (it == given.end()) continue;  // unset optional attribute: the op's default applies
        auto* bound = attributes.Add();
        *bound = *it->second;
        bound->set_name(attr.name());
      }
      copy.mutable_attribute()->Swap(&attributes);
      emit(copy, depth + 1);
    }
  };
  for (const auto& node : graph.node()) emit(node, 0);
  if (!error.empty()) return Error{error};
  graph.mutable_node()->Swap(&expanded);
  // Body ops may come from opsets the model does not import yet.
  for (const auto& function : model.functions()) {
    for (const auto& opset : function.opset_import()) {
      bool present = false;
      for (const auto& have : model.opset_import())
        present = present || have.domain() == opset.domain();
      if (!present) *model.add_opset_import() = opset;
    }
  }
  model.clear_functions();
  return calls > 0;
}

}  // namespace fxc::onnx
