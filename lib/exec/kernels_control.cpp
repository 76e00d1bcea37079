// Control flow: ONNX If, Loop and Scan (opset 8's batched form, and 9+). Their subgraphs are
// graphs of their own (ir::Meta::subgraphs, traced by the frontend), run by an Interpreter made
// once per node and kept in the kernel's state, on the backend that runs the node.
//
// A node's inputs are its args, then its captures (the outer values its subgraphs read); each
// subgraph's placeholders are its formal inputs, then one per capture, in the same order.
//
//   If(cond)                        then_branch() if cond else else_branch()
//   Loop(M, cond, v...)             for (i = 0; (M absent or i < M) and cond; ++i)
//                                      cond, v..., s... = body(i, cond, v...)
//                                   → v..., each s stacked over the iterations on a new axis 0
//   Scan(s..., x...)  (9+)          for t along each x's axis: s..., y... = body(s..., x[t]...)
//                                   → s..., each y stacked on its output axis (or prepended)
//   Scan(lens, s..., x...)  (8)     the same per batch entry b (axis 0), over x[b]'s axis 1 up to
//                                   lens[b]; outputs padded with zeros to the longest sequence
//
// What ONNX leaves to the model is checked, never guessed: cond a one-element bool, M a
// one-element int64, scan outputs of one shape and type across iterations. A scan output of a
// loop that ran no iteration has the type and shape the body declares for it, or the run is
// refused. Accumulated outputs are sized by checkedNumel as they grow.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exec/interpreter.h"
#include "exec/kernels_internal.h"

namespace fxc::exec {
namespace {

// The interpreters of a node's subgraphs, made on first use: they live as long as the node's
// interpreter (the graph must not change meanwhile).
struct SubgraphInterpreters {
  std::vector<std::shared_ptr<const ir::GraphModule>> graphs;  // keeps them alive
  std::vector<std::unique_ptr<Interpreter>> interpreters;      // nullptr: not made yet
};

// Calls the kernel of one control-flow node makes: its args, its captures, its subgraphs.
class ControlCall {
 public:
  ControlCall(const KernelContext& c, std::string op) : c_(c), op_(std::move(op)) {
    args_ = std::min(c.node().args().size(), c.inputCount());
    std::any* state = c.state() ? c.state() : &local_state_;
    auto* kept = std::any_cast<std::shared_ptr<SubgraphInterpreters>>(state);
    if (!kept) {
      auto made = std::make_shared<SubgraphInterpreters>();
      for (const ir::Subgraph& subgraph : c.node().meta.subgraphs) {
        made->graphs.push_back(subgraph.graph);
        made->interpreters.emplace_back();
      }
      *state = made;
      kept = std::any_cast<std::shared_ptr<SubgraphInterpreters>>(state);
    }
    plan_ = kept->get();
  }

  const std::string& op() const { return op_; }
  size_t argCount() const { return args_; }
  const Value* arg(size_t k) const { return k < args_ ? c_.optionalInput(k) : nullptr; }
  const Value& requiredArg(size_t k, const char* what) const {
    const Value* value = arg(k);
    if (!value) throw ExecError(op_ + ": input " + what + " is missing");
    return *value;
  }

  // The interpreter of the subgraph in attribute `name`, which takes `formal` inputs.
  Interpreter& subgraph(const std::string& name, size_t formal) {
    const auto& subgraphs = c_.node().meta.subgraphs;
    for (size_t k = 0; k < subgraphs.size(); ++k) {
      if (subgraphs[k].attribute != name) continue;
      if (!subgraphs[k].graph)
        throw ExecError(op_ + ": " + name + " could not be traced: " + subgraphs[k].error);
      if (k >= plan_->interpreters.size() || plan_->graphs[k] != subgraphs[k].graph)
        throw InternalError(op_ + ": the node's subgraphs changed under its interpreter");
      auto& interpreter = plan_->interpreters[k];
      if (!interpreter) {
        auto made = std::make_unique<Interpreter>(*subgraphs[k].graph, c_.backend());
        size_t expected = formal + c_.inputCount() - args_;
        size_t takes = made->inputs().size();
        if (takes != expected)
          throw ExecError(op_ + ": " + name + " takes " + std::to_string(takes) +
                          " inputs; the node gives it " + std::to_string(formal) + " and " +
                          std::to_string(expected - formal) + " captured values");
        interpreter = std::move(made);
      }
      return *interpreter;
    }
    throw ExecError(op_ + ": the node has no subgraph '" + name + "'");
  }

