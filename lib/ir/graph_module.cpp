#include "ir/graph_module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace fxc::ir {

std::string_view dtypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "float32";
    case DType::kUInt8:
      return "uint8";
    case DType::kInt8:
      return "int8";
    case DType::kUInt16:
      return "uint16";
    case DType::kInt16:
      return "int16";
    case DType::kInt32:
      return "int32";
    case DType::kInt64:
      return "int64";
    case DType::kString:
      return "string";
    case DType::kBool:
      return "bool";
    case DType::kFloat16:
      return "float16";
    case DType::kFloat64:
      return "float64";
    case DType::kUInt32:
      return "uint32";
    case DType::kUInt64:
      return "uint64";
    case DType::kComplex64:
      return "complex64";
    case DType::kComplex128:
      return "complex128";
    case DType::kBFloat16:
      return "bfloat16";
    default:
      return "undefined";
  }
}

size_t dtypeSize(DType dtype) {
  switch (dtype) {
    case DType::kUInt8:
    case DType::kInt8:
    case DType::kBool:
      return 1;
    case DType::kUInt16:
    case DType::kInt16:
    case DType::kFloat16:
    case DType::kBFloat16:
      return 2;
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kUInt32:
      return 4;
    case DType::kInt64:
    case DType::kFloat64:
    case DType::kUInt64:
    case DType::kComplex64:
      return 8;
    case DType::kComplex128:
      return 16;
    default:
      return 0;
  }
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string& Tensor::ownedBytes() {
  if (view_) {
    owned_.assign(view_, view_size_);
    view_ = nullptr;
    view_size_ = 0;
    mapped_file_ = false;
    keep_alive_.reset();
  }
  return owned_;
}

void Tensor::setBytes(std::string bytes) {
  owned_ = std::move(bytes);
  view_ = nullptr;
  view_size_ = 0;
  mapped_file_ = false;
  keep_alive_.reset();
}

void Tensor::setView(std::shared_ptr<const void> keep_alive, const char* data, size_t size,
                     bool mapped_file) {
  owned_.clear();
  keep_alive_ = std::move(keep_alive);
  view_ = data;
  view_size_ = size;
  mapped_file_ = mapped_file;
}

void Tensor::releasePages() const {
  if (!view_ || !mapped_file_) return;
  // Only whole pages inside the view. MADV_DONTNEED on a private read-only file mapping drops
  // the process's pages and refills them from the file on the next read: the same bytes (never
  // zeros: those are for anonymous memory, which a view flagged as a mapped file never is).
  auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto begin = (reinterpret_cast<uintptr_t>(view_) + page - 1) / page * page;
  auto end = (reinterpret_cast<uintptr_t>(view_) + view_size_) / page * page;
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

namespace {
template <typename Entries>
void reindex(const Entries& entries, std::unordered_map<std::string, size_t>& index) {
  index.clear();
  for (size_t i = 0; i < entries.size(); ++i) index.emplace(entries[i].first, i);
}

template <typename Entries>
size_t eraseIf(Entries& entries, std::unordered_map<std::string, size_t>& index,
               const std::function<bool(const std::string&)>& dead) {
  size_t before = entries.size();
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [&](const auto& entry) { return dead(entry.first); }),
                entries.end());
  if (entries.size() != before) reindex(entries, index);
  return before - entries.size();
}
}  // namespace

void Module::setTensor(const std::string& name, std::shared_ptr<Tensor> tensor) {
  auto it = tensor_index_.find(name);
  if (it != tensor_index_.end()) {
    tensors_[it->second].second = std::move(tensor);
    return;
  }
  tensor_index_.emplace(name, tensors_.size());
  tensors_.emplace_back(name, std::move(tensor));
}

std::shared_ptr<Tensor> Module::tensor(std::string_view name) const {
  auto it = tensor_index_.find(std::string(name));
  return it == tensor_index_.end() ? nullptr : tensors_[it->second].second;
}

bool Module::removeTensor(std::string_view name) {
  auto it = tensor_index_.find(std::string(name));
  if (it == tensor_index_.end()) return false;
  tensors_.erase(tensors_.begin() + static_cast<std::ptrdiff_t>(it->second));
  reindex(tensors_, tensor_index_);
  return true;
}

