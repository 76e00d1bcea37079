#include "exec/interpreter.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <stdexcept>
#include <unordered_set>

#include "exec/cudnn/backend.h"

namespace fxc::exec {

namespace {

std::atomic<int64_t> node_limit{0}, nodes_run{0};

const std::unordered_map<std::string, Kernel>& tableFor(Backend backend) {
  switch (backend) {
    case Backend::kReference:
      return referenceKernels();
    case Backend::kCudnn: {
      static const std::unordered_map<std::string, Kernel> merged = [] {
        std::unordered_map<std::string, Kernel> table = cpuKernels();
        for (const auto& [key, kernel] : cudnn::kernels()) {
          auto cpu = table.find(key);
          table[key] = float64OnCpu(kernel, cpu == table.end() ? Kernel() : cpu->second, key);
        }
        return table;
      }();
      return merged;
    }
    case Backend::kCpu:
      break;
  }
  return cpuKernels();
}

// Whether the kernel under `key` takes NativeData inputs as they are on `backend`.
bool takesNative(Backend backend, const std::string& key) {
  if (backend == Backend::kCpu) return acceptsNative(key);
  if (backend == Backend::kCudnn) return cudnn::kernels().count(key) != 0;
  return false;
}

}  // namespace

std::optional<std::vector<Value>> evaluateCall(const ir::GraphModule& gm, const ir::Node& node,
                                               std::vector<const Value*> inputs) {
  const auto& table = referenceKernels();
  const ir::Module* module = nullptr;
  std::string key;
  if (node.op() == ir::Opcode::kCallFunction) {
    key = node.target();
  } else if (node.op() == ir::Opcode::kCallModule) {
    module = gm.findModule(node.target());
    if (!module) return std::nullopt;
    key = "module:" + module->type();
  }
  auto it = table.find(key);
  if (it == table.end()) return std::nullopt;
  std::unordered_map<std::string, Value> tensors;  // the module's, converted once
  auto tensor = [&](const std::string& name) -> const Value* {
    auto held = module ? module->tensor(name) : nullptr;
    if (!held) return nullptr;
    auto [at, fresh] = tensors.try_emplace(name);
    if (fresh) at->second = fromTensor(*held);
    return &at->second;
  };
  std::any state;
  KernelContext context(node, module, std::move(inputs), tensor, gm.opset, &state);
  return it->second(context);
}

Interpreter::Interpreter(const ir::GraphModule& gm, Backend backend) : gm_(gm), backend_(backend) {
  const auto& table = tableFor(backend);
  for (const ir::Node* node : gm_.graph()) {
    slot_.emplace(node, steps_.size());
    steps_.emplace_back().node = node;
  }
  uses_.assign(steps_.size(), 0);
  constants_.resize(steps_.size());
  is_constant_.assign(steps_.size(), 0);
  for (Step& step : steps_) {
    const ir::Node* node = step.node;
    std::string key;
    if (node->op() == ir::Opcode::kCallFunction) {
      key = node->target();
    } else if (node->op() == ir::Opcode::kCallModule) {
      step.module = gm_.findModule(node->target());
      if (step.module) key = "module:" + step.module->type();
    }
    auto it = key.empty() ? table.end() : table.find(key);
    if (it != table.end()) {
      step.kernel = &it->second;
      step.native = takesNative(backend, key);
    }
    for (const ir::Node* input : node->inputNodes()) {
      auto at = slot_.find(input);
      if (at == slot_.end()) continue;  // not of this graph: an arg naming it is refused below
      step.inputs.push_back(at->second);
      ++uses_[at->second];
    }
    if (node->op() != ir::Opcode::kCallFunction && node->op() != ir::Opcode::kCallModule) continue;
    auto slotOf = [&](const ir::Argument& arg) {
      if (arg.isNode()) {
        auto at = slot_.find(arg.toNode());
        if (at != slot_.end()) return at->second;
        if (step.bad_arg.empty()) {
          step.bad_arg = "reads " + arg.toNode()->name() + ", a node of another graph";
          step.bad_arg_internal = true;
        }
      } else if (!arg.isNone() && step.bad_arg.empty()) {
        step.bad_arg = "argument " + ir::pyRepr(arg) + " is not a value";
      }
      return kNone;
    };
    if (node->target() == "operator.getitem") {
      if (!node->args().empty()) step.args.push_back(slotOf(node->args()[0]));
      continue;
    }
    for (const ir::Argument& arg : node->args()) step.args.push_back(slotOf(arg));
    // The outer values a control-flow op's subgraphs read follow its args.
    if (const ir::Argument* captures = node->kwarg("captures")) {
      for (const ir::Argument& arg : captures->items()) step.args.push_back(slotOf(arg));
    }
  }
}

Interpreter::Step& Interpreter::stepOf(const ir::Node& node) {
  if (current_ && current_->node == &node) return *current_;
  return steps_[slot_.at(&node)];
}

const Interpreter::Step& Interpreter::stepOf(const ir::Node& node) const {
  return steps_[slot_.at(&node)];
}

std::vector<const ir::Node*> Interpreter::inputs() const {
  std::vector<const ir::Node*> out;
  for (const ir::Node* node : gm_.graph()) {
    if (node->op() == ir::Opcode::kPlaceholder) out.push_back(node);
  }
  return out;
}

std::string Interpreter::describe(const ir::Node& node, const ir::Module* module) {
  return node.name() + " (" + (module ? module->type() : node.target()) + ")";
}

std::vector<std::string> Interpreter::unsupported() const {
  std::vector<std::string> out;
  for (const Step& step : steps_) {
    const ir::Node* node = step.node;
    bool call = node->op() == ir::Opcode::kCallFunction || node->op() == ir::Opcode::kCallModule;
    if (node->op() == ir::Opcode::kCallMethod ||
        (call && node->target() != "operator.getitem" && !step.kernel)) {
      out.push_back(describe(*node, step.module));
      continue;
    }
    // A control-flow op runs only what its subgraphs' nodes run (one that did not trace is
    // the kernel's to report: that is the model's fault, not a missing kernel).
    for (const ir::Subgraph& subgraph : node->meta.subgraphs) {
      if (!subgraph.graph) continue;
      std::vector<std::string> inner = Interpreter(*subgraph.graph, backend_).unsupported();
      if (inner.empty()) continue;
      out.push_back(node->name() + " (" + node->target() + ", " + subgraph.attribute + ": " +
                    inner.front() + ")");
      break;
    }
  }
  return out;
}

bool Interpreter::supported(std::string& missing) const {
  std::vector<std::string> nodes = unsupported();
  if (!nodes.empty()) missing = nodes.front();
  return nodes.empty();
}

std::vector<std::string> Interpreter::fallbacks() const {
  std::vector<std::string> out;
  if (backend_ != Backend::kCudnn) return out;
  for (const Step& step : steps_) {
    const ir::Node* node = step.node;
    bool call = node->op() == ir::Opcode::kCallFunction || node->op() == ir::Opcode::kCallModule;
    if (call && node->target() != "operator.getitem" && !step.native)
      out.push_back(describe(*node, step.module));
  }
  return out;
}

const Value* Interpreter::moduleTensor(const ir::Module& module, const std::string& name) {
  auto tensor = module.tensor(name);
  if (!tensor) return nullptr;
  auto it = tensors_.find(tensor.get());
  if (it == tensors_.end()) {
    it = tensors_.emplace(tensor.get(), fromTensor(*tensor)).first;
    // The copy is kept: the mapped file's pages need not be (weights would be held twice).
    tensor->releasePages();
  }
  return &it->second;
}

void setNodeLimit(int64_t nodes) {
  node_limit = nodes;
  nodes_run = 0;
}

std::vector<Value> Interpreter::runNode(const ir::Node& node, std::vector<const Value*> inputs) {
  if (int64_t limit = node_limit.load(std::memory_order_relaxed);
      limit > 0 && nodes_run.fetch_add(1, std::memory_order_relaxed) >= limit)
    throw ExecError("more than " + std::to_string(limit) + " nodes run (the process's limit)");
  Step& step = stepOf(node);
  const ir::Module* module = step.module;
  if (!step.kernel) {
    throw ExecError("unsupported: " + (module ? "module type " + module->type() : node.target()));
  }
  KernelContext context(
      node, module, std::move(inputs),
      [this, module](const std::string& name) {
        return module ? moduleTensor(*module, name) : nullptr;
      },
      gm_.opset, &step.state, backend_);
  // Copies the kernel's plan has made its own: freed once the kernel is done with them, whether
  // it returned or threw (a module called again, or a plan made again, converts the tensor anew).
  struct Release {
    const ir::Module* module;
    std::unordered_map<const ir::Tensor*, Value>& tensors;
    std::vector<std::string> names;
    ~Release() {
      for (const std::string& name : names) {
        if (auto tensor = module->tensor(name)) tensors.erase(tensor.get());
      }
    }
  } release{module, tensors_, {}};
  context.allowTaking(std::move(takeable_));
  takeable_.clear();
  if (module)
    context.setRelease([&release](const std::string& name) { release.names.push_back(name); });
  return (*step.kernel)(context);
}

Expected<std::vector<Value>> Interpreter::run(std::vector<Value> inputs) {
  // Values die after their last use, as in torch.fx's interpreter. Each node's values are in
  // its slot; `live` says which slots hold a node's result now.
  std::vector<size_t> uses_left = uses_;
  std::vector<std::vector<Value>> env(steps_.size());
  std::vector<char> live(steps_.size(), 0);
  auto valueAt = [&](size_t slot) -> Value& {
    if (is_constant_[slot]) return constants_[slot];
    if (!live[slot]) throw std::logic_error(steps_[slot].node->name() + " read before it ran");
    std::vector<Value>& produced = env[slot];
    // A kernel that gave nothing (an If whose branch returns no value) for a value read later.
    if (produced.empty()) throw ExecError(steps_[slot].node->name() + " produced no value");
    return produced[0];
  };
  auto set = [&](size_t slot, std::vector<Value> values) {
    env[slot] = std::move(values);
    live[slot] = 1;
  };
  std::vector<Value> outputs;
  size_t next_input = 0;
  const ir::Node* current = nullptr;
  std::vector<const Value*> args;
  std::vector<size_t> sources;  // the slot of each arg; kNone: none, or a kept constant
  try {
    for (size_t slot = 0; slot < steps_.size(); ++slot) {
      Step& step = steps_[slot];
      const ir::Node* node = step.node;
      current = node;
      switch (node->op()) {
        case ir::Opcode::kPlaceholder:
          if (next_input >= inputs.size()) throw ExecError("missing input " + node->name());
          set(slot, exec::outputs(std::move(inputs[next_input++])));
          break;
        case ir::Opcode::kGetAttr: {
          if (is_constant_[slot]) break;
          auto tensor = gm_.findTensor(node->target());
          if (!tensor) throw ExecError("no tensor " + node->target());
          Value value = fromTensor(*tensor);
          // Converted on the first run and kept for the next ones, up to a budget of memory;
          // past it, converted in every run and freed after its last use, as other values are.
          double bytes = static_cast<double>(value.numel()) * (value.isFloat() ? 4.0 : 8.0);
          if (constant_bytes_ + bytes <= kConstantBudget) {
            constant_bytes_ += bytes;
            constants_[slot] = std::move(value);
            is_constant_[slot] = 1;
            tensor->releasePages();
          } else {
            set(slot, exec::outputs(std::move(value)));
          }
          break;
        }
        case ir::Opcode::kOutput: {
          // A value nothing else reads and returned once is moved out, not copied.
          std::unordered_map<const ir::Node*, int> times;
          if (!node->args().empty()) node->args()[0].forEachNode([&](ir::Node* n) { ++times[n]; });
          auto take = [&](const ir::Argument& arg) {
            if (!arg.isNode()) throw ExecError("an output is not a value");
            const ir::Node* source = arg.toNode();
            size_t from = slot_.at(source);
            Value& value = valueAt(from);
            value.makePlain();
            bool last = !is_constant_[from] && times[source] == 1 && uses_left[from] == 1;
            outputs.push_back(last ? std::move(value) : value);
          };
          if (!node->args().empty()) {
            const ir::Argument& result = node->args()[0];
            if (result.isSequence()) {
              for (const auto& item : result.items()) take(item);
            } else {
              take(result);
            }
          }
          break;
        }
        default: {
          if (!step.bad_arg.empty()) {
            if (step.bad_arg_internal) throw std::logic_error(step.bad_arg);
            throw ExecError(step.bad_arg);
          }
          if (node->target() == "operator.getitem") {
            size_t from = step.args.at(0);
            if (from == kNone || !live[from]) throw std::logic_error("getitem of no value");
            auto& produced = env[from];
            size_t index = static_cast<size_t>(node->args().at(1).toInt());
            if (index >= produced.size())
              throw ExecError("unsupported: output " + std::to_string(index) + " of " +
                              steps_[from].node->name() + " (the kernel computes fewer)");
            // The last reader of a kernel's outputs takes its value; the others copy it.
            set(slot, exec::outputs(uses_left[from] == 1 ? std::move(produced[index])
                                                         : Value(produced[index])));
          } else {
            args.clear();
            sources.clear();
            for (size_t from : step.args) {
              if (from == kNone) {
                args.push_back(nullptr);
                sources.push_back(kNone);
                continue;
              }
              Value& value = valueAt(from);
              if (!step.native) value.makePlain();  // once: later readers find it plain
              args.push_back(&value);
              sources.push_back(is_constant_[from] ? kNone : from);
            }
            // The kernel may keep a value this node reads last, and in one arg only.
            takeable_.assign(args.size(), false);
            for (size_t k = 0; k < args.size(); ++k) {
              takeable_[k] = sources[k] != kNone && uses_left[sources[k]] == 1 &&
                             std::count(sources.begin(), sources.end(), sources[k]) == 1;
            }
            current_ = &step;
            set(slot, runNode(*node, std::move(args)));
            current_ = nullptr;
          }
        }
      }
      for (size_t input : step.inputs) {
        if (--uses_left[input] == 0) {
          env[input] = {};
          live[input] = 0;
        }
      }
    }
  } catch (const ExecError& error) {
    return Error{"node '" + (current ? current->name() : std::string("?")) + "': " + error.what()};
  } catch (const std::bad_alloc&) {
    return Error{"node '" + (current ? current->name() : std::string("?")) + "': out of memory"};
  } catch (const std::length_error&) {
    return Error{"node '" + (current ? current->name() : std::string("?")) + "': out of memory"};
  } catch (const std::exception& error) {
    // Anything else is a bug of fxc's (a missing value after lint passed, a kernel's bad index):
    // an internal error with the node's name, never worded as a fault of the model.
    throw InternalError("node '" + (current ? current->name() : std::string("?")) +
                        "': " + error.what());
  }
  return outputs;
}

}  // namespace fxc::exec
