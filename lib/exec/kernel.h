// CPU kernels and how the interpreter finds them: by call_function target ("operator.add") or
// by module type ("module:Conv2d").
#pragma once

#include <any>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/value.h"
#include "ir/graph_module.h"

namespace fxc::exec {

// Which kernels run the nodes.
enum class Backend {
  kCpu,        // oneDNN where it applies, the reference kernels elsewhere
  kReference,  // the reference kernels only
  kCudnn,      // values on a CUDA device: cuDNN/cuBLAS kernels, the CPU ones for the rest
};

// What a kernel sees: the node's inputs (its args; nullptr for None), its attributes (kwargs of
// a call_function, attributes of a module) and the module's tensors.
class KernelContext {
 public:
  KernelContext(const ir::Node& node, const ir::Module* module, std::vector<const Value*> inputs,
                std::function<const Value*(const std::string&)> tensor, int64_t opset = 0,
                std::any* state = nullptr, Backend backend = Backend::kReference)
      : node_(node),
        module_(module),
        inputs_(std::move(inputs)),
        tensor_(std::move(tensor)),
        opset_(opset),
        state_(state),
        backend_(backend) {}

  // The same node and attributes over other inputs.
  KernelContext withInputs(std::vector<const Value*> inputs) const {
    KernelContext c = *this;
    c.inputs_ = std::move(inputs);
    c.takeable_.clear();
    c.derived_ = true;
    return c;
  }
  // The same node with its own inputs in another form (host copies of native values): unlike
  // withInputs, still the node's args, so constantInput and releaseTensor still hold: a CPU
  // kernel run from the cuDNN backend plans on its constant weights as on the CPU (resnet18's
  // int8 stem fell to the reference convolution there: 115–225 ms a run, 7 ms with its plan).
  KernelContext withPlainInputs(std::vector<const Value*> inputs) const {
    KernelContext c = *this;
    c.inputs_ = std::move(inputs);
    c.takeable_.clear();
    return c;
  }
  // The same node seen with other inputs, attributes (kept alive by the caller) and module
  // tensors: how a 1-D op runs as the 2-D kernel.
  KernelContext withView(std::vector<const Value*> inputs, const ir::Kwargs* attributes,
                         std::function<const Value*(const std::string&)> tensor) const {
    KernelContext c = *this;
    c.inputs_ = std::move(inputs);
    c.takeable_.clear();
    c.attributes_ = attributes;
    c.tensor_ = std::move(tensor);
    c.derived_ = true;
    return c;
  }

  // The model's default-domain opset (0 when unknown).
  int64_t opset() const { return opset_; }
  // The backend running the node: a control-flow op runs its subgraphs on the same one.
  Backend backend() const { return backend_; }
  // The node run: its args come first among the inputs, then the values of its `captures`
  // kwarg (the outer values its subgraphs read), and its meta holds the subgraphs.
  const ir::Node& node() const { return node_; }

  // Whether output k (k >= 1) of a multi-output node is read: the graph has a getitem of it.
  // Lets a kernel skip an output nobody reads (MaxPool's Indices) or hand over to one that
  // computes it.
  bool outputUsed(size_t k) const;

  size_t inputCount() const { return inputs_.size(); }
  // Input k for the kernel to keep as (part of) its output: moved out when the caller said that
  // this node is the value's last reader (a reshape then costs nothing), else copied. Read
  // everything needed of input(k) before: afterwards it may be empty.
  Value takeInput(size_t k) const;
  // Which inputs takeInput may move out (the interpreter's values this node reads last, once).
  void allowTaking(std::vector<bool> takeable) { takeable_ = std::move(takeable); }
  const Value* optionalInput(size_t k) const { return k < inputs_.size() ? inputs_[k] : nullptr; }
  const Value& input(size_t k) const;
  // Whether input k is a constant of the model (a get_attr): the same value in every run of
  // this interpreter, so a plan may keep what it derives from it.
  bool constantInput(size_t k) const;
  // A module tensor (weight, bias, running_mean, ...), or nullptr.
  const Value* tensor(const std::string& name) const { return tensor_ ? tensor_(name) : nullptr; }
  // Says that the kernel's plan holds all it needs of module tensor `name` (a weight packed for
  // oneDNN) and will not ask for it while the plan fits: the caller may free its copy once the
  // node has run (tensor() converts it again if asked). Returns whether it will: not for a
  // derived context (withInputs, withView), whose tensors are not the module's.
  bool releaseTensor(const std::string& name) const {
    if (derived_ || !release_) return false;
    release_(name);
    return true;
  }
  void setRelease(std::function<void(const std::string&)> release) {
    release_ = std::move(release);
  }

