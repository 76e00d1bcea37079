#include "exec/kernel.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "exec/kernels_internal.h"

namespace fxc::exec {

const Value& KernelContext::input(size_t k) const {
  if (k >= inputs_.size() || !inputs_[k])
    throw ExecError("input " + std::to_string(k) + " is missing");
  return *inputs_[k];
}

Value KernelContext::takeInput(size_t k) const {
  const Value& x = input(k);
  // The caller's value is not const (the interpreter's environment): it only lends it as const.
  if (k < takeable_.size() && takeable_[k]) return std::move(const_cast<Value&>(x));
  return x;
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
  return optionalIntAttribute(name).value_or(fallback);
}

std::optional<int64_t> KernelContext::optionalIntAttribute(const std::string& name) const {
  const ir::Argument* value = attribute(name);
  if (!value) return std::nullopt;
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
  for (const auto& item : value->items()) {
    if (item.kind() != ir::Argument::Kind::kInt)
      throw ExecError("attribute " + name + " is " + ir::pyRepr(*value) +
                      ", not a list of integers");
    out.push_back(item.toInt());
  }
  return out;
}

namespace {

bool anyFloat64(const KernelContext& c) {
  for (size_t k = 0; k < c.inputCount(); ++k) {
    const Value* v = c.optionalInput(k);
    if (v && v->isDouble()) return true;
  }
  return false;
}

// The kernels that compute float64 in double (each checked for it): arithmetic, comparisons,
// reductions, casts, and the ops that read only a shape.
const std::unordered_set<std::string>& doubleKernels() {
  static const std::unordered_set<std::string> keys = {"operator.add",      "torch.add",
                                                       "operator.sub",      "torch.sub",
                                                       "operator.mul",      "torch.mul",
                                                       "operator.truediv",  "torch.div",
                                                       "torch.maximum",     "torch.minimum",
                                                       "onnx.Sum",          "onnx.Mean",
                                                       "onnx.Mod",          "operator.eq",
                                                       "operator.lt",       "operator.gt",
                                                       "operator.le",       "operator.ge",
                                                       "torch.sum",         "torch.mean",
                                                       "torch.amax",        "torch.amin",
                                                       "torch.prod",        "onnx.ReduceL1",
                                                       "onnx.ReduceL2",     "onnx.ReduceSumSquare",
                                                       "onnx.ReduceLogSum", "onnx.ReduceLogSumExp",
                                                       "torch.argmax",      "torch.argmin",
                                                       "torch.cumsum",      "torch.einsum",
                                                       "onnx.Cast",         "onnx.CastLike",
                                                       "onnx.EyeLike",      "onnx.ConstantOfShape",
                                                       "onnx.Shape",        "onnx.Size"};
  return keys;
}

// The kernels that only place elements (copy, select, reorder), by the input positions that
// hold elements (the others: indices, shapes, conditions; none listed: all). float64 elements go
// through them as int64 bit patterns, every bit kept.
const std::unordered_map<std::string, std::vector<size_t>>& movingKernels() {
  static const std::unordered_map<std::string, std::vector<size_t>> keys = {
      {"onnx.Identity", {0}},  {"module:Identity", {0}},     {"torch.flatten", {0}},
      {"module:Flatten", {0}}, {"torch.reshape", {0}},       {"torch.unsqueeze", {0}},
      {"torch.squeeze", {0}},  {"torch.permute", {0}},       {"torch.cat", {}},
      {"onnx.Gather", {0}},    {"onnx.Slice", {0}},          {"torch.broadcast_to", {0}},
      {"torch.tile", {0}},     {"torch.where", {1, 2}},      {"torch.split", {0}},
      {"torch.gather", {0}},   {"onnx.GatherND", {0}},       {"onnx.Trilu", {0}},
      {"onnx.Compress", {0}},  {"onnx.ReverseSequence", {0}},
      {"torch.nn.functional.channel_shuffle", {0}}};
  return keys;
}

// `kernel` on float64 element inputs held as int64 bit patterns; its int64 outputs are those
// elements, returned as float64. Element inputs of another type beside float64 ones, or float64
// anywhere else, are refused.
Kernel movingBits(Kernel kernel, std::vector<size_t> elements) {
  return [kernel, elements](const KernelContext& c) {
    if (!anyFloat64(c)) return kernel(c);
    std::vector<Value> copies(c.inputCount());
    std::vector<const Value*> inputs(c.inputCount());
    for (size_t k = 0; k < c.inputCount(); ++k) {
      const Value* v = c.optionalInput(k);
      inputs[k] = v;
      if (!v) continue;
      bool element =
          elements.empty() || std::find(elements.begin(), elements.end(), k) != elements.end();
      if (element != v->isDouble())
        throw ExecError("unsupported: float64 with " + std::string(ir::dtypeName(v->dtype)) +
                        " operands");
      if (!element) continue;
      copies[k] = Value::ints(v->shape, std::vector<int64_t>(v->d.size()));
      if (!v->d.empty()) std::memcpy(copies[k].i.data(), v->d.data(), v->d.size() * 8);
      inputs[k] = &copies[k];
    }
    std::vector<Value> outputs = kernel(c.withInputs(std::move(inputs)));
    for (Value& y : outputs) {
      if (y.dtype != ir::DType::kInt64) continue;
      y.dtype = ir::DType::kFloat64;
      y.d.resize(y.i.size());
      if (!y.i.empty()) std::memcpy(y.d.data(), y.i.data(), y.i.size() * 8);
      y.i.clear();
    }
    return outputs;
  };
}

Kernel refuseFloat64(Kernel kernel, const std::string& key) {
  std::string op = key.rfind("module:", 0) == 0 ? key.substr(7) : key;
  return [kernel, op](const KernelContext& c) {
    if (anyFloat64(c))
      throw ExecError("unsupported: float64 inputs to " + op + " (computed in float32 only)");
    return kernel(c);
  };
}

// Every kernel of `table` as it treats float64: computed in double, moved bit for bit, or
// refused by name (never computed in float32 and relabelled).
void guardFloat64(KernelTable& table) {
  for (auto& [key, kernel] : table) {
    if (doubleKernels().count(key)) continue;
    auto moving = movingKernels().find(key);
    if (moving != movingKernels().end()) {
      kernel = movingBits(kernel, moving->second);
      continue;
    }
    kernel = refuseFloat64(kernel, key);
  }
}

}  // namespace

Kernel float64OnCpu(Kernel kernel, Kernel cpu, const std::string& key) {
  if (!cpu) return refuseFloat64(std::move(kernel), key);
  return [kernel, cpu](const KernelContext& c) {
    return anyFloat64(c) ? onPlainInputs(cpu, c) : kernel(c);
  };
}

namespace {

// The reference kernels before guardFloat64.
KernelTable unguardedReferenceKernels() {
  KernelTable table;
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
}

}  // namespace

const std::unordered_map<std::string, Kernel>& referenceKernels() {
  static const KernelTable kernels = [] {
    KernelTable table = unguardedReferenceKernels();
    guardFloat64(table);
    return table;
  }();
  return kernels;
}

const Value* parameter(const KernelContext& c, const char* name, size_t index) {
  if (const Value* t = c.tensor(name)) return t;
  return c.optionalInput(index);
}

const std::string& fusedActivation(const KernelContext& c, ir::Kwargs& attributes) {
  static const std::string prefix = "activation_";
  const ir::Argument* type = c.attribute("activation");
  if (!type || type->kind() != ir::Argument::Kind::kString)
    throw ExecError("a fused module without its activation");
  attributes.clear();
  for (const auto& [key, value] : c.attributes()) {
    if (key.compare(0, prefix.size(), prefix) == 0)
      attributes.emplace_back(key.substr(prefix.size()), value);
  }
  return type->toString();
}

KernelContext activationContext(const KernelContext& c, std::vector<const Value*> inputs,
                                const ir::Kwargs& attributes) {
  return c.withView(std::move(inputs), &attributes,
                    [&c](const std::string& name) { return c.tensor("activation_" + name); });
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
  return kernel(c.withPlainInputs(std::move(inputs)));
}

bool acceptsNative(const std::string& key) {
  const auto& keys = nativeKernelKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

const std::unordered_map<std::string, Kernel>& cpuKernels() {
  static const std::unordered_map<std::string, Kernel> kernels = [] {
    KernelTable table = unguardedReferenceKernels();
    addFastKernels(table);  // float32 only, or handing other inputs to the reference kernels
    guardFloat64(table);
    return table;
  }();
  return kernels;
}

}  // namespace fxc::exec
