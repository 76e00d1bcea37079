// A GraphModule: the graph plus the module tree it calls into (typed modules with attributes
// and named parameters/buffers) — torch.fx's GraphModule with an nn.Module hierarchy.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/argument.h"
#include "ir/graph.h"

namespace fxc::ir {

// Element types, numbered as ONNX's TensorProto.DataType.
enum class DType : int32_t {
  kUndefined = 0,
  kFloat32 = 1,
  kUInt8 = 2,
  kInt8 = 3,
  kUInt16 = 4,
  kInt16 = 5,
  kInt32 = 6,
  kInt64 = 7,
  kString = 8,
  kBool = 9,
  kFloat16 = 10,
  kFloat64 = 11,
  kUInt32 = 12,
  kUInt64 = 13,
  kComplex64 = 14,
  kComplex128 = 15,
  kBFloat16 = 16,
};
std::string_view dtypeName(DType dtype);  // "float32", ...
size_t dtypeSize(DType dtype);            // bytes per element, 0 for strings

// A constant tensor. Its little-endian bytes are owned here, or are a view into storage that
// `keep_alive` holds (the memory-mapped model file), so that loading a model copies no weights.
// A view may be unaligned: read it with memcpy, or take ownedBytes() first.
class Tensor {
 public:
  DType dtype = DType::kUndefined;
  std::vector<int64_t> dims;
  std::vector<std::string> strings;  // for DType::kString
  // The name the tensor had in the model it came from, and, when an ONNX Constant node made it
  // rather than an initializer, that node's name (possibly empty), the attribute that held the
  // value (value, value_int, value_floats, ...) and a `value` tensor's own name: what an export
  // writes back.
  std::string source_name;
  bool from_constant_node = false;
  std::string source_node, constant_attribute, constant_tensor_name;

  int64_t numel() const;
  const char* bytes() const { return view_ ? view_ : owned_.data(); }
  size_t byteSize() const { return view_ ? view_size_ : owned_.size(); }
  bool isView() const { return view_ != nullptr; }
  // The bytes as an owned, writable string (a view is copied once).
  std::string& ownedBytes();
  void setBytes(std::string bytes);
  // `mapped_file`: `data` lies in a read-only mapping of a file (see releasePages).
  void setView(std::shared_ptr<const void> keep_alive, const char* data, size_t size,
               bool mapped_file = false);
  // A view of a mapped file gives the pages it has read back to the system (they are read from
  // the file again if the bytes are read again): for a runtime that has copied the elements and
  // would otherwise hold the weights twice. Does nothing for any other tensor.
  void releasePages() const;

 private:
  std::string owned_;
  std::shared_ptr<const void> keep_alive_;
  const char* view_ = nullptr;
  size_t view_size_ = 0;
  bool mapped_file_ = false;
};

class Module {
 public:
  explicit Module(std::string type) : type_(std::move(type)) {}
  const std::string& type() const { return type_; }
  void setType(std::string type) { type_ = std::move(type); }

  Kwargs& attributes() { return attributes_; }
  const Kwargs& attributes() const { return attributes_; }
  // The attribute `name`, or nullptr; a number attribute (int or float) or `fallback`.
  const Argument* attribute(std::string_view name) const;
  double numberAttribute(std::string_view name, double fallback) const;
  // Sets `name`, replacing it where it is, else appending it.
  void setAttribute(const std::string& name, Argument value);
  // Parameters and buffers, in registration order.
  const std::vector<std::pair<std::string, std::shared_ptr<Tensor>>>& tensors() const {
    return tensors_;
  }
  void setTensor(const std::string& name, std::shared_ptr<Tensor> tensor);
  std::shared_ptr<Tensor> tensor(std::string_view name) const;
  bool removeTensor(std::string_view name);
  // Removes every tensor whose name `dead` accepts, in one sweep (removeTensor one by one
  // reindexes each time: quadratic in a module of many constants); how many went.
  size_t removeTensorsIf(const std::function<bool(const std::string&)>& dead);

  const std::vector<std::pair<std::string, std::unique_ptr<Module>>>& children() const {
    return children_;
  }
  Module* child(std::string_view name) const;
  Module* addChild(const std::string& name, std::string type);
  bool removeChild(std::string_view name);
  size_t removeChildrenIf(const std::function<bool(const std::string&)>& dead);

 private:
  std::string type_;
  Kwargs attributes_;
  std::vector<std::pair<std::string, std::shared_ptr<Tensor>>> tensors_;
  std::vector<std::pair<std::string, std::unique_ptr<Module>>> children_;
  // name → position, so that lookups stay O(1) in modules with many constants or children.
  std::unordered_map<std::string, size_t> tensor_index_;
  std::unordered_map<std::string, size_t> child_index_;
};

class GraphModule {
 public:
  GraphModule() : root_("GraphModule") {}

  Graph& graph() { return graph_; }
  const Graph& graph() const { return graph_; }
  Module& root() { return root_; }
  const Module& root() const { return root_; }

  // "layer1.0.conv1" → that module, or nullptr. "" is the root.
  Module* findModule(std::string_view path) const;
  // Creates the module at `path` (and "Module" containers above it) or retypes an existing one.
  Module* addModule(std::string_view path, const std::string& type);
  // Removes the module at `path` (and what it holds); whether there was one.
  bool removeModule(std::string_view path);
  // "layer1.0.conv1.weight" → that tensor, or nullptr.
  std::shared_ptr<Tensor> findTensor(std::string_view path) const;
  // A path no tensor or module has yet: `base`, else base_1, base_2, ...
  std::string freshPath(const std::string& base) const;
  // Registers `tensor` at a dotted path, creating containers as needed.
  void setTensor(std::string_view path, std::shared_ptr<Tensor> tensor);

  // Every module with its path, parents before children (torch's named_modules, root excluded).
  std::vector<std::pair<std::string, const Module*>> namedModules() const;

  // The frontend's record of the whole model (lib/onnx: opsets, metadata, graph signature).
  std::any source;
  // The operator-set version the targets mean (ONNX's default-domain opset; 0 when unknown):
  // Softmax and friends changed semantics with it, and the executor must know which.
  int64_t opset = 0;

 private:
  Graph graph_;
  Module root_;
};

}  // namespace fxc::ir