  // Runs a subgraph on its formal inputs (the captures follow); its outputs.
  std::vector<Value> run(Interpreter& interpreter, const std::string& name,
                         std::vector<Value> inputs) const {
    for (size_t k = args_; k < c_.inputCount(); ++k) inputs.push_back(c_.input(k));
    auto outputs = interpreter.run(std::move(inputs));
    if (!outputs) {
      const std::string& error = outputs.error();
      if (error.find("unsupported: ") != std::string::npos)
        throw ExecError("unsupported: " + op_ + " " + name + ": " + error);
      throw ExecError(op_ + " " + name + ": " + error);
    }
    return outputs.take();
  }

 private:
  const KernelContext& c_;
  std::string op_;
  size_t args_ = 0;
  std::any local_state_;  // when the caller keeps no state (one evaluation)
  SubgraphInterpreters* plan_ = nullptr;
};

std::string dtypeText(ir::DType dtype) { return std::string(ir::dtypeName(dtype)); }

// Values whose elements this file copies: float32 in `f`, integers and bool in `i`.
void requireHeld(const Value& value, const std::string& what) {
  if (!value.isFloat() && !heldAsInteger(value.dtype))
    throw ExecError("unsupported: " + what + " of type " + dtypeText(value.dtype));
}

bool truth(const Value& value, const std::string& what) {
  if (value.dtype != ir::DType::kBool)
    throw ExecError(what + " is " + dtypeText(value.dtype) + ", not bool");
  if (value.numel() != 1 || value.i.size() != 1)
    throw ExecError(what + " has shape " + shapeText(value.shape) + ", not one element");
  return value.i[0] != 0;
}

// A scalar for a body input, of the rank the body declares for it ([1] or []).
Value scalarFor(const ir::Node* placeholder, int64_t number, ir::DType dtype) {
  bool vector = placeholder && placeholder->meta.shape && placeholder->meta.shape->size() == 1;
  return Value::ints(vector ? std::vector<int64_t>{1} : std::vector<int64_t>{}, {number}, dtype);
}

// `x` at `index` of `axis`, that axis removed.
Value sliceAt(const Value& x, size_t axis, int64_t index) {
  int64_t outer = 1, inner = 1, extent = x.shape[axis];
  for (size_t d = 0; d < axis; ++d) outer *= x.shape[d];
  for (size_t d = axis + 1; d < x.shape.size(); ++d) inner *= x.shape[d];
  Value y;
  y.dtype = x.dtype;
  y.shape = x.shape;
  y.shape.erase(y.shape.begin() + static_cast<std::ptrdiff_t>(axis));
  auto copy = [&](auto& to, const auto& from) {
    to.resize(static_cast<size_t>(outer * inner));
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t k = 0; k < inner; ++k)
        to[static_cast<size_t>(o * inner + k)] =
            from[static_cast<size_t>((o * extent + index) * inner + k)];
    }
  };
  if (x.isFloat())
    copy(y.f, x.f);
  else
    copy(y.i, x.i);
  return y;
}

// Values of one shape and type gathered across iterations, stacked on a new axis at the end.
class Stack {
 public:
  explicit Stack(std::string what) : what_(std::move(what)) {}

  size_t size() const { return static_cast<size_t>(count_); }
  bool empty() const { return count_ == 0; }
  // One item's dtype and shape (no elements); valid once an item was pushed.
  const Value& element() const { return element_; }

  // Appends a copy of the item's elements: the accumulated output is one buffer, checked as it
  // grows, so that a long loop fails with the size checks' error rather than with the machine.
  void push(const Value& value) {
    requireHeld(value, what_);
    if (count_ == 0) {
      element_.dtype = value.dtype;
      element_.shape = value.shape;
    } else if (value.shape != element_.shape || value.dtype != element_.dtype) {
      throw ExecError(what_ + " is " + dtypeText(value.dtype) + shapeText(value.shape) +
                      " in iteration " + std::to_string(count_) + ", " + dtypeText(element_.dtype) +
                      shapeText(element_.shape) + " before");
    }
    std::vector<int64_t> grown = value.shape;
    grown.insert(grown.begin(), count_ + 1);
    checkedNumel(grown, value.dtype);
    if (value.isFloat())
      data_.f.insert(data_.f.end(), value.f.begin(), value.f.end());
    else
      data_.i.insert(data_.i.end(), value.i.begin(), value.i.end());
    ++count_;
  }

