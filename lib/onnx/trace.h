// ONNX → FX graph IR ("trace"), keeping on every node what an export back to ONNX needs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"
#include "onnx/load.h"

namespace fxc::onnx {

struct TraceOptions {
  bool inline_functions = false;  // trace through ONNX local functions instead of leaf calls
  bool infer_shapes = false;      // run ONNX shape inference to fill shape/dtype meta
  // Take the shapes the graph declares for its values and outputs (value_info) as they are: a
  // control-flow body's tracer, whose declared output types are its semantics (a Loop that runs
  // no step returns empty scan outputs of the declared shape) and which no shape-proving pass
  // rewrites. Off (the model's graph): only the inputs' declared shapes are kept, the others are
  // inferred from them or unknown.
  bool declared_shapes = false;
  // With infer_shapes: input shapes for the inference by ONNX name (--shape), and a batch size
  // for every input's first dimension (--batch, 0: none). The model keeps its declared inputs
  // (the placeholders show them); the inferred shapes of everything else follow the given ones.
  // Names that are no input of the model are ignored here: the caller checks them.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  int64_t batch = 0;
  // The given shapes are those the graph will run with (run, profile, bench), not a view: the
  // placeholders take them, and the shapes the model declares for every other value (its
  // value_info, outputs and subgraphs' values), which follow the declared inputs, are dropped
  // before the inference runs (it runs whenever a shape is given). Passes then prove what
  // they rewrite from the shapes of the run: Shape folded with the declared batch of 1 under
  // --batch 2 computed another function.
  bool run_shapes = false;
  // Recognize decomposed torch.nn modules where the graph's values prove them (recognize.h).
  // Off: every op as written, one node each: the model as the oracle runs it.
  bool recognize = true;
};

// Stored in Node::meta.source of every node made from ONNX nodes.
struct NodeRecord {
  // The ONNX node (op type, domain, attributes, value names), or the ops of a module group.
  std::vector<std::shared_ptr<const ::onnx::NodeProto>> protos;
  // Each ONNX value read from outside: "arg" for an FX argument (in order), else the name of the
  // module tensor it binds.
  std::vector<std::pair<std::string, std::string>> inputs;
  int output_index = -1;  // for operator.getitem nodes: which output of protos[0]
  // The ONNX name of the value this node produces, when it is not protos[0]'s only output
  // (placeholders: the graph input; module groups and passes: the value that leaves them).
  std::string value;
};

// The ONNX name of the value `node` produces, from its record ("" when it has none): what a pass
// that replaces the node gives the replacement, so that export keeps the name.
std::string recordedValueName(const ir::Node& node);

// Stored in GraphModule::source: the model with its nodes and tensor bytes moved out.
struct ModelRecord {
  std::shared_ptr<::onnx::ModelProto> proto;
  // The external data files the initializers were read from (the model's directory prefixed):
  // what a command writing files must not write over.
  std::vector<std::string> data_files;
};

// Builds the GraphModule. Consumes `model` (tensor bytes are moved, not copied). Errors name the
// node and value; the caller prefixes the file.
Expected<std::unique_ptr<ir::GraphModule>> trace(LoadedModel model, const TraceOptions& options);

// Replaces calls of the model's local functions by their bodies, recursively.
Expected<bool> inlineFunctions(::onnx::ModelProto& model);

}  // namespace fxc::onnx
