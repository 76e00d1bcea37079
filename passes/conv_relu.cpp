// conv-relu, conv-add-relu, conv-act, linear-act, linear-bias and bn-relu: fuse a 2-D convolution
// with the ReLU after it, or with a residual add and the ReLU after that (a ResNet block's tail),
// or a convolution or a Linear with the activation after it, or a Linear without bias with the add
// of a constant vector after it, or a BatchNorm2d with the ReLU after it, into one module that a
// backend runs as one kernel (oneDNN post-ops or bias on the CPU).
//
//   %c = conv(%x);  %y = relu(%c)                   ⇒   %y = conv_relu(%x)         ConvReLU2d
//   %c = conv(%x);  %s = %c + %r;  %y = relu(%s)    ⇒   %y = conv_add_relu(%x, %r) ConvAddReLU2d
//   %c = conv(%x);  %y = act(%c)                    ⇒   %y = conv_act(%x)          ConvAct2d
//   %l = linear(%x);  %y = act(%l)                  ⇒   %y = linear_act(%x)        LinearAct
//   %l = linear(%x);  %y = %l + b                   ⇒   %y = linear(%x), bias b    Linear
//   %n = batch_norm(%x);  %y = relu(%n)             ⇒   %y = bn_relu(%x)           BNReLU2d
//
// bn-relu is for the BatchNorm that conv-bn cannot fold: one that reads no convolution
// (DenseNet's, on a concatenation: BatchNorm → ReLU → Conv). It fuses only a BatchNorm in
// inference mode (training_mode 0, is_test nonzero, spatial 1 where given; is_test given below
// opset 7, where its default is training; any other attribute than epsilon and momentum
// refuses), so the fused module is the affine map and the ReLU, nothing else.
//
// linear-bias: the exporter writes a Linear layer inside a larger module (PyTorch's
// MultiheadAttention's in_proj) as MatMul, then Add of the bias: the frontend makes the MatMul a
// Linear without bias and leaves the Add. b must be a float32 constant of the Linear's output
// width (shape [out], or [1, ..., 1, out] of a rank the output has at least): the add then
// broadcasts b along the last axis and keeps the Linear's shape, which is what a bias does.
//
// conv-act's activations are the modules a convolution can apply to its output as it writes it
// (oneDNN's eltwise post-ops): Hardtanh (ReLU6, Clip with constant bounds), LeakyReLU,
// Hardswish, Hardsigmoid (a squeeze-excitation's gate), SiLU, Sigmoid, Tanh. The fused module
// records which (`activation`) and the activation's own parameters under `activation_`
// (Hardtanh's bounds as the tensors or attributes it had, LeakyReLU's α, Hardsigmoid's α and
// β), so that it computes exactly what the two modules did.
//
// The fused node keeps the conv's name and module (retyped, as torch.ao.nn.intrinsic does) and
// the ReLU's output name; export writes it back as the plain ops (Conv, Add, Relu; a LinearAct
// as MatMul, Add, activation; a BNReLU2d as BatchNormalization, Relu). The patterns (ir::Pattern)
// hold only where the conv's and the add's outputs have no other users, the conv is exactly a
// Conv2d, its module called once and one ONNX op (a Linear: called once, any number of ops: export
// writes it from its module); conv-add-relu refuses (reason at -v) when the add's operands are not
// known to have equal shapes. bn-relu's BatchNorm is exactly a BatchNorm2d module (of any rank:
// the frontend's name for a BatchNormalization of unknown rank too), called once with one argument
// and no kwargs, one ONNX op; the patterns label it "conv", as they do the convolution.
#include <spdlog/spdlog.h>

#include <optional>

#include "ir/matcher.h"
#include "passes/fused_activation.h"
#include "passes/registry.h"

