// IR → ONNX: a GraphModule back to a ModelProto, and writing it safely.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace onnx {
class ModelProto;
}

namespace fxc::onnx {

// Rebuilds the model: nodes that came from ONNX are written from their record (op, domain,
// attributes, value names kept), nodes made by passes from their target and kwargs (call_function)
// or module type, attributes and tensors (call_module). Model-level fields (opsets, metadata,
// functions, graph input/output types) come from the traced model. Tensors are written once
// each, under the name they had; a tensor that came from a Constant node goes back to one.
struct ExportedModel {
  std::shared_ptr<::onnx::ModelProto> proto;
  // With deferred data, initializer i of the graph has no bytes in `proto`: they stay in
  // deferred[i] (when set) until saveModel writes them straight from there, uncopied.
  std::vector<std::shared_ptr<const ir::Tensor>> deferred;
  // Copies deferred bytes into the proto (for the checker, or for callers that want a plain
  // ModelProto).
  void materialize();
};
Expected<ExportedModel> exportModel(const ir::GraphModule& gm, bool defer_data = false);

// Runs ONNX's checker; the error text when it fails.
Expected<bool> checkModel(const ::onnx::ModelProto& model);
// Runs ONNX's checker on a model file as ONNX's loader reads it, its external data included.
Expected<bool> checkModelFile(const std::string& path);

struct SaveOptions {
  bool external_data = false;  // tensors over 1 KiB to PATH.data (automatic past 2 GB)
  // Run ONNX's checker on what was written (the file as ONNX's loader reads it, external data
  // included) before it takes its name; a stream or device is checked in memory before writing.
  bool check = false;
  // Reads back what was written (the temporary file, before it takes its name) and says whether
  // it may stay; not called for a stream or device.
  std::function<Expected<bool>(const std::string& written)> verify;
};

// Writes to `path` through an OutputFile (ir/output_file.h: "-" is stdout, a regular file is
// replaced only when complete, a device or FIFO is written in place). Tensor
// bytes are written from where they lie (the mapped input model, a pass's new tensor).
Expected<bool> saveModel(ExportedModel& model, const std::string& path,
                         const SaveOptions& options = {});

}  // namespace fxc::onnx
