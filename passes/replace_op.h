// replace-op, shared with the passes that are replace-op with fixed options (add-to-mul).
#pragma once

#include <string>

#include "passes/registry.h"

namespace fxc::passes {

// Replaces every call of ONNX op `from` (in any spelling: operator.add, torch.add, x.add(...))
// by a call of `to` on the same operands.
Expected<PassResult> replaceOp(ir::GraphModule& gm, const std::string& from, const std::string& to);

}  // namespace fxc::passes
