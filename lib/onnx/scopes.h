// The exporter's module scopes ("/layer1/layer1.0/conv1/Conv"): which ops each scope holds, which
// scopes contain deeper ones, and which groups of ops may be one torch.nn module that the exporter
// decomposed (Hardswish → HardSigmoid·Mul at opset 13, SiLU, GELU, LayerNorm, a Linear on 3-D
// input → MatMul+Add). torch.fx shows such a module as one call_module; so does fxc, where
// onnx/recognize.h proves that the ops compute it.
#pragma once

#include <onnx/onnx_pb.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/flat_map.h"

namespace fxc::onnx {

class ScopeIndex {
 public:
  // Reads the scopes of the ops in `order` (constants and aliases do not count as ops). Keys are
  // views of the node names: `graph` must outlive the index.
  ScopeIndex(const ::onnx::GraphProto& graph, const std::vector<int>& order);

  // A scope with no deeper scope and exactly one op: that op is the module.
  bool isSingleOpLeaf(std::string_view key) const;
  bool hasChildren(std::string_view key) const { return has_children_.count(key) != 0; }
  int opCount(std::string_view key) const;

 private:
  ir::FlatMap<std::string_view, int> ops_;
  ir::FlatMap<std::string_view, bool> has_children_;
};

// The groups of ops that may be one decomposed torch.nn module (onnx/recognize.h proves it or
// not): all ops of a leaf scope, of a candidate's op types, forming a closed region (one value used
// outside; every input defined before the region's first op). Members are node indices in
// topological order. `producer` gives a value's producing node index (negative for graph inputs and
// initializers); `leaf_call` says which ops are calls of local functions (never grouped).
std::vector<std::vector<int>> findModuleGroups(
    const ::onnx::GraphProto& graph, const std::vector<int>& order, const ScopeIndex& scopes,
    const std::function<int(std::string_view)>& producer,
    const std::function<bool(const ::onnx::NodeProto&)>& leaf_call);

}  // namespace fxc::onnx
