// Reading ONNX models: files, stdin, external data, conversion of TensorProto to ir::Tensor.
#pragma once

#include <memory>
#include <string>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace onnx {
class ModelProto;
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace fxc::onnx {

struct LoadedModel {
  std::shared_ptr<::onnx::ModelProto> proto;
  std::string base_dir;  // where external data files are looked up
};

// Reads and parses `path` ("-" reads stdin). Errors name no file: the caller prefixes it.
Expected<LoadedModel> loadModel(const std::string& path);
// Parses serialized bytes.
Expected<LoadedModel> parseModel(const char* data, size_t size, std::string base_dir);

// Converts a TensorProto, moving its bytes out of the proto rather than copying them, and reading
// external data relative to `base_dir`. `what` names the tensor in error messages.
Expected<std::shared_ptr<ir::Tensor>> takeTensor(::onnx::TensorProto& proto,
                                                 const std::string& base_dir,
                                                 const std::string& what);

}  // namespace fxc::onnx