namespace fxc::passes {

std::vector<std::string> fusedActivations(bool linear) {
  std::vector<std::string> types = {"Hardtanh", "LeakyReLU", "Hardswish", "Hardsigmoid",
                                    "SiLU",     "Sigmoid",   "Tanh"};
  if (linear) types.insert(types.end(), {"GELU", "ReLU"});
  return types;
}
std::vector<std::pair<std::string, std::string>> fusedFunctions(bool linear) {
  std::vector<std::pair<std::string, std::string>> functions = {
      {"torch.clamp", "Hardtanh"},
      {"torch.nn.functional.leaky_relu", "LeakyReLU"},
      {"torch.nn.functional.hardswish", "Hardswish"},
      {"torch.nn.functional.hardsigmoid", "Hardsigmoid"},
      {"torch.sigmoid", "Sigmoid"},
      {"torch.tanh", "Tanh"}};
  if (linear)
    functions.insert(functions.end(),
                     {{"torch.nn.functional.gelu", "GELU"}, {"torch.relu", "ReLU"}});
  return functions;
}
bool carriedAttribute(const std::string& type, const std::string& key, ir::Argument::Kind kind) {
  using K = ir::Argument::Kind;
  return (type == "Hardtanh" && (key == "min" || key == "max") && kind == K::kFloat) ||
         (type == "LeakyReLU" && key == "alpha" && kind == K::kFloat) ||
         (type == "Hardsigmoid" && (key == "alpha" || key == "beta") && kind == K::kFloat) ||
         (type == "GELU" && key == "approximate" && kind == K::kString);
}

namespace {

// A Linear that is a plain product (x @ W or x @ Wᵀ, + b): what LinearAct's kernels and export
// take. Gemm's other attributes (transA, α, β) at their defaults only.
bool plainLinear(const ir::Module& module) {
  for (const auto& [key, value] : module.attributes()) {
    using K = ir::Argument::Kind;
    bool is_int = value.kind() == K::kInt, is_float = value.kind() == K::kFloat;
    if (key == "transB" && is_int && (value.toInt() == 0 || value.toInt() == 1)) continue;
    if (key == "transA" && is_int && value.toInt() == 0) continue;
    if ((key == "alpha" || key == "beta") && is_float && value.toFloat() == 1.0) continue;
    return false;
  }
  return true;
}

enum class Fusion { kRelu, kAddRelu, kActivation, kLinearActivation, kLinearBias, kBnRelu };

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
    if (fusion == Fusion::kLinearBias) {
      // A plain Linear without bias, called once; the add's other operand a constant.
      ir::OpOptions unbiased{false, [this](const ir::GraphModule& g, const ir::Node& node) {
                               const ir::Module* module = g.findModule(node.target());
                               return node.kwargs().empty() && node.args().size() == 1 &&
                                      calls_[node.target()] == 1 && module &&
                                      plainLinear(*module) && !module->tensor("bias");
                             }};
      ir::Pattern p;
      int linear = p.label(p.module("Linear", {p.input("x")}, unbiased), "conv");
      p.setOutput(p.op("operator.add", {linear, p.constant("bias")}, {true, nullptr}));
      patterns_.push_back(std::move(p));
      return;
    }
    bool linear = fusion == Fusion::kLinearActivation;
    if (fusion == Fusion::kActivation || linear) {
      // The Linear: a plain product, its module called once.
      ir::OpOptions linear_options{false, [this](const ir::GraphModule& g, const ir::Node& node) {
                                     const ir::Module* module = g.findModule(node.target());
                                     return node.kwargs().empty() && node.args().size() == 1 &&
                                            calls_[node.target()] == 1 && module &&
                                            plainLinear(*module);
                                   }};
      auto anchor = [&](ir::Pattern& p) {
        return p.label(linear ? p.module("Linear", {p.input("x")}, linear_options)
                              : p.module("Conv2d", {p.input("x")}, conv_options),
                       "conv");
      };
      // act(conv(x)), the activation a module reading the convolution alone.
      ir::OpOptions act_options{false, [](const ir::GraphModule&, const ir::Node& node) {
                                  return node.args().size() == 1 && node.kwargs().empty();
                                }};
      ir::Pattern p;
      int conv = anchor(p);
      p.setOutput(p.module(fusedActivations(linear), {conv}, act_options));
      patterns_.push_back(std::move(p));
      // The functions: on the convolution alone (their attributes in kwargs), and Clip's
      // torch.clamp on constant bounds.
      for (const auto& [target, type] : fusedFunctions(linear)) {
        ir::OpOptions kwargs_known{false, [type = type](const ir::GraphModule&, const ir::Node& n) {
                                     for (const auto& [key, value] : n.kwargs()) {
                                       if (!carriedAttribute(type, key, value.kind())) return false;
                                     }
                                     return true;
                                   }};
        ir::Pattern f;
        int c = anchor(f);
        f.setOutput(f.op(target, {c}, kwargs_known));
        patterns_.push_back(std::move(f));
      }
      ir::Pattern clamp;
      int c = anchor(clamp);
      clamp.setOutput(clamp.op("torch.clamp", {c, clamp.constant("min", ir::Pattern::anyScalar()),
                                               clamp.constant("max", ir::Pattern::anyScalar())}));
      patterns_.push_back(std::move(clamp));
      return;
    }
    // relu(conv(x)), relu(conv(x) + r) and relu(batch_norm(x)), the ReLU a function or a module.
    // The BatchNorm: its module called once, one ONNX op (its attributes checked in fuseBn).
    ir::OpOptions bn_options{false, [this](const ir::GraphModule&, const ir::Node& node) {
                               return node.kwargs().empty() && node.args().size() == 1 &&
                                      calls_[node.target()] == 1 && node.meta.source_ops <= 1;
                             }};
    for (bool module_relu : {false, true}) {
      ir::Pattern p;
      int conv =
          p.label(fusion == Fusion::kBnRelu ? p.module("BatchNorm2d", {p.input("x")}, bn_options)
                                            : p.module("Conv2d", {p.input("x")}, conv_options),
                  "conv");
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
            : fusion_ == Fusion::kRelu       ? fuse(*match)
            : fusion_ == Fusion::kBnRelu     ? fuseBn(*match)
            : fusion_ == Fusion::kLinearBias ? fuseBias(*match)
                                             : fuseActivation(*match);
      if (why.empty()) {
        result_.add("fused");
      } else {
        spdlog::debug("{}: not fusing {}: {}", passName(), relu->name(), why);
        result_.add("refused");
      }
    }
    return result_;
  }

