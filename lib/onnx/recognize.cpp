#include "onnx/recognize.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/matcher.h"
#include "ir/patterns.h"
#include "onnx/node_info.h"
#include "onnx/trace.h"

namespace fxc::onnx {
namespace {

using ir::anyIntList;
using ir::Argument;
using ir::intIs;
using ir::intList;
using ir::kwargsAre;
using ir::Pattern;

// float32 constants carry ~7 digits: a scalar "equal to 1/6" is one within float32 rounding.
constexpr double kFloat32Tolerance = 1e-6;

// What a recognized module is made of: typed attributes, tensors by role, its arguments.
struct Built {
  ir::Kwargs attributes;
  std::vector<std::pair<std::string, std::shared_ptr<ir::Tensor>>> roles;  // weight, bias
  std::vector<ir::Node*> args;
};

struct Recognizer {
  std::vector<std::string> op_types;  // the candidate filter: the ONNX ops, in graph order
  bool needs_constant = false;
  std::function<Pattern(int64_t opset)> pattern;
  std::function<std::optional<Built>(const ir::Match&, const ir::GraphModule&, std::string*)> build;
};

const Argument* kwarg(const ir::Node& node, const char* key) { return node.kwarg(key); }

std::function<bool(const Argument&)> floatNear(double expected) {
  return [expected](const Argument& a) {
    return a.kind() == Argument::Kind::kFloat &&
           std::fabs(a.toFloat() - expected) <= kFloat32Tolerance * std::fabs(expected);
  };
}
// x * f(x): the gate reads the very value it scales (x * sigmoid(g) with g ≠ x is no SiLU).
Recognizer unaryGate(std::vector<std::string> op_types, std::function<int(Pattern&, int x)> gate) {
  Recognizer r;
  r.op_types = std::move(op_types);
  r.pattern = [gate](int64_t) {
    Pattern p;
    int x = p.input("x");
    p.setOutput(p.op("operator.mul", {x, gate(p, x)}, {true, nullptr}));
    return p;
  };
  r.build = [](const ir::Match& m, const ir::GraphModule&, std::string*) {
    return std::optional<Built>(Built{{}, {}, {m.input("x")}});
  };
  return r;
}

// ReduceMean over `axes` with keepdims: axes as an attribute before opset 18, an input after.
int reduceMean(Pattern& p, int x, int64_t opset, const std::string& axes_name) {
  if (opset >= 18) {
    int axes = p.constant(axes_name);
    return p.op("torch.mean", {x, axes},
                {false, kwargsAre({{"keepdims", intIs(1)}, {"noop_with_empty_axes", intIs(0)}})});
  }
  return p.op("torch.mean", {x},
              {false, kwargsAre({{"axes", anyIntList()}, {"keepdims", intIs(1)}})});
}

std::vector<int64_t> reduceAxes(const ir::Node& node, const ir::GraphModule& gm) {
  if (node.args().size() == 2) {
    auto tensor = ir::constantOf(gm, *node.args()[1].toNode());
    auto values = tensor ? ir::tensorValues(*tensor) : std::nullopt;
    std::vector<int64_t> axes;
    if (values) {
      for (double v : *values) axes.push_back(static_cast<int64_t>(v));
    }
    return axes;
  }
  return intList(kwarg(node, "axes"));
}

const std::unordered_map<std::string, Recognizer>& recognizers() {
  static const std::unordered_map<std::string, Recognizer> table = [] {
    std::unordered_map<std::string, Recognizer> t;
    t["SiLU"] =
        unaryGate({"Sigmoid", "Mul"}, [](Pattern& p, int x) { return p.op("torch.sigmoid", {x}); });
    // Hardswish(x) = x · HardSigmoid(x) with α = 1/6, β = 1/2 (torch.onnx at opset 13); ONNX's
    // defaults, for an attribute left out, are α = 0.2, β = 0.5.
    t["Hardswish"] = unaryGate({"HardSigmoid", "Mul"}, [](Pattern& p, int x) {
      return p.op("torch.nn.functional.hardsigmoid", {x},
                  {false, kwargsAre({{"alpha", floatNear(1.0 / 6)}, {"beta", floatNear(0.5)}},
                                    {{"alpha", Argument(0.2)}, {"beta", Argument(0.5)}})});
    });
    t["Mish"] = unaryGate({"Softplus", "Tanh", "Mul"}, [](Pattern& p, int x) {
      return p.op("torch.tanh", {p.op("torch.nn.functional.softplus", {x})});
    });

    // GELU (exact): x · (erf(x / √2) + 1) · ½, as torch.onnx writes it.
    Recognizer gelu;
    gelu.op_types = {"Div", "Erf", "Add", "Mul", "Mul"};
    gelu.needs_constant = true;
    gelu.pattern = [](int64_t) {
      Pattern p;
      int x = p.input("x");
      int scaled =
          p.op("operator.truediv",
               {x, p.constant("sqrt2", Pattern::scalar(std::sqrt(2.0), kFloat32Tolerance))});
      int erf = p.op("torch.erf", {scaled});
      int plus_one =
          p.op("operator.add", {erf, p.constant("one", Pattern::scalar(1.0))}, {true, nullptr});
      int product = p.op("operator.mul", {x, plus_one}, {true, nullptr});
      p.setOutput(p.op("operator.mul", {product, p.constant("half", Pattern::scalar(0.5))},
                       {true, nullptr}));
      return p;
    };
    gelu.build = [](const ir::Match& m, const ir::GraphModule&, std::string*) {
      return std::optional<Built>(Built{{{"approximate", Argument("none")}}, {}, {m.input("x")}});
    };
    t["GELU"] = gelu;

    // LayerNorm over the trailing axes: (x − E[x]) / √(E[(x − E[x])²] + ε) · γ + β.
    Recognizer layer_norm;
    layer_norm.op_types = {"ReduceMean", "Sub", "Pow", "ReduceMean", "Add",
                           "Sqrt",       "Div", "Mul", "Add"};
    layer_norm.needs_constant = true;
    layer_norm.pattern = [](int64_t opset) {
      Pattern p;
      int x = p.input("x");
      int mean = p.label(reduceMean(p, x, opset, "axes"), "mean");
      int centered = p.op("operator.sub", {x, mean});
      int square = p.op("operator.pow", {centered, p.constant("two", Pattern::scalar(2.0))});
      int variance = p.label(reduceMean(p, square, opset, "axes_1"), "variance");
      int shifted = p.op("operator.add", {variance, p.constant("eps", Pattern::anyScalar())},
                         {true, nullptr});
      int normalized = p.op("operator.truediv", {centered, p.op("torch.sqrt", {shifted})});
      int scaled = p.op("operator.mul", {normalized, p.constant("weight")}, {true, nullptr});
      p.setOutput(p.op("operator.add", {scaled, p.constant("bias")}, {true, nullptr}));
      return p;
    };
    layer_norm.build = [](const ir::Match& m, const ir::GraphModule& gm,
                          std::string* why) -> std::optional<Built> {
      std::vector<int64_t> axes = reduceAxes(*m.node("mean"), gm);
      if (axes.empty() || axes != reduceAxes(*m.node("variance"), gm)) {
        *why = "the two means reduce other axes";
        return std::nullopt;
      }
      // The axes must be the trailing ones: -k..-1, or rank-k..rank-1 where the rank is known.
      const ir::Node& x = *m.input("x");
      int64_t rank = x.meta.shape ? static_cast<int64_t>(x.meta.shape->size()) : -1;
      int64_t k = static_cast<int64_t>(axes.size());
      for (int64_t i = 0; i < k; ++i) {
        int64_t axis = axes[static_cast<size_t>(i)];
        if (axis >= 0 && rank >= 0) axis -= rank;
        if (axis != i - k) {
          *why = "the reduced axes are not the trailing axes";
          return std::nullopt;
        }
      }
      double eps = (*ir::tensorValues(*m.constant("eps")))[0];
      if (!(eps >= 0)) {
        *why = "ε is negative";
        return std::nullopt;
      }
      // The kernel applies γ and β as one value, or one per normalized element in order: their
      // shape must be the normalized axes' (leading 1s aside), as far as it is known. γ [8] on
      // x [2, 3, 1] broadcasts the output larger; γ [3, 1] on axes [3, 8] is one per row.
      std::optional<std::vector<int64_t>> normalized;
      if (rank >= k) {
        normalized.emplace();
        for (int64_t d = rank - k; d < rank && normalized; ++d) {
          const std::string& dim = (*x.meta.shape)[static_cast<size_t>(d)];
          if (ir::isSymbolicDim(dim))
            normalized.reset();
          else
            normalized->push_back(std::stoll(dim));
        }
      }
      auto weight = m.constant("weight"), bias = m.constant("bias");
      for (const auto& t : {weight, bias}) {
        std::vector<int64_t> dims = t->dims;
        while (!dims.empty() && dims.front() == 1) dims.erase(dims.begin());
        if (t->dtype != ir::DType::kFloat32 || static_cast<int64_t>(t->dims.size()) > k) {
          *why = "γ or β broadcasts over more than the normalized axes, or is not float32";
          return std::nullopt;
        }
        if (dims.empty()) continue;  // one value
        if (normalized) {
          std::vector<int64_t> aligned(static_cast<size_t>(k) - dims.size(), 1);
          aligned.insert(aligned.end(), dims.begin(), dims.end());
          if (aligned != *normalized) {
            *why = "γ or β is not of the normalized axes' shape";
            return std::nullopt;
          }
        } else if (k != 1) {  // one axis: the graph and the kernel both check its size
          *why = "the normalized axes' sizes are unknown";
          return std::nullopt;
        }
      }
      return Built{{{"axis", Argument(-k)}, {"epsilon", Argument(eps)}},
                   {{"weight", weight}, {"bias", bias}},
                   {m.input("x")}};
    };
    t["LayerNorm"] = layer_norm;

    // AvgPool2d as torch.onnx writes it (ir/patterns.h): a constant Pad of zeros over H and W
    // before an AveragePool without pads of its own; the module is the pool that pads itself.
    Recognizer avg_pool;
    avg_pool.op_types = {"Pad", "AveragePool"};
    avg_pool.needs_constant = true;
    avg_pool.pattern = [](int64_t) { return ir::paddedAveragePool(); };
    avg_pool.build = [](const ir::Match& m, const ir::GraphModule&,
                        std::string* why) -> std::optional<Built> {
      auto attributes = ir::paddedAveragePoolKwargs(m, why);
      if (!attributes) return std::nullopt;
      return Built{std::move(*attributes), {}, {m.input("x")}};
    };
    t["AvgPool2d(padded)"] = avg_pool;

    // Linear: x @ W + b (W [in, out]), or x @ Wᵀ (+ b) through a Transpose of W [out, in]
    // (exports without constant folding; a Linear without bias is then Transpose → MatMul), on x
    // of any rank. (x @ W alone, W constant, is a Linear for the frontend already.)
    for (auto [transposed, with_bias] :
         {std::pair{false, true}, std::pair{true, true}, std::pair{true, false}}) {
      Recognizer linear;
      linear.op_types = transposed ? std::vector<std::string>{"Transpose", "MatMul"}
                                   : std::vector<std::string>{"MatMul"};
      if (with_bias) linear.op_types.push_back("Add");
      linear.needs_constant = true;
      linear.pattern = [transposed = transposed, with_bias = with_bias](int64_t) {
        Pattern p;
        int x = p.input("x");
        int weight = p.constant("weight");
        if (transposed) {
          weight = p.op(
              "torch.permute", {weight},
              {false,
               kwargsAre({{"perm", [](const Argument& a) {
                             return anyIntList()(a) && intList(&a) == std::vector<int64_t>{1, 0};
                           }}})});
        }
        int product = p.op("operator.matmul", {x, weight});
        p.setOutput(with_bias ? p.op("operator.add", {product, p.constant("bias")}, {true, nullptr})
                              : product);
        return p;
      };
      linear.build = [transposed = transposed, with_bias = with_bias](
                         const ir::Match& m, const ir::GraphModule&,
                         std::string* why) -> std::optional<Built> {
        auto weight = m.constant("weight");
        auto bias = with_bias ? m.constant("bias") : nullptr;
        if (weight->dims.size() != 2 || weight->dtype != ir::DType::kFloat32 ||
            (bias && bias->dtype != ir::DType::kFloat32)) {
          *why = "the weight is not a float32 matrix";
          return std::nullopt;
        }
        int64_t out = transposed ? weight->dims[0] : weight->dims[1];
        if (bias && bias->dims != std::vector<int64_t>{out}) {
          *why = "the bias is not a vector of the output width";
          return std::nullopt;
        }
        Built built{{{"transB", Argument(int64_t{transposed ? 1 : 0})}},
                    {{"weight", weight}},
                    {m.input("x")}};
        if (bias) built.roles.emplace_back("bias", bias);
        return built;
      };
      t[!transposed ? "Linear"
        : with_bias ? "Linear(transposed)"
                    : "Linear(transposed, no bias)"] = linear;
    }
    return t;
  }();
  return table;
}

// Removes the tensor at dotted `path`, then each container ("Module") above it left empty.
void removeTensorAndEmptyContainers(ir::GraphModule& gm, std::string path) {
  size_t dot = path.rfind('.');
  ir::Module* owner = dot == std::string::npos ? &gm.root() : gm.findModule(path.substr(0, dot));
  // An op's module keeps its own tensors, even one a get_attr also read.
  if (!owner || (owner != &gm.root() && owner->type() != "Module")) return;
  if (!owner->removeTensor(path.substr(dot == std::string::npos ? 0 : dot + 1))) return;
  while (dot != std::string::npos) {
    path = path.substr(0, dot);
    const ir::Module* module = gm.findModule(path);
    if (!module || module->type() != "Module" || !module->tensors().empty() ||
        !module->children().empty())
      return;
    gm.removeModule(path);
    dot = path.rfind('.');
  }
}

}  // namespace

std::string candidateModuleType(const std::vector<std::string>& op_types, bool has_constant) {
  for (const auto& [type, recognizer] : recognizers()) {
    if (recognizer.op_types == op_types && (has_constant || !recognizer.needs_constant))
      return type;
  }
  return "";
}

ir::Node* recognizeModule(ir::GraphModule& gm, const std::string& candidate,
                          const std::string& path, const std::vector<ir::Node*>& members,
                          std::string* why) {
  const Recognizer& recognizer = recognizers().at(candidate);
  std::string type = candidate.substr(0, candidate.find('('));
  ir::Pattern pattern = recognizer.pattern(gm.opset);
  ir::Node* anchor = members.back();
  auto match = ir::matchAt(gm, pattern, anchor, why);
  if (!match) return nullptr;
  if (match->nodes != members) {
    *why = "the pattern covers other ops than the scope's";
    return nullptr;
  }
  auto built = recognizer.build(*match, gm, why);
  if (!built) return nullptr;

  // The module's tensors: the roles (weight, bias) by name, every other constant the ops read
  // under a name of its own, so that export can write each op's inputs back.
  std::unordered_set<const ir::Node*> inside(members.begin(), members.end());
  std::unordered_map<const ir::Tensor*, std::string> local_of;
  std::vector<std::pair<std::string, std::shared_ptr<ir::Tensor>>> tensors = built->roles;
  std::unordered_set<std::string> locals;
  for (const auto& [name, tensor] : tensors) {
    locals.insert(name);
    local_of.emplace(tensor.get(), name);
  }
  NodeRecord record;
  std::unordered_set<std::string> recorded;
  std::vector<ir::Node*> args;
  for (ir::Node* member : members) {
    const auto* member_record = std::any_cast<NodeRecord>(&member->meta.source);
    if (!member_record || member_record->protos.size() != 1) {
      *why = member->name() + " has no ONNX record";
      return nullptr;
    }
    const ::onnx::NodeProto& proto = *member_record->protos[0];
    if (static_cast<size_t>(proto.input_size()) != member->args().size()) {
      *why = member->name() + " does not mirror its ONNX node";
      return nullptr;
    }
    for (int k = 0; k < proto.input_size(); ++k) {
      const std::string& value = proto.input(k);
      const ir::Argument& arg = member->args()[static_cast<size_t>(k)];
      if (value.empty() || !arg.isNode() || inside.count(arg.toNode())) continue;
      if (!recorded.insert(value).second) continue;
      ir::Node* input = arg.toNode();
      if (auto tensor = ir::constantOf(gm, *input)) {
        auto [it, fresh] = local_of.emplace(tensor.get(), "");
        if (fresh) {
          std::string local = "_tensor_constant" + std::to_string(tensors.size());
          while (!locals.insert(local).second) local += "_";
          it->second = local;
          tensors.emplace_back(local, tensor);
        }
        record.inputs.emplace_back(value, it->second);
      } else {
        record.inputs.emplace_back(value, "arg");
        args.push_back(input);
      }
    }
    record.protos.push_back(member_record->protos[0]);
  }
  if (args != built->args) {
    *why = "the ops read other values than the module's arguments";
    return nullptr;
  }
  record.value = recordedValueName(*anchor);

  // The ops go first, with the constants only they read (and the containers those leave empty):
  // the module then takes its scope's path, not a suffixed one beside leftovers.
  ir::Graph& graph = gm.graph();
  ir::Node* call;
  {
    auto guard = graph.insertingBefore(anchor);
    std::vector<ir::Argument> call_args(args.begin(), args.end());
    call = graph.callModule(path, std::move(call_args));
  }
  call->meta.dtype = anchor->meta.dtype;
  call->meta.shape = anchor->meta.shape;
  call->meta.value_name = record.value;
  call->meta.source_ops = static_cast<int>(record.protos.size());
  call->meta.source = std::move(record);
  anchor->replaceAllUsesWith(call);
  for (auto it = members.rbegin(); it != members.rend(); ++it) graph.eraseNode(*it);
  for (ir::Node* constant : match->constant_nodes) {
    if (!constant->users().empty()) continue;
    std::string target = constant->target();
    graph.eraseNode(constant);
    removeTensorAndEmptyContainers(gm, target);
  }

  std::string module_path = path;
  const ir::Module* existing = gm.findModule(path);
  bool repeat = existing && existing->type() == type && existing->children().empty() &&
                ir::pyRepr(existing->attributes()) == ir::pyRepr(built->attributes) &&
                existing->tensors().size() == tensors.size();
  for (const auto& [name, tensor] : tensors) repeat = repeat && existing->tensor(name) == tensor;
  if (!repeat) {
    for (int n = 1; gm.findModule(module_path) || gm.findTensor(module_path); ++n)
      module_path = path + "_" + std::to_string(n);
    ir::Module* module = gm.addModule(module_path, type);
    module->attributes() = built->attributes;
    for (const auto& [name, tensor] : tensors) module->setTensor(name, tensor);
  }
  call->setTarget(module_path);
  return call;
}

}  // namespace fxc::onnx
