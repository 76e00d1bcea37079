// conv-relu and conv-add-relu: fuse a 2-D convolution with the ReLU after it, or with a residual
// add and the ReLU after that (a ResNet block's tail), into one convolution module that a
// backend runs as one kernel (oneDNN post-ops on the CPU).
//
//   %c = conv(%x);  %y = relu(%c)                   ⇒   %y = conv_relu(%x)         ConvReLU2d
//   %c = conv(%x);  %s = %c + %r;  %y = relu(%s)    ⇒   %y = conv_add_relu(%x, %r) ConvAddReLU2d
//   %c = conv(%x);  %y = act(%c)                    ⇒   %y = conv_act(%x)          ConvAct2d
//
// conv-act's activations are the modules a convolution can apply to its output as it writes it
// (oneDNN's eltwise post-ops): Hardtanh (ReLU6, Clip with constant bounds), LeakyReLU,
// Hardswish, SiLU, Sigmoid, Tanh. The fused module records which (`activation`) and the
// activation's own parameters under `activation_` (Hardtanh's bounds as the tensors or
// attributes it had, LeakyReLU's α), so that it computes exactly what the two modules did.
//
// The fused node keeps the conv's name and module (retyped, as torch.ao.nn.intrinsic does) and
// the ReLU's output name; export writes it back as the plain ops (Conv, Add, Relu). The patterns
// (ir::Pattern) hold only where the conv's and the add's outputs have no other users, the conv is
// exactly a Conv2d, its module called once and one ONNX op; conv-add-relu refuses (reason at -v)
// when the add's operands are not known to have equal shapes.
#include <spdlog/spdlog.h>

#include <optional>

#include "ir/matcher.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

// The activations conv-act fuses (module types), and the functions that are the same (what a
// model's ops become without a module scope: torch.clamp is Clip).
const std::vector<std::string>& fusedActivations() {
  static const std::vector<std::string> types = {"Hardtanh", "LeakyReLU", "Hardswish",
                                                 "SiLU",     "Sigmoid",   "Tanh"};
  return types;
}
const std::vector<std::pair<std::string, std::string>>& fusedFunctions() {
  static const std::vector<std::pair<std::string, std::string>> functions = {
      {"torch.clamp", "Hardtanh"},
      {"torch.nn.functional.leaky_relu", "LeakyReLU"},
      {"torch.nn.functional.hardswish", "Hardswish"},
      {"torch.sigmoid", "Sigmoid"},
      {"torch.tanh", "Tanh"}};
  return functions;
}
// The attributes an activation of `type` has, that the fused module carries.
bool carriedAttribute(const std::string& type, const std::string& key) {
  return (type == "Hardtanh" && (key == "min" || key == "max")) ||
         (type == "LeakyReLU" && key == "alpha");
}

enum class Fusion { kRelu, kAddRelu, kActivation };

