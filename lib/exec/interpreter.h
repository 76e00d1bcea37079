// torch.fx's Interpreter: walks the graph in order, runs each node, frees each value after its
// last use. run() and runNode() are the override points (a profiler is a small subclass).
#pragma once

#include <any>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/kernel.h"
#include "exec/value.h"
#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::exec {

// Runs one call_function or call_module node of `gm` with the reference kernels on `inputs`
// (nullptr where an argument is None; a module's tensors its own): constant folding's evaluator,
// the same kernel a reference run uses. Throws ExecError for what the kernel refuses; nullopt
// when the target has no kernel.
std::optional<std::vector<Value>> evaluateCall(const ir::GraphModule& gm, const ir::Node& node,
                                               std::vector<const Value*> inputs);

// A limit on the nodes run from now on, process-wide (every interpreter, each iteration of a
// subgraph's nodes included), past which runNode throws ExecError; 0, the default: none. Also
// restarts the count. The fuzz harnesses set it for each input: a fuzzer tests logic, not
// throughput (a Loop of 786,435 trips over a 2 × 3 add is slow, not hung).
void setNodeLimit(int64_t nodes);

class Interpreter {
 public:
  // The graph must not change while the interpreter lives.
  explicit Interpreter(const ir::GraphModule& gm, Backend backend = Backend::kCpu);
  virtual ~Interpreter() = default;

  // The placeholders, in order.
  std::vector<const ir::Node*> inputs() const;
  // Runs the graph on one value per placeholder; returns the graph outputs, a tuple flattened.
  virtual Expected<std::vector<Value>> run(std::vector<Value> inputs);
  // Whether every node has a kernel; the first that has none is named in `missing`.
  bool supported(std::string& missing) const;
  // The nodes without a kernel ("name (target)"), in graph order.
  std::vector<std::string> unsupported() const;
  Backend backend() const { return backend_; }
  // Call nodes the chosen backend runs with CPU kernels ("name (target)"): with kCudnn, the
  // ones that copy their inputs to the host.
  std::vector<std::string> fallbacks() const;

 protected:
  // Runs one call node on its inputs; the values it produces (several for multi-output ops).
  // Called by run(), its kernel may move out (take) an input the node reads last: an override
  // that reads `inputs` after calling this one sees such an input empty.
  virtual std::vector<Value> runNode(const ir::Node& node, std::vector<const Value*> inputs);

 private:
  const Value* moduleTensor(const ir::Module& module, const std::string& name);
  // "name (module type or target)", for messages.
  static std::string describe(const ir::Node& node, const ir::Module* module);

  // What the interpreter knows of a node, found once per model, not once per run (the graph
  // must not change while this lives). Steps are in graph order; a node's slot is its index.
  struct Step {
    const ir::Node* node = nullptr;
    const ir::Module* module = nullptr;  // a call_module's module
    const Kernel* kernel = nullptr;      // a call node's kernel; nullptr when none
    bool native = false;                 // the kernel takes NativeData inputs as they are
    // The slots of the nodes this one reads (each once), freed after their last read.
    std::vector<size_t> inputs;
    // A call node's values, in order: its args, then the captures a control-flow op's
    // subgraphs read: a node's slot, kNone for None; `bad_arg` names the first that is neither.
    std::vector<size_t> args;
    std::string bad_arg;
    bool bad_arg_internal = false;  // `bad_arg` is fxc's fault (a node of another graph)
    std::any state;                 // what the kernel keeps between runs (KernelContext::state)
  };
  static constexpr size_t kNone = static_cast<size_t>(-1);
  // The step of `node` (the one run() is on, or else found by its slot).
  Step& stepOf(const ir::Node& node);
  const Step& stepOf(const ir::Node& node) const;

  const ir::GraphModule& gm_;
  Backend backend_;
  std::vector<Step> steps_;
  std::unordered_map<const ir::Node*, size_t> slot_;
  // How many nodes read each slot (copied per run, counted down to free values).
  std::vector<size_t> uses_;
  // Module tensors converted once per model, not once per run.
  std::unordered_map<const ir::Tensor*, Value> tensors_;
  // get_attr values, likewise (by slot), up to kConstantBudget bytes.
  static constexpr double kConstantBudget = 1 << 30;
  std::vector<Value> constants_;
  std::vector<char> is_constant_;
  double constant_bytes_ = 0;
  // Set by run() for the next runNode: its step, and which of its inputs the kernel may take.
  Step* current_ = nullptr;
  std::vector<bool> takeable_;
};

}  // namespace fxc::exec