  // The items on a new axis `axis` of the result (item t at position t, or at size-1-t when
  // `reverse`); `element` gives dtype and shape when there is no item.
  Value finish(int64_t axis, bool reverse, const Value* element = nullptr) const {
    if (count_ == 0 && !element) throw InternalError(what_ + ": no item and no declared type");
    const Value& like = count_ == 0 ? *element : element_;
    size_t rank = like.shape.size();
    size_t at = normalizeAxis(axis, rank + 1);
    Value y;
    y.dtype = like.dtype;
    y.shape = like.shape;
    y.shape.insert(y.shape.begin() + static_cast<std::ptrdiff_t>(at), count_);
    int64_t n = checkedNumel(y.shape, y.dtype);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < at; ++d) outer *= like.shape[d];
    for (size_t d = at; d < rank; ++d) inner *= like.shape[d];
    auto fill = [&](auto& to, const auto& from) {
      if (at == 0 && !reverse) {  // already in place
        to = from;
        return;
      }
      to.resize(static_cast<size_t>(n));
      for (int64_t t = 0; t < count_; ++t) {
        int64_t position = reverse ? count_ - 1 - t : t;
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t k = 0; k < inner; ++k)
            to[static_cast<size_t>((o * count_ + position) * inner + k)] =
                from[static_cast<size_t>((t * outer + o) * inner + k)];
        }
      }
    };
    if (y.isFloat())
      fill(y.f, data_.f);
    else
      fill(y.i, data_.i);
    return y;
  }

 private:
  std::string what_;
  Value element_;  // dtype and shape of every item
  Value data_;     // the items' elements, one item after another
  int64_t count_ = 0;
};

// Zeros of `like`'s type and shape.
Value zerosLike(const Value& like) {
  Value y;
  y.dtype = like.dtype;
  y.shape = like.shape;
  size_t n = static_cast<size_t>(checkedNumel(y.shape, y.dtype));
  if (y.isFloat())
    y.f.assign(n, 0.0f);
  else
    y.i.assign(n, 0);
  return y;
}

// The type and shape a value's meta declares, the dimension at `drop` removed (the accumulated
// axis, when the value is an output of the node itself); nullopt unless all are known.
std::optional<Value> declaredType(const ir::Node* value, std::optional<int64_t> drop) {
  if (!value || !value->meta.shape || value->meta.dtype.empty()) return std::nullopt;
  Value y;
  bool typed = false;
  for (int code = 1; code <= 16 && !typed; ++code) {
    y.dtype = static_cast<ir::DType>(code);
    typed = ir::dtypeName(y.dtype) == value->meta.dtype;
  }
  const auto& dims = *value->meta.shape;
  if (!typed || (drop && (*drop < -static_cast<int64_t>(dims.size()) ||
                          *drop >= static_cast<int64_t>(dims.size()))))
    return std::nullopt;
  size_t dropped = drop ? normalizeAxis(*drop, dims.size()) : dims.size();
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d == dropped) continue;
    if (ir::isSymbolicDim(dims[d])) return std::nullopt;
    y.shape.push_back(std::stoll(dims[d]));
  }
  return y;
}

// One step of an accumulated output when no step ran: its type and shape as the body declares
// its output `body_output`, else as the model declares the node's output `node_output` (less the
// accumulated `axis`). Refused when neither says.
Value declaredStep(const KernelContext& c, const ir::GraphModule& body, size_t body_output,
                   size_t node_output, int64_t axis, const std::string& what) {
  const ir::Node* output = body.graph().last();
  const ir::Node* inner = nullptr;
  if (output && output->op() == ir::Opcode::kOutput && !output->args().empty()) {
    const ir::Argument& result = output->args()[0];
    const ir::Argument* item =
        result.isSequence()
            ? (body_output < result.items().size() ? &result.items()[body_output] : nullptr)
            : (body_output == 0 ? &result : nullptr);
    if (item && item->isNode()) inner = item->toNode();
  }
  std::optional<Value> step = declaredType(inner, std::nullopt);
  const ir::Node* outer = nullptr;
  for (const ir::Node* user : c.node().users()) {
    if (user->target() == "operator.getitem" && user->args().size() == 2 &&
        user->args()[1].kind() == ir::Argument::Kind::kInt &&
        user->args()[1].toInt() == static_cast<int64_t>(node_output))
      outer = user;
  }
  if (!outer && node_output == 0) outer = &c.node();  // a node with one output is its value
  if (!step) step = declaredType(outer, axis);
  if (!step)
    throw ExecError("unsupported: " + what +
                    " after no iteration: neither the body nor the model declares its type and "
                    "shape");
  requireHeld(*step, what);
  return *step;
}

