// conv-relu and conv-add-relu: fuse a 2-D convolution with the ReLU after it, or with a residual
// add and the ReLU after that (a ResNet block's tail), into one convolution module that a
// backend runs as one kernel (oneDNN post-ops on the CPU).
//
//   %c = conv(%x);  %y = relu(%c)                   ⇒   %y = conv_relu(%x)         ConvReLU2d
//   %c = conv(%x);  %s = %c + %r;  %y = relu(%s)    ⇒   %y = conv_add_relu(%x, %r) ConvAddReLU2d
//
// The fused node keeps the conv's name and module (retyped, as torch.ao.nn.intrinsic does) and
// the ReLU's output name; export writes it back as the plain ops (Conv, Add, Relu). Refuses
// (reason at -v) when the conv's output has other users, the conv module is called more than
// once, the conv is a group of ops, or the add's operands are not known to have equal shapes.
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include "onnx/trace.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

class ConvReluFuser {
 public:
  ConvReluFuser(ir::GraphModule& gm, bool with_add) : gm_(gm), with_add_(with_add) {
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kCallModule) ++calls_[node->target()];
    }
  }

  PassResult run() {
    std::vector<ir::Node*> relus;
    for (ir::Node* node : gm_.graph()) {
      if (isRelu(*node)) relus.push_back(node);
    }
    for (ir::Node* relu : relus) {
      std::string why = with_add_ ? fuseAdd(relu) : fuse(relu);
      if (why.empty()) {
        result_.add("fused");
      } else {
        spdlog::debug("{}: not fusing {}: {}", with_add_ ? "conv-add-relu" : "conv-relu",
                      relu->name(), why);
        result_.add("refused");
      }
    }
    return result_;
  }

 private:
  bool isRelu(const ir::Node& node) const {
    if (node.op() == ir::Opcode::kCallFunction) return node.target() == "torch.relu";
    if (node.op() != ir::Opcode::kCallModule) return false;
    const ir::Module* module = gm_.findModule(node.target());
    return module && module->type() == "ReLU";
  }

  static ir::Node* singleInput(const ir::Node& node) {
    if (node.args().size() != 1 || !node.args()[0].isNode() || !node.kwargs().empty())
      return nullptr;
    return node.args()[0].toNode();
  }

  // Why `node` cannot be the convolution of a fusion ("" when it can).
  std::string convProblem(const ir::Node* node) {
    ir::Module* conv =
        node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
    if (!conv || conv->type() != "Conv2d") return "its input is not a Conv2d";
    if (node->users().size() != 1) return "the convolution's output has other users";
    if (calls_[node->target()] != 1) return "the convolution module is called more than once";
    const auto* record = std::any_cast<onnx::NodeRecord>(&node->meta.source);
    if (record && record->protos.size() > 1) return "the convolution is a group of ops";
    return "";
  }

  // The conv takes the ReLU's place: its module retyped, the ReLU's uses and output name.
  void replace(ir::Node* conv, ir::Node* relu, const std::string& type) {
    gm_.findModule(conv->target())->setType(type);
    conv->meta.source = onnx::NodeRecord{{}, {}, -1, onnx::recordedValueName(*relu)};
    conv->meta.shape = relu->meta.shape;
    relu->replaceAllUsesWith(conv);
    eraseCall(relu);
  }

  void eraseCall(ir::Node* node) {
    std::string path = node->op() == ir::Opcode::kCallModule ? node->target() : "";
    gm_.graph().eraseNode(node);
    if (!path.empty() && --calls_[path] == 0) gm_.removeModule(path);
  }

  std::string fuse(ir::Node* relu) {
    ir::Node* conv = singleInput(*relu);
    if (!conv) return "it does not take a single value";
    if (std::string why = convProblem(conv); !why.empty()) return why;
    replace(conv, relu, "ConvReLU2d");
    return "";
  }

  std::string fuseAdd(ir::Node* relu) {
    ir::Node* add = singleInput(*relu);
    if (!add || add->op() != ir::Opcode::kCallFunction || add->target() != "operator.add" ||
        add->args().size() != 2 || !add->args()[0].isNode() || !add->args()[1].isNode())
      return "its input is not an add of two values";
    if (add->users().size() != 1) return "the add's output has other users";
    ir::Node* a = add->args()[0].toNode();
    ir::Node* b = add->args()[1].toNode();
    if (!a->meta.shape || !b->meta.shape || *a->meta.shape != *b->meta.shape)
      return "the add's operands are not known to have the same shape";
    // The first operand that can be fused; the other is the residual.
    std::string why = convProblem(a);
    ir::Node* conv = a;
    ir::Node* residual = b;
    if (!why.empty() || a == b) {
      if (a != b) why = convProblem(b);
      conv = b;
      residual = a;
    }
    if (!why.empty()) return why;
    if (a == b) return "both operands are the convolution";
    // The residual may be computed after the conv (a shortcut branch): the fused node runs where
    // the add did.
    gm_.graph().moveBefore(conv, add);
    std::vector<ir::Argument> args = conv->args();
    args.emplace_back(residual);
    conv->setArgs(std::move(args));
    add->replaceAllUsesWith(conv);
    eraseCall(add);
    replace(conv, relu, "ConvAddReLU2d");
    return "";
  }

  ir::GraphModule& gm_;
  bool with_add_;
  PassResult result_;
  std::unordered_map<std::string, int> calls_;
};

RegisterPass conv_relu{{"conv-relu",
                        "fuses a Conv2d with the ReLU after it (ConvReLU2d: one kernel)",
                        {},
                        [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
                          return ConvReluFuser(gm, false).run();
                        }}};

RegisterPass conv_add_relu{
    {"conv-add-relu",
     "fuses Conv2d + residual add + ReLU (a ResNet block's tail) into ConvAddReLU2d",
     {},
     [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> {
       return ConvReluFuser(gm, true).run();
     },
     nullptr,
     /*needs_shapes=*/true}};

}  // namespace
}  // namespace fxc::passes