 private:
  const char* passName() const {
    switch (fusion_) {
      case Fusion::kRelu:
        return "conv-relu";
      case Fusion::kAddRelu:
        return "conv-add-relu";
      case Fusion::kActivation:
        return "conv-act";
      case Fusion::kLinearActivation:
        return "linear-act";
      case Fusion::kLinearBias:
        return "linear-bias";
      case Fusion::kBnRelu:
        return "bn-relu";
    }
    return "";
  }

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

  // A BatchNorm in inference mode: its output the affine map of its input, channel by channel.
  std::string fuseBn(const ir::Match& match) {
    ir::Node* bn = match.node("conv");
    const ir::Module* module = gm_.findModule(bn->target());
    if (!module) return "the BatchNorm's module is missing";
    for (const auto& [key, value] : module->attributes()) {
      using K = ir::Argument::Kind;
      bool is_int = value.kind() == K::kInt;
      if ((key == "epsilon" || key == "momentum") && value.kind() == K::kFloat) continue;
      if ((key == "training_mode" && is_int && value.toInt() == 0) ||
          (key == "is_test" && is_int && value.toInt() != 0) ||
          (key == "spatial" && is_int && value.toInt() == 1))
        continue;
      return "the BatchNorm has attribute '" + key + "' " + ir::pyRepr(value) +
             " (training mode, or one bn-relu does not carry)";
    }
    if (gm_.opset < 7 && !module->attribute("is_test"))
      return "the BatchNorm has no is_test, which means training mode before opset 7";
    for (const char* name : {"weight", "bias", "running_mean", "running_var"}) {
      if (!module->tensor(name)) return std::string("the BatchNorm has no ") + name;
    }
    replace(bn, match.output, "BNReLU2d");
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
      for (const auto& [target, module_type] : fusedFunctions(true)) {
        if (target == act->target()) type = module_type;
      }
      for (const char* bound : {"min", "max"}) {
        if (auto tensor = match.constant(bound)) tensors.emplace_back(bound, tensor);
      }
    }
    // A GELU recognized from its ops keeps the constants the recognizer proved (√2, 1, ½) for
    // export's record; its kernel, and the fused one, compute GELU from `approximate` alone.
    if (type == "GELU") tensors.clear();
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
      if (!carriedAttribute(type, key, value.kind()))
        return "the activation has an attribute '" + key + "' " + passName() + " does not carry";
      merged.emplace_back("activation_" + key, value);
    }
    merged.emplace_back("activation", ir::Argument(type));
    fused->attributes() = std::move(merged);
    for (auto& [name, tensor] : tensors) fused->setTensor(name, tensor);
    std::vector<ir::Node*> bounds = match.constant_nodes;
    replace(conv, act, fusion_ == Fusion::kLinearActivation ? "LinearAct" : "ConvAct2d");
    for (ir::Node* bound : bounds) {
      if (bound->users().empty()) gm_.graph().eraseNode(bound);
    }
    return "";
  }

  // The constant becomes the Linear's bias, of shape [out].
  std::string fuseBias(const ir::Match& match) {
    ir::Node* linear = match.node("conv");
    ir::Node* add = match.output;
    ir::Module* module = gm_.findModule(linear->target());
    auto weight = module ? module->tensor("weight") : nullptr;
    auto bias = match.constant("bias");
    if (!weight || weight->dims.size() != 2 || weight->dtype != ir::DType::kFloat32)
      return "the weight is not a float32 matrix";
    const ir::Argument* trans_b = module->attribute("transB");
    int64_t out = weight->dims[trans_b && trans_b->toInt() == 1 ? 0 : 1];
    if (bias->dtype != ir::DType::kFloat32 || bias->dims.empty() || bias->dims.back() != out ||
        bias->numel() != out)
      return "the constant is not a float32 vector of the output width " + std::to_string(out);
    // [1, ..., 1, out] keeps the Linear's shape only where the output has that rank at least.
    if (bias->dims.size() > 1 &&
        (!linear->meta.shape || linear->meta.shape->size() < bias->dims.size()))
      return "the constant's rank " + std::to_string(bias->dims.size()) +
             " could broadcast the output to a higher one (the output's rank is not known to be "
             "as high)";
    auto vector = std::make_shared<ir::Tensor>(*bias);
    vector->dims = {out};
    module->setTensor("bias", vector);
    std::vector<ir::Node*> constants = match.constant_nodes;
    ir::takeOverValue(*linear, *add);
    linear->meta.shape = add->meta.shape;
    add->replaceAllUsesWith(linear);
    gm_.graph().eraseNode(add);
    for (ir::Node* constant : constants) {
      if (constant->users().empty()) gm_.graph().eraseNode(constant);
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
                       "Hardswish, Hardsigmoid, SiLU, Sigmoid, Tanh) into ConvAct2d: one kernel",
                       {},
                       [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
                         return ConvReluFuser(gm, Fusion::kActivation).run();
                       }}};

RegisterPass linear_act{
    {"linear-act",
     "fuses a Linear (a plain product, with or without bias) with the "
     "activation after it (GELU, ReLU and conv-act's) into LinearAct: one kernel",
     {},
     [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
       return ConvReluFuser(gm, Fusion::kLinearActivation).run();
     }}};

RegisterPass bn_relu{{"bn-relu",
                      "fuses a BatchNorm2d in inference mode with the ReLU after it (BNReLU2d: one "
                      "kernel; DenseNet's BatchNorm -> ReLU on a concatenation)",
                      {},
                      [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
                        return ConvReluFuser(gm, Fusion::kBnRelu).run();
                      }}};

RegisterPass linear_bias{
    {"linear-bias",
     "gives a Linear without bias the add of a constant vector after it (MultiheadAttention's "
     "in_proj as exported: MatMul, then Add) as its bias: one kernel",
     {},
     [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
       return ConvReluFuser(gm, Fusion::kLinearBias).run();
     }}};

}  // namespace
}  // namespace fxc::passes
