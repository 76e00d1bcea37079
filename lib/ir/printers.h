// The views of a graph: torch.fx's print_tabular, generated Python code, str(graph), and JSON.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "ir/graph_module.h"

namespace fxc::ir {

// torch.fx's Graph.print_tabular (tabulate "simple": two-space gaps, trailing spaces stripped).
// `with_shapes` adds shape and dtype columns from node meta.
std::string printTabular(const Graph& graph, bool with_shapes = false);
// torch.fx's GraphModule.code: `def forward(self, ...):`, one line per node, frees after last use.
std::string pythonCode(const Graph& graph);
// Graphviz DOT after torch.fx's FxGraphDrawer: a record per node coloured by opcode, module
// paths as nested clusters, each value's shape on its edges when `with_shapes`.
std::string printDot(const GraphModule& gm, const std::string& name, bool with_shapes = false);
// Everything above, machine-readable: nodes (with users and meta), modules, code.
nlohmann::json toJson(const GraphModule& module);

}  // namespace fxc::ir