size_t Module::removeTensorsIf(const std::function<bool(const std::string&)>& dead) {
  return eraseIf(tensors_, tensor_index_, dead);
}

size_t Module::removeChildrenIf(const std::function<bool(const std::string&)>& dead) {
  return eraseIf(children_, child_index_, dead);
}

Module* Module::child(std::string_view name) const {
  auto it = child_index_.find(std::string(name));
  return it == child_index_.end() ? nullptr : children_[it->second].second.get();
}

Module* Module::addChild(const std::string& name, std::string type) {
  if (Module* existing = child(name)) return existing;
  child_index_.emplace(name, children_.size());
  children_.emplace_back(name, std::make_unique<Module>(std::move(type)));
  return children_.back().second.get();
}

bool Module::removeChild(std::string_view name) {
  auto it = child_index_.find(std::string(name));
  if (it == child_index_.end()) return false;
  children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(it->second));
  reindex(children_, child_index_);
  return true;
}

namespace {
std::vector<std::string_view> splitPath(std::string_view path) {
  std::vector<std::string_view> atoms;
  while (!path.empty()) {
    size_t dot = path.find('.');
    atoms.push_back(path.substr(0, dot));
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return atoms;
}
}  // namespace

Module* GraphModule::findModule(std::string_view path) const {
  const Module* module = &root_;
  for (std::string_view atom : splitPath(path)) {
    module = module->child(atom);
    if (!module) return nullptr;
  }
  return const_cast<Module*>(module);
}

Module* GraphModule::addModule(std::string_view path, const std::string& type) {
  Module* module = &root_;
  auto atoms = splitPath(path);
  for (size_t i = 0; i < atoms.size(); ++i) {
    module = module->addChild(std::string(atoms[i]), i + 1 == atoms.size() ? type : "Module");
  }
  module->setType(type);
  return module;
}

const Argument* Module::attribute(std::string_view name) const {
  for (const auto& [key, value] : attributes_) {
    if (key == name) return &value;
  }
  return nullptr;
}

double Module::numberAttribute(std::string_view name, double fallback) const {
  const Argument* value = attribute(name);
  if (!value) return fallback;
  if (value->kind() == Argument::Kind::kFloat) return value->toFloat();
  if (value->kind() == Argument::Kind::kInt) return static_cast<double>(value->toInt());
  return fallback;
}

void Module::setAttribute(const std::string& name, Argument value) {
  for (auto& [key, existing] : attributes_) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  attributes_.emplace_back(name, std::move(value));
}

bool GraphModule::removeModule(std::string_view path) {
  size_t dot = path.rfind('.');
  Module* parent = dot == std::string_view::npos ? &root_ : findModule(path.substr(0, dot));
  return parent && parent->removeChild(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

std::shared_ptr<Tensor> GraphModule::findTensor(std::string_view path) const {
  size_t dot = path.rfind('.');
  const Module* owner = dot == std::string_view::npos ? &root_ : findModule(path.substr(0, dot));
  if (!owner) return nullptr;
  return owner->tensor(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

void GraphModule::setTensor(std::string_view path, std::shared_ptr<Tensor> tensor) {
  size_t dot = path.rfind('.');
  Module* owner = &root_;
  if (dot != std::string_view::npos) {
    owner = findModule(path.substr(0, dot));
    if (!owner) owner = addModule(path.substr(0, dot), "Module");
  }
  owner->setTensor(std::string(dot == std::string_view::npos ? path : path.substr(dot + 1)),
                   std::move(tensor));
}

std::vector<std::pair<std::string, const Module*>> GraphModule::namedModules() const {
  std::vector<std::pair<std::string, const Module*>> out;
  std::vector<std::pair<std::string, const Module*>> stack = {{"", &root_}};
  while (!stack.empty()) {
    auto [prefix, module] = stack.back();
    stack.pop_back();
    if (module != &root_) out.emplace_back(prefix, module);
    const auto& children = module->children();
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      stack.emplace_back(prefix.empty() ? it->first : prefix + "." + it->first, it->second.get());
    }
  }
  return out;
}

std::string GraphModule::freshPath(const std::string& base) const {
  std::string path = base;
  for (int n = 1; findTensor(path) || findModule(path); ++n) path = base + "_" + std::to_string(n);
  return path;
}

}  // namespace fxc::ir