const ir::GraphModule& graphOf(const KernelContext& c, const std::string& name) {
  for (const ir::Subgraph& subgraph : c.node().meta.subgraphs) {
    if (subgraph.attribute == name && subgraph.graph) return *subgraph.graph;
  }
  throw InternalError("no subgraph " + name);  // ControlCall::subgraph found it before
}

std::vector<Value> runIf(const KernelContext& c) {
  ControlCall call(c, "onnx.If");
  bool cond = truth(call.requiredArg(0, "cond"), "onnx.If: cond");
  const std::string branch = cond ? "then_branch" : "else_branch";
  Interpreter& interpreter = call.subgraph(branch, 0);
  return call.run(interpreter, branch, {});
}

// True when the body's cond output is, provably, its cond input passed on (directly or through
// Identity) or the constant true: a Loop without a trip count that starts with cond true then
// never ends, whatever the body computes, so it is refused instead of run forever.
bool bodyKeepsCondTrue(const ir::GraphModule& body, const ir::Node* cond_formal) {
  const ir::Node* output = body.graph().last();
  if (!output || output->op() != ir::Opcode::kOutput || output->args().empty()) return false;
  const ir::Argument* result = &output->args()[0];
  if (result->isSequence()) {
    if (result->items().empty()) return false;
    result = &result->items()[0];
  }
  if (!result->isNode()) return false;
  const ir::Node* node = result->toNode();
  while (node->op() == ir::Opcode::kCallFunction && node->target() == "onnx.Identity" &&
         node->args().size() == 1 && node->args()[0].isNode())
    node = node->args()[0].toNode();
  if (node == cond_formal) return true;
  if (node->op() != ir::Opcode::kGetAttr) return false;
  std::shared_ptr<ir::Tensor> constant = body.findTensor(node->target());
  return constant && constant->dtype == ir::DType::kBool && constant->numel() == 1 &&
         constant->byteSize() == 1 && constant->bytes()[0] != 0;
}

std::vector<Value> runLoop(const KernelContext& c) {
  ControlCall call(c, "onnx.Loop");
  if (call.argCount() < 2)
    throw ExecError("onnx.Loop: " + std::to_string(call.argCount()) +
                    " inputs; it takes M, cond and the loop-carried values");
  size_t carried_count = call.argCount() - 2;
  Interpreter& body = call.subgraph("body", 2 + carried_count);
  const ir::GraphModule& body_graph = graphOf(c, "body");
  std::vector<const ir::Node*> formal = body.inputs();

  const Value* trip_count = call.arg(0);
  int64_t max_trips = 0;
  if (trip_count) {
    if (trip_count->dtype != ir::DType::kInt64 || trip_count->numel() != 1 ||
        trip_count->i.size() != 1)
      throw ExecError("onnx.Loop: M is " + dtypeText(trip_count->dtype) +
                      shapeText(trip_count->shape) + ", not one int64");
    max_trips = trip_count->i[0];
  }
  const Value* cond_input = call.arg(1);
  bool keep_going = cond_input ? truth(*cond_input, "onnx.Loop: cond") : true;
  Value cond = cond_input ? *cond_input : scalarFor(formal[1], 1, ir::DType::kBool);

  if (!trip_count && keep_going && (!cond_input || bodyKeepsCondTrue(body_graph, formal[1])))
    throw ExecError(
        std::string("onnx.Loop: the loop never ends: no trip count, and ") +
        (cond_input ? "the body passes its condition (true) on unchanged" : "no condition"));
  std::vector<Value> carried;
  for (size_t k = 0; k < carried_count; ++k)
    carried.push_back(call.requiredArg(2 + k, "v_initial"));
  std::vector<Stack> scans;
  int64_t iterations = 0;
  for (int64_t i = 0; (!trip_count || i < max_trips) && keep_going; ++i, ++iterations) {
    std::vector<Value> inputs;
    inputs.push_back(scalarFor(formal[0], i, ir::DType::kInt64));
    inputs.push_back(std::move(cond));
    for (auto& value : carried) inputs.push_back(std::move(value));
    std::vector<Value> outputs = call.run(body, "body", std::move(inputs));
    if (outputs.size() < 1 + carried_count)
      throw ExecError("onnx.Loop: the body returns " + std::to_string(outputs.size()) +
                      " values; it must return cond and " + std::to_string(carried_count) +
                      " loop-carried values");
    size_t scan_count = outputs.size() - 1 - carried_count;
    for (size_t k = scans.size(); k < scan_count; ++k)
      scans.emplace_back("onnx.Loop: scan output " + std::to_string(k));
    cond = std::move(outputs[0]);
    // Without a cond input, the body's cond is ignored (a for loop, or a loop without end).
    if (cond_input) keep_going = truth(cond, "onnx.Loop: the body's cond");
    for (size_t k = 0; k < carried_count; ++k) carried[k] = std::move(outputs[1 + k]);
    for (size_t k = 0; k < scan_count; ++k) scans[k].push(outputs[1 + carried_count + k]);
  }

  std::vector<Value> results = std::move(carried);
  if (iterations == 0) {  // the body's declared outputs say how many scan outputs and what
    const ir::Node* output = body_graph.graph().last();
    size_t declared = 0;
    if (output && !output->args().empty())
      declared = output->args()[0].isSequence() ? output->args()[0].items().size() : 1;
    for (size_t k = 1 + carried_count; k < declared; ++k) {
      std::string what = "onnx.Loop: scan output " + std::to_string(k - 1 - carried_count);
      Value element = declaredStep(c, body_graph, k, k - 1, 0, what);
      results.push_back(Stack(what).finish(0, false, &element));
    }
    return results;
  }
  for (const Stack& scan : scans) results.push_back(scan.finish(0, false));
  return results;
}

