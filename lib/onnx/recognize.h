// Recognition of torch.nn modules that an exporter decomposed into several ops (SiLU, Hardswish,
// Mish, GELU, LayerNorm, Linear on inputs of any rank): a claim that the ops compute the module,
// made only where ir::Pattern proves it from the graph's own values. The module keeps every value
// its computation depends on (ε, the normalized axes, whether the weight is transposed); where
// the proof fails, the ops stay ops. The patterns are here, beside the module kinds they make.
#pragma once

#include <string>

#include "ir/graph_module.h"

namespace fxc::onnx {

// The module types trace may recognize from a group of ops in one leaf scope (a cheap filter by
// op types, before the proof): "SiLU", ... or "" when `op_types` (in order) are no candidate.
std::string candidateModuleType(const std::vector<std::string>& op_types, bool has_constant);

// Tries to replace the ops whose output is `anchor` by one call_module of `type` at `path`.
// `members` are the group's nodes (call_functions traced one per ONNX op, in graph order): the
// pattern must match exactly these. On success the module is created, the call replaces the
// ops (its record lists their ONNX nodes, so export writes them back unchanged) and the call is
// returned; otherwise nothing changes, the result is nullptr and `why` says what did not hold.
// A module already at `path` of the same type, attributes and tensors is called again.
ir::Node* recognizeModule(ir::GraphModule& gm, const std::string& type, const std::string& path,
                          const std::vector<ir::Node*>& members, std::string* why);

}  // namespace fxc::onnx
