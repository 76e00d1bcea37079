// Reading ONNX models: files, stdin, external data, conversion of TensorProto to ir::Tensor.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace onnx {
class ModelProto;
class NodeProto;
class TensorProto;
}  // namespace onnx

namespace fxc::onnx {

// Where an initializer's raw bytes lie in the model file, when the parse left them there.
struct RawSpan {
  const char* data = nullptr;
  size_t size = 0;
};

struct LoadedModel {
  std::shared_ptr<::onnx::ModelProto> proto;
  std::string base_dir;  // where external data files are looked up
  // Large raw_data of the main graph's initializers is not parsed into the proto: span i holds
  // initializer i's bytes inside `file`, the mapped model, which the tensors then share.
  std::vector<RawSpan> initializer_bytes;
  std::shared_ptr<const void> file;
  bool mapped = false;  // `file` is a read-only mapping of the model's file (not stdin's bytes)
};

// Reads and parses `path` ("-" reads stdin). Errors name no file: the caller prefixes it.
Expected<LoadedModel> loadModel(const std::string& path);
// Parses serialized bytes. With `file` set (it owns `data`), large initializer bytes are left in
// place instead of being copied into the proto.
Expected<LoadedModel> parseModel(const char* data, size_t size, std::string base_dir,
                                 std::shared_ptr<const void> file = nullptr);

// Converts a TensorProto: its bytes are moved out of the proto (or, given `span`, shared with
// the mapped file) rather than copied; external data is read relative to `base_dir`. `what`
// names the tensor in error messages.
Expected<std::shared_ptr<ir::Tensor>> takeTensor(::onnx::TensorProto& proto,
                                                 const std::string& base_dir,
                                                 const std::string& what,
                                                 const LoadedModel* model = nullptr,
                                                 const RawSpan* span = nullptr);

}  // namespace fxc::onnx
