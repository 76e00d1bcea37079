// A call_function node as PyTorch's own signature spells it. The IR keeps ONNX's convention
// (inputs as args, attributes as kwargs: `torch.cat(a, b, axis = 1)`), which export and the
// kernels read; the views show `torch.cat([a, b], 1)`, the call torch.fx records and PyTorch runs.
#pragma once

#include <optional>
#include <vector>

#include "ir/argument.h"
#include "ir/node.h"

namespace fxc::ir {

struct TorchCall {
  std::vector<Argument> args;
  Kwargs kwargs;
};

// The node's args and kwargs in its target's PyTorch signature, when that call computes exactly
// what the ONNX op computes (torch.flatten only for axis 1, a pooling only with symmetric pads,
// ...); nullopt when it does not, or when the node already is in that form (operator.add).
std::optional<TorchCall> torchCall(const Node& node);

}  // namespace fxc::ir
