// torch.fx's ShapeProp: runs the graph on example inputs and records each value's shape and dtype.
// fxc uses it where ONNX's shape inference stops (a Reshape whose shape is computed, an op the
// inference does not know): a value keeps the shape ONNX inferred, and gets the one the run
// produced where ONNX left it unknown. A shape is recorded only where the run proves it for every
// input of these shapes: not for values whose shape depends on the example's *values* (NonZero,
// a Reshape whose shape is computed from the data, an op not known to depend on shapes alone),
// nor for anything computed from such a value.
#pragma once

#include <string>
#include <vector>

#include "exec/value.h"
#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::passes {

struct ShapePropReport {
  size_t filled = 0;    // values given a shape ONNX's inference did not find
  size_t unproven = 0;  // values left without one: their shape depends on the example's values
  // Values whose shape ONNX inferred and the run contradicts: "name: ONNX [..], run [..]" (a
  // kernel of fxc's or the model's declared types are wrong; either way, worth saying).
  std::vector<std::string> disagreements;
  // The Shape and Size nodes whose input's shape the run proves, with the value they gave: for
  // every input of these shapes they give it again (const-fold's constants).
  std::vector<std::pair<ir::Node*, exec::Value>> shape_values;
};

// Runs `gm` on `inputs` (one per placeholder, every dimension known; the CPU kernels) and fills
// the meta of the values whose shape is unknown or holds symbols (with every input dimension
// known, a symbol in an inferred shape is one the inference could not work out). Errors are the
// run's ("node 'x': ...").
Expected<ShapePropReport> propagateShapes(ir::GraphModule& gm, std::vector<exec::Value> inputs);

}  // namespace fxc::passes
