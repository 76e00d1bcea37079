// What an ONNX node and its values say, in the IR's terms: attributes as kwargs, the outer
// values a subgraph reads, tensor types as meta, and the exporter's scope in a node name.
#pragma once

#include <onnx/onnx_pb.h>

#include <string>
#include <string_view>
#include <vector>

#include "ir/argument.h"
#include "ir/node.h"

namespace fxc::onnx {

// "node 'name' (Op)", or "node #index (Op)" when unnamed: how errors name a node.
std::string describe(const ::onnx::NodeProto& node, size_t index);
bool isDefaultDomain(const std::string& domain);

// Constant, or Identity: ops that may only alias a constant and then make no node.
bool mayAliasConstant(const ::onnx::NodeProto& node);

// ONNX attributes as kwargs, in the node's order: ints, floats (float32 printed as Python would
// print the float32), strings, lists; tensors and graphs as a short description.
ir::Argument attributeValue(const ::onnx::AttributeProto& attr);
ir::Kwargs attributeKwargs(const ::onnx::NodeProto& node);

// Values a node's subgraphs read from enclosing scopes (views into the node), first use first.
std::vector<std::string_view> capturesOf(const ::onnx::NodeProto& node);

// dtype and shape from an ONNX type; unknown dims print as their symbol or "?".
void fillMeta(ir::Meta& meta, const ::onnx::TypeProto* type);

// "/layer1/layer1.0/conv1/Conv" → "/layer1/layer1.0/conv1" (a view); "" without a scope.
std::string_view scopeKey(const std::string& node_name);
// "/layer1/layer1.0/conv1/Conv" → {"layer1", "layer1.0", "conv1"}.
std::vector<std::string> scopeElements(const std::string& node_name);
std::vector<std::string> splitDots(const std::string& text);
std::string joinDots(const std::vector<std::string>& atoms, size_t count);
// An attribute name for a tensor: identifier characters only.
std::string sanitizeAtom(const std::string& atom);

}  // namespace fxc::onnx
