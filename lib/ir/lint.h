// The one verifier: every IR invariant is checked here and nowhere else.
#pragma once

#include <string>

#include "ir/graph.h"

namespace fxc::ir {

class GraphModule;

// torch.fx's Graph.lint checks and messages (ownership, topological order, unique names, legal
// opcodes, call_module/get_attr targets that resolve in `owner`), plus list linkage and the
// users/args symmetry the mutators maintain. Returns "" when the graph is well formed, else the
// first problem found.
std::string lintGraph(const Graph& graph, const GraphModule* owner = nullptr);

}  // namespace fxc::ir
