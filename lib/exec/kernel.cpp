#include "exec/kernel.h"

#include <algorithm>

#include "exec/kernels_internal.h"

namespace fxc::exec {

const Value& KernelContext::input(size_t k) const {
  if (k >= inputs_.size() || !inputs_[k])
    throw ExecError("input " + std::to_string(k) + " is missing");
  return *inputs_[k];
}

bool KernelContext::outputUsed(size_t k) const {
  for (const ir::Node* user : node_.users()) {
    if (user->target() == "operator.getitem" && user->args().size() == 2 &&
        user->args()[1].kind() == ir::Argument::Kind::kInt &&
        user->args()[1].toInt() == static_cast<int64_t>(k))
      return true;
  }
  return false;
}

bool KernelContext::constantInput(size_t k) const {
  if (derived_ || !state_ || k >= inputs_.size() || k >= node_.args().size()) return false;
  const ir::Argument& arg = node_.args()[k];
  return arg.isNode() && arg.toNode()->op() == ir::Opcode::kGetAttr;
}

const ir::Kwargs& KernelContext::attributes() const {
  return attributes_ ? *attributes_ : module_ ? module_->attributes() : node_.kwargs();
}

const ir::Argument* KernelContext::attribute(const std::string& name) const {
  for (const auto& [key, value] : attributes()) {
    if (key == name) return &value;
  }
  return nullptr;
}

std::optional<Value> KernelContext::tensorAttribute(const std::string& name) const {
  for (const auto& [key, tensor] : node_.meta.tensor_attributes) {
    if (key == name && tensor) return fromTensor(*tensor);
  }
  return std::nullopt;
}

int64_t KernelContext::intAttribute(const std::string& name, int64_t fallback) const {
  const ir::Argument* value = attribute(name);
  if (!value) return fallback;
  if (value->kind() == ir::Argument::Kind::kInt) return value->toInt();
  throw ExecError("attribute " + name + " is " + ir::pyRepr(*value) + ", not an integer");
}

float KernelContext::floatAttribute(const std::string& name, float fallback) const {
  const ir::Argument* value = attribute(name);
  if (!value) return fallback;
  if (value->kind() == ir::Argument::Kind::kFloat) return static_cast<float>(value->toFloat());
  if (value->kind() == ir::Argument::Kind::kInt) return static_cast<float>(value->toInt());
  throw ExecError("attribute " + name + " is not a number");
}

std::string KernelContext::stringAttribute(const std::string& name,
                                           const std::string& fallback) const {
  const ir::Argument* value = attribute(name);
  return value && value->kind() == ir::Argument::Kind::kString ? value->toString() : fallback;
}

std::vector<int64_t> KernelContext::intsAttribute(const std::string& name,
                                                  std::vector<int64_t> fallback) const {
  const ir::Argument* value = attribute(name);
  if (!value) return fallback;
  if (!value->isSequence()) throw ExecError("attribute " + name + " is not a list");
  std::vector<int64_t> out;
  for (const auto& item : value->items()) out.push_back(item.toInt());
  return out;
}

const std::unordered_map<std::string, Kernel>& referenceKernels() {
  static const std::unordered_map<std::string, Kernel> kernels = [] {
    std::unordered_map<std::string, Kernel> table;
    addElementwiseKernels(table);
    addTensorKernels(table);
    addNeuralNetKernels(table);
    addReductionKernels(table);
    addLossKernels(table);
    addResizeKernels(table);
    addRecurrentKernels(table);
    addScatterKernels(table);
    addQuantizationKernels(table);
    addSelectionKernels(table);
    addNormalizationKernels(table);
    addPoolingKernels(table);
    addLinearAlgebraKernels(table);
    addSignalKernels(table);
    addSpatialKernels(table);
    addDetectionKernels(table);
    addControlFlowKernels(table);
    return table;
  }();
  return kernels;
}

std::vector<Value> onPlainInputs(const Kernel& kernel, const KernelContext& c) {
  std::vector<Value> copies(c.inputCount());
  std::vector<const Value*> inputs(c.inputCount());
  for (size_t k = 0; k < c.inputCount(); ++k) {
    const Value* v = c.optionalInput(k);
    if (v && v->native) {
      copies[k] = *v;
      copies[k].makePlain();
      v = &copies[k];
    }
    inputs[k] = v;
  }
  return kernel(c.withInputs(std::move(inputs)));
}

bool acceptsNative(const std::string& key) {
  const auto& keys = nativeKernelKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

const std::unordered_map<std::string, Kernel>& cpuKernels() {
  static const std::unordered_map<std::string, Kernel> kernels = [] {
    std::unordered_map<std::string, Kernel> table = referenceKernels();
    addFastKernels(table);
    return table;
  }();
  return kernels;
}

}  // namespace fxc::exec