  // The same node with another state: a kernel that keeps a plan gives the kernel it falls back
  // to (another backend's, which may keep one of its own) a state of its own, inside the plan.
  KernelContext withState(std::any* state) const {
    KernelContext c = *this;
    c.state_ = state;
    return c;
  }
  // What a kernel keeps for its node between runs (prepared primitives, reordered weights); it
  // lives as long as the interpreter. nullptr when the caller keeps nothing.
  std::any* state() const { return state_; }
  // The plan of type T kept in the state, or nullptr (none yet, or no state).
  template <typename T>
  T* keptPlan() const {
    auto* kept = state_ ? std::any_cast<std::shared_ptr<T>>(state_) : nullptr;
    return kept ? kept->get() : nullptr;
  }
  // The plan of type T kept in the state (which must exist): `make()`'s shared_ptr<T>, made
  // again whenever `fits(plan)` is false (a new input shape, another precision).
  template <typename T, typename Fits, typename Make>
  T& plan(Fits fits, Make make) const {
    auto* kept = std::any_cast<std::shared_ptr<T>>(state_);
    if (!kept || !fits(**kept)) {
      *state_ = std::shared_ptr<T>(make());
      kept = std::any_cast<std::shared_ptr<T>>(state_);
    }
    return **kept;
  }

  const ir::Argument* attribute(const std::string& name) const;
  // All of them: the module's attributes for a module call, else the node's kwargs.
  const ir::Kwargs& attributes() const;
  // A tensor-valued attribute (ConstantOfShape's value), or nullopt.
  std::optional<Value> tensorAttribute(const std::string& name) const;
  int64_t intAttribute(const std::string& name, int64_t fallback) const;
  // The integer attribute, nullopt when absent; an attribute of another kind is the model's error.
  std::optional<int64_t> optionalIntAttribute(const std::string& name) const;
  float floatAttribute(const std::string& name, float fallback) const;
  std::string stringAttribute(const std::string& name, const std::string& fallback) const;
  std::vector<int64_t> intsAttribute(const std::string& name, std::vector<int64_t> fallback) const;

 private:
  const ir::Node& node_;
  const ir::Module* module_;
  std::vector<const Value*> inputs_;
  std::vector<bool> takeable_;  // by input: the caller's value, which takeInput may move out
  std::function<const Value*(const std::string&)> tensor_;
  std::function<void(const std::string&)> release_;
  int64_t opset_;
  std::any* state_;
  Backend backend_;
  const ir::Kwargs* attributes_ = nullptr;  // instead of the node's or module's, when set
  bool derived_ = false;  // inputs replaced (withInputs, withView): no longer the node's args
};

using Kernel = std::function<std::vector<Value>(const KernelContext&)>;

// A kernel's outputs, each moved in. `return {std::move(y)};` would copy y's elements: a braced
// list builds the vector from an initializer_list, whose elements are const (ShuffleNet's
// reshapes copied each tensor twice; every kernel's output once).
template <typename... V>
std::vector<Value> outputs(V&&... values) {
  std::vector<Value> out;
  out.reserve(sizeof...(values));
  (out.push_back(std::forward<V>(values)), ...);
  return out;
}

// The CPU kernels, keyed by target or "module:<type>": oneDNN behind convolution, pooling and the
// matrix products, the reference kernels for the rest.
const std::unordered_map<std::string, Kernel>& cpuKernels();
// The reference kernels alone: plain loops, obviously correct; what the fast ones are tested
// against (`--backend reference`).
const std::unordered_map<std::string, Kernel>& referenceKernels();

// `kernel` for float32, and for float64 inputs `cpu` (the CPU table's kernel, which computes them
// in double or refuses them) on plain copies, or "unsupported: ..." where `cpu` is empty: for
// kernel sets that compute float32 only (the cuDNN backend). The tables above refuse or compute
// float64 already.
Kernel float64OnCpu(Kernel kernel, Kernel cpu, const std::string& key);

// Whether the kernel under `key` of cpuKernels() accepts inputs holding NativeData.
bool acceptsNative(const std::string& key);

// Threads for the CPU kernels (oneDNN's OpenMP pool); the default is one per core.
void setThreads(int threads);
int maxThreads();

}  // namespace fxc::exec