class ConvReluFuser {
 public:
  ConvReluFuser(ir::GraphModule& gm, Fusion fusion)
      : gm_(gm), fusion_(fusion), with_add_(fusion == Fusion::kAddRelu) {
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kCallModule) ++calls_[node->target()];
    }
    // The convolution: exactly a Conv2d, its module called once, one ONNX op.
    ir::OpOptions conv_options{false, [this](const ir::GraphModule&, const ir::Node& node) {
                                 return node.kwargs().empty() && calls_[node.target()] == 1 &&
                                        node.meta.source_ops <= 1;
                               }};
    if (fusion == Fusion::kActivation) {
      // act(conv(x)), the activation a module reading the convolution alone.
      ir::OpOptions act_options{false, [](const ir::GraphModule&, const ir::Node& node) {
                                  return node.args().size() == 1 && node.kwargs().empty();
                                }};
      ir::Pattern p;
      int conv = p.label(p.module("Conv2d", {p.input("x")}, conv_options), "conv");
      p.setOutput(p.module(fusedActivations(), {conv}, act_options));
      patterns_.push_back(std::move(p));
      // The functions: on the convolution alone (their attributes in kwargs), and Clip's
      // torch.clamp on constant bounds.
      for (const auto& [target, type] : fusedFunctions()) {
        ir::OpOptions kwargs_known{false, [type = type](const ir::GraphModule&, const ir::Node& n) {
                                     for (const auto& [key, value] : n.kwargs()) {
                                       if (!carriedAttribute(type, key)) return false;
                                     }
                                     return true;
                                   }};
        ir::Pattern f;
        int c = f.label(f.module("Conv2d", {f.input("x")}, conv_options), "conv");
        f.setOutput(f.op(target, {c}, kwargs_known));
        patterns_.push_back(std::move(f));
      }
      ir::Pattern clamp;
      int c = clamp.label(clamp.module("Conv2d", {clamp.input("x")}, conv_options), "conv");
      clamp.setOutput(clamp.op("torch.clamp", {c, clamp.constant("min", ir::Pattern::anyScalar()),
                                               clamp.constant("max", ir::Pattern::anyScalar())}));
      patterns_.push_back(std::move(clamp));
      return;
    }
    // relu(conv(x)) and relu(conv(x) + r), the ReLU a function or a module.
    for (bool module_relu : {false, true}) {
      ir::Pattern p;
      int conv = p.label(p.module("Conv2d", {p.input("x")}, conv_options), "conv");
      int value =
          with_add_
              ? p.label(p.op("operator.add", {conv, p.input("residual")}, {true, nullptr}), "add")
              : conv;
      p.setOutput(module_relu ? p.module("ReLU", {value}) : p.op("torch.relu", {value}));
      patterns_.push_back(std::move(p));
    }
  }

  PassResult run() {
    std::vector<ir::Node*> candidates;
    for (ir::Node* node : gm_.graph()) {
      if (node->op() == ir::Opcode::kCallFunction || node->op() == ir::Opcode::kCallModule)
        candidates.push_back(node);
    }
    for (ir::Node* relu : candidates) {
      std::string why;
      std::optional<ir::Match> match;
      for (const ir::Pattern& pattern : patterns_) {
        if ((match = ir::matchAt(gm_, pattern, relu, &why))) break;
      }
      if (!match) continue;  // not a ReLU of a convolution: nothing to report
      why = fusion_ == Fusion::kAddRelu      ? fuseAdd(*match)
            : fusion_ == Fusion::kActivation ? fuseActivation(*match)
                                             : fuse(*match);
      if (why.empty()) {
        result_.add("fused");
      } else {
        spdlog::debug("{}: not fusing {}: {}",
                      fusion_ == Fusion::kAddRelu      ? "conv-add-relu"
                      : fusion_ == Fusion::kActivation ? "conv-act"
                                                       : "conv-relu",
                      relu->name(), why);
        result_.add("refused");
      }
    }
    return result_;
  }

 private:
  // The conv takes the ReLU's place: its module retyped, the ReLU's uses and output name.
  void replace(ir::Node* conv, ir::Node* relu, const std::string& type) {
    gm_.findModule(conv->target())->setType(type);
    ir::takeOverValue(*conv, *relu);
    conv->meta.shape = relu->meta.shape;
    relu->replaceAllUsesWith(conv);
    eraseCall(relu);
  }

  void eraseCall(ir::Node* node) {
    std::string path = node->op() == ir::Opcode::kCallModule ? node->target() : "";
    gm_.graph().eraseNode(node);
    if (!path.empty() && --calls_[path] == 0) gm_.removeModule(path);
  }

  std::string fuse(const ir::Match& match) {
    replace(match.node("conv"), match.output, "ConvReLU2d");
    return "";
  }

  // The activation's parameters go with it: Hardtanh's bounds (one-element float32 tensors or
  // float attributes, as the module had them), LeakyReLU's α.
  std::string fuseActivation(const ir::Match& match) {
    ir::Node* conv = match.node("conv");
    ir::Node* act = match.output;
    ir::Module* fused = gm_.findModule(conv->target());
    if (!fused) return "the convolution's module is missing";
    // The activation's type, bounds (Hardtanh's, as tensors) and attributes.
    std::string type;
    std::vector<std::pair<std::string, std::shared_ptr<ir::Tensor>>> tensors;
    const ir::Kwargs* attributes = &act->kwargs();
    if (act->op() == ir::Opcode::kCallModule) {
      const ir::Module* activation = gm_.findModule(act->target());
      if (!activation) return "the activation's module is missing";
      type = activation->type();
      tensors = activation->tensors();
      attributes = &activation->attributes();
    } else {
      for (const auto& [target, module_type] : fusedFunctions()) {
        if (target == act->target()) type = module_type;
      }
      for (const char* bound : {"min", "max"}) {
        if (auto tensor = match.constant(bound)) tensors.emplace_back(bound, tensor);
      }
    }
    for (auto& [name, tensor] : tensors) {
      auto values = ir::tensorValues(*tensor);
      if (type != "Hardtanh" || (name != "min" && name != "max"))
        return "the activation has a tensor '" + name + "'";
      if (tensor->dtype != ir::DType::kFloat32 || !values || values->size() != 1)
        return "a bound is not one float32";
      name = "activation_" + name;
    }
    ir::Kwargs merged = fused->attributes();
    for (const auto& [key, value] : *attributes) {
      if (!carriedAttribute(type, key) || value.kind() != ir::Argument::Kind::kFloat)
        return "the activation has an attribute '" + key + "' conv-act does not carry";
      merged.emplace_back("activation_" + key, value);
    }
    merged.emplace_back("activation", ir::Argument(type));
    fused->attributes() = std::move(merged);
    for (auto& [name, tensor] : tensors) fused->setTensor(name, tensor);
    std::vector<ir::Node*> bounds = match.constant_nodes;
    replace(conv, act, "ConvAct2d");
    for (ir::Node* bound : bounds) {
      if (bound->users().empty()) gm_.graph().eraseNode(bound);
    }
    return "";
  }

  std::string fuseAdd(const ir::Match& match) {
    ir::Node* conv = match.node("conv");
    ir::Node* add = match.node("add");
    ir::Node* residual = match.input("residual");
    // The fused kernel adds elementwise: no broadcasting.
    if (!conv->meta.shape || !residual->meta.shape || *conv->meta.shape != *residual->meta.shape)
      return "the add's operands are not known to have the same shape";
    // The residual may be computed after the conv (a shortcut branch): the fused node runs where
    // the add did.
    gm_.graph().moveBefore(conv, add);
    std::vector<ir::Argument> args = conv->args();
    args.emplace_back(residual);
    conv->setArgs(std::move(args));
    add->replaceAllUsesWith(conv);
    eraseCall(add);
    replace(conv, match.output, "ConvAddReLU2d");
    return "";
  }

  ir::GraphModule& gm_;
  Fusion fusion_;
  bool with_add_;
  PassResult result_;
  std::unordered_map<std::string, int> calls_;
  std::vector<ir::Pattern> patterns_;
};

RegisterPass conv_relu{{"conv-relu",
                        "fuses a Conv2d with the ReLU after it (ConvReLU2d: one kernel)",
                        {},
                        [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
                          return ConvReluFuser(gm, Fusion::kRelu).run();
                        }}};

RegisterPass conv_add_relu{
    {"conv-add-relu",
     "fuses Conv2d + residual add + ReLU (a ResNet block's tail) into ConvAddReLU2d",
     {},
     [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
       return ConvReluFuser(gm, Fusion::kAddRelu).run();
     },
     nullptr,
     /*needs_shapes=*/true}};

RegisterPass conv_act{{"conv-act",
                       "fuses a Conv2d with the activation after it (ReLU6/Hardtanh, LeakyReLU, "
                       "Hardswish, SiLU, Sigmoid, Tanh) into ConvAct2d: one kernel",
                       {},
                       [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
                         return ConvReluFuser(gm, Fusion::kActivation).run();
                       }}};

}  // namespace
}  // namespace fxc::passes
