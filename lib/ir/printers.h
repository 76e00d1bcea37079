// The views of a graph: torch.fx's print_tabular, generated Python code, str(graph), and JSON.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ir/graph_module.h"

namespace fxc::ir {

// torch.fx's Graph.print_tabular (tabulate "simple": two-space gaps, trailing spaces stripped).
// `with_shapes` adds shape and dtype columns from node meta.
std::string printTabular(const Graph& graph, bool with_shapes = false);
// torch.fx's GraphModule.code: `def forward(self, x : torch.Tensor) -> torch.Tensor:`, one line
// per node, call_function in PyTorch's signature (torch_call.h), frees after last use.
struct CodeOptions {
  // torch.fx's text exactly: three blank lines before the def and a line of four spaces after
  // it (print(gm.code)). Off for a def that goes into a file of ours.
  bool torch_fx_layout = true;
  // The right-hand side of a node's line, where the caller writes it (fxc codegen's calls into
  // onnx_ops); nullopt keeps the view's own.
  std::function<std::optional<std::string>(const Node&)> expression;
};
std::string pythonCode(const Graph& graph, const CodeOptions& options = {});
// torch.fx's _format_target: ("self", "layer1.0.conv1") → getattr(self.layer1, "0").conv1
std::string formatTarget(std::string base, std::string_view target);
// Graphviz DOT after torch.fx's FxGraphDrawer: a record per node coloured by opcode, module
// paths as nested clusters, each value's shape on its edges when `with_shapes`.
std::string printDot(const GraphModule& gm, const std::string& name, bool with_shapes = false);
// Everything above, machine-readable: nodes (with users and meta), modules, code.
nlohmann::json toJson(const GraphModule& module);

}  // namespace fxc::ir