std::vector<int64_t> listAttribute(const KernelContext& c, const std::string& name, size_t count,
                                   int64_t fallback) {
  std::vector<int64_t> values = c.intsAttribute(name, std::vector<int64_t>(count, fallback));
  if (values.size() != count)
    throw ExecError("onnx.Scan: " + name + " lists " + std::to_string(values.size()) +
                    " values for " + std::to_string(count));
  return values;
}

// Scan from opset 9: every input scanned on its own axis and direction.
std::vector<Value> runScan(const KernelContext& c) {
  ControlCall call(c, "onnx.Scan");
  int64_t scan_inputs = c.intAttribute("num_scan_inputs", -1);
  if (scan_inputs < 1 || static_cast<size_t>(scan_inputs) > call.argCount())
    throw ExecError("onnx.Scan: num_scan_inputs is " + std::to_string(scan_inputs) + " for " +
                    std::to_string(call.argCount()) + " inputs");
  size_t m = static_cast<size_t>(scan_inputs);
  size_t n = call.argCount() - m;
  Interpreter& body = call.subgraph("body", n + m);
  const ir::GraphModule& body_graph = graphOf(c, "body");
  std::vector<int64_t> axes = listAttribute(c, "scan_input_axes", m, 0);
  std::vector<int64_t> directions = listAttribute(c, "scan_input_directions", m, 0);

  std::vector<Value> states;
  for (size_t k = 0; k < n; ++k) states.push_back(call.requiredArg(k, "initial_state"));
  std::vector<const Value*> sequences;
  std::vector<size_t> sequence_axes;
  int64_t length = -1;
  for (size_t j = 0; j < m; ++j) {
    const Value& x = call.requiredArg(n + j, "scan_input");
    requireHeld(x, "onnx.Scan: scan input");
    if (x.shape.empty())
      throw ExecError("onnx.Scan: scan input " + std::to_string(j) + " is a scalar");
    size_t axis = normalizeAxis(axes[j], x.shape.size());
    if (length >= 0 && x.shape[axis] != length)
      throw ExecError("onnx.Scan: scan input " + std::to_string(j) + " has " +
                      std::to_string(x.shape[axis]) + " steps, input 0 has " +
                      std::to_string(length));
    length = x.shape[axis];
    sequences.push_back(&x);
    sequence_axes.push_back(axis);
  }

  std::vector<Stack> scans;
  for (int64_t t = 0; t < length; ++t) {
    std::vector<Value> inputs = std::move(states);
    for (size_t j = 0; j < m; ++j)
      inputs.push_back(
          sliceAt(*sequences[j], sequence_axes[j], directions[j] ? length - 1 - t : t));
    std::vector<Value> outputs = call.run(body, "body", std::move(inputs));
    if (outputs.size() < n)
      throw ExecError("onnx.Scan: the body returns " + std::to_string(outputs.size()) +
                      " values for " + std::to_string(n) + " states");
    for (size_t k = scans.size(); k < outputs.size() - n; ++k)
      scans.emplace_back("onnx.Scan: scan output " + std::to_string(k));
    states.assign(std::make_move_iterator(outputs.begin()),
                  std::make_move_iterator(outputs.begin() + static_cast<std::ptrdiff_t>(n)));
    for (size_t k = n; k < outputs.size(); ++k) scans[k - n].push(outputs[k]);
  }

  size_t scan_count = scans.size();
  const ir::Node* output = body_graph.graph().last();
  if (length == 0 && output && !output->args().empty()) {
    size_t declared = output->args()[0].isSequence() ? output->args()[0].items().size() : 1;
    scan_count = declared > n ? declared - n : 0;
  }
  std::vector<int64_t> output_axes = listAttribute(c, "scan_output_axes", scan_count, 0);
  std::vector<int64_t> output_directions =
      listAttribute(c, "scan_output_directions", scan_count, 0);
  std::vector<Value> results = std::move(states);
  for (size_t k = 0; k < scan_count; ++k) {
    if (length > 0) {
      results.push_back(scans[k].finish(output_axes[k], output_directions[k] != 0));
      continue;
    }
    std::string what = "onnx.Scan: scan output " + std::to_string(k);
    Value element = declaredStep(c, body_graph, n + k, n + k, output_axes[k], what);
    results.push_back(Stack(what).finish(output_axes[k], false, &element));
  }
  return results;
}

