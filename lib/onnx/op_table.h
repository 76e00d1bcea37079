// How ONNX ops appear in the FX graph: call_function targets, module types, parameter names.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace onnx {
class NodeProto;
}

namespace fxc::onnx {

// The stable qualified call_function target: "operator.add", "torch.flatten", ...;
// "onnx.<Op>" where torch has no counterpart; "<domain>.<Op>" outside the default domain.
std::string functionTarget(const ::onnx::NodeProto& node);

// The ONNX op for a call_function target: {domain, op type}; nullopt for operator.getitem and
// targets that name no op. The inverse of functionTarget.
std::optional<std::pair<std::string, std::string>> opForTarget(const std::string& target);
// The ONNX op type for a module type ("Conv2d" → "Conv"); "" when unknown.
std::string opForModuleType(const std::string& type);

// Ops that own weights. For each input position, the parameter name it binds when that input is
// a constant ("" for a data input). Empty when the op is not a weighted op.
const std::vector<std::string>& parameterSlots(const std::string& op_type);

// Which inputs must be constants for `op_type` to become a module holding them.
bool requiresConstant(const std::string& op_type, size_t input_index);

// The torch.nn type a module of this op gets: Conv2d, BatchNorm2d, ReLU, ... `rank` is the
// number of spatial dimensions when known (else -1). "" when torch.nn has no such module
// (Transpose, Reshape, ...): torch.fx would trace through a custom module holding that op.
std::string moduleType(const ::onnx::NodeProto& node, int rank);

// Is this a control-flow op whose graph attributes are kept intact as an opaque call?
bool hasSubgraphs(const ::onnx::NodeProto& node);

}  // namespace fxc::onnx
