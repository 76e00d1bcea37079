// The activations a convolution or a Linear applies as it writes its output — conv-act's and
// linear-act's fused modules, quant-lower's fxc.QLinearConvAct: their module types, the functions
// that are the same, and the attributes a fused node carries (as activation_*).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/argument.h"

namespace fxc::passes {

// Module types conv-act fuses; `linear`: linear-act's, which adds GELU and ReLU (a convolution's
// ReLU is conv-relu's).
std::vector<std::string> fusedActivations(bool linear);
// (function target, module type) pairs: what a model's ops become without a module scope
// (torch.clamp is Clip, a Hardtanh).
std::vector<std::pair<std::string, std::string>> fusedFunctions(bool linear);
// Whether an activation of `type` carries attribute `key` of `kind` into the fused node.
bool carriedAttribute(const std::string& type, const std::string& key, ir::Argument::Kind kind);

}  // namespace fxc::passes