// Scan of opset 8: axis 0 is the batch, axis 1 the sequence; sequence_lens (optional) bounds
// each batch entry's steps, and its outputs are padded with zeros past them.
std::vector<Value> runScan8(const KernelContext& c) {
  ControlCall call(c, "onnx.Scan");
  int64_t scan_inputs = c.intAttribute("num_scan_inputs", -1);
  if (scan_inputs < 1 || static_cast<size_t>(scan_inputs) + 1 > call.argCount())
    throw ExecError("onnx.Scan: num_scan_inputs is " + std::to_string(scan_inputs) + " for " +
                    std::to_string(call.argCount()) + " inputs");
  size_t m = static_cast<size_t>(scan_inputs);
  size_t n = call.argCount() - 1 - m;
  Interpreter& body = call.subgraph("body", n + m);
  const ir::GraphModule& body_graph = graphOf(c, "body");
  std::vector<int64_t> directions = listAttribute(c, "directions", m, 0);

  int64_t batch = -1, max_length = -1;
  for (size_t j = 0; j < m; ++j) {
    const Value& x = call.requiredArg(1 + n + j, "scan_input");
    requireHeld(x, "onnx.Scan: scan input");
    if (x.shape.size() < 2)
      throw ExecError("onnx.Scan: scan input " + std::to_string(j) + " has shape " +
                      shapeText(x.shape) + ", not [batch, sequence, ...]");
    if (batch >= 0 && (x.shape[0] != batch || x.shape[1] != max_length))
      throw ExecError("onnx.Scan: scan input " + std::to_string(j) + " has shape " +
                      shapeText(x.shape) + "; input 0's batch and sequence are " +
                      std::to_string(batch) + " and " + std::to_string(max_length));
    batch = x.shape[0];
    max_length = x.shape[1];
  }
  for (size_t k = 0; k < n; ++k) {
    const Value& state = call.requiredArg(1 + k, "initial_state");
    requireHeld(state, "onnx.Scan: state");
    if (state.shape.empty() || state.shape[0] != batch)
      throw ExecError("onnx.Scan: state " + std::to_string(k) + " has shape " +
                      shapeText(state.shape) + ", not the batch " + std::to_string(batch) +
                      " first");
  }
  std::vector<int64_t> lengths(static_cast<size_t>(batch), max_length);
  if (const Value* lens = call.arg(0)) {
    if (lens->dtype != ir::DType::kInt64 || lens->shape != std::vector<int64_t>{batch})
      throw ExecError("onnx.Scan: sequence_lens is " + dtypeText(lens->dtype) +
                      shapeText(lens->shape) + ", not int64[" + std::to_string(batch) + "]");
    for (size_t b = 0; b < lengths.size(); ++b) {
      lengths[b] = lens->i[b];
      if (lengths[b] < 0 || lengths[b] > max_length)
        throw ExecError("onnx.Scan: sequence_lens[" + std::to_string(b) + "] is " +
                        std::to_string(lengths[b]) + ", outside [0, " + std::to_string(max_length) +
                        "]");
    }
  }

  std::vector<Stack> final_states;
  for (size_t k = 0; k < n; ++k) final_states.emplace_back("onnx.Scan: state " + std::to_string(k));
  std::vector<std::vector<Stack>> per_batch;  // [batch][scan output]: each entry's steps
  size_t scan_count = 0;
  const ir::Node* output = body_graph.graph().last();
  if (output && !output->args().empty()) {
    size_t declared = output->args()[0].isSequence() ? output->args()[0].items().size() : 1;
    scan_count = declared > n ? declared - n : 0;
  }
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<Value> states;
    for (size_t k = 0; k < n; ++k) states.push_back(sliceAt(*call.arg(1 + k), 0, b));
    std::vector<Value> entries;
    for (size_t j = 0; j < m; ++j) entries.push_back(sliceAt(*call.arg(1 + n + j), 0, b));
    per_batch.emplace_back();
    for (size_t k = 0; k < scan_count; ++k)
      per_batch.back().emplace_back("onnx.Scan: scan output " + std::to_string(k));
    int64_t length = lengths[static_cast<size_t>(b)];
    for (int64_t t = 0; t < length; ++t) {
      std::vector<Value> inputs = std::move(states);
      for (size_t j = 0; j < m; ++j)
        inputs.push_back(sliceAt(entries[j], 0, directions[j] ? length - 1 - t : t));
      std::vector<Value> outputs = call.run(body, "body", std::move(inputs));
      if (outputs.size() != n + scan_count)
        throw ExecError("onnx.Scan: the body returns " + std::to_string(outputs.size()) +
                        " values, not " + std::to_string(n + scan_count));
      states.assign(std::make_move_iterator(outputs.begin()),
                    std::make_move_iterator(outputs.begin() + static_cast<std::ptrdiff_t>(n)));
      for (size_t k = 0; k < scan_count; ++k) per_batch.back()[k].push(outputs[n + k]);
    }
    for (size_t k = 0; k < n; ++k) final_states[k].push(std::move(states[k]));
  }

  std::vector<Value> results;
  for (const Stack& state : final_states) {
    if (state.empty()) {  // no batch entry: the states keep their shapes
      results.push_back(call.requiredArg(1 + results.size(), "initial_state"));
      continue;
    }
    results.push_back(state.finish(0, false));
  }
  for (size_t k = 0; k < scan_count; ++k) {
    std::string what = "onnx.Scan: scan output " + std::to_string(k);
    Value element;  // one step's type and shape
    bool found = false;
    for (const auto& outputs : per_batch) {
      if (found || outputs[k].empty()) continue;
      element = outputs[k].element();
      found = true;
    }
    // The node's own declaration has the batch too: the body's alone says what a step is.
    if (!found) element = declaredStep(c, body_graph, n + k, SIZE_MAX, 0, what);
    Stack entries(what);
    for (auto& outputs : per_batch) {
      Stack& steps = outputs[k];
      while (steps.size() < static_cast<size_t>(max_length)) steps.push(zerosLike(element));
      entries.push(steps.finish(0, false, &element));
      steps = Stack(what);  // its elements are in `entries` now
    }
    Value entry;  // one batch entry's type and shape, for an empty batch
    entry.dtype = element.dtype;
    entry.shape = element.shape;
    entry.shape.insert(entry.shape.begin(), max_length);
    results.push_back(entries.finish(0, false, &entry));
  }
  return results;
}

std::vector<Value> runScanAnyOpset(const KernelContext& c) {
  return c.opset() > 0 && c.opset() < 9 ? runScan8(c) : runScan(c);
}

}  // namespace

void addControlFlowKernels(KernelTable& table) {
  add(table, {"onnx.If"}, runIf);
  add(table, {"onnx.Loop"}, runLoop);
  add(table, {"onnx.Scan"}, runScanAnyOpset);
}

}  // namespace fxc::exec
