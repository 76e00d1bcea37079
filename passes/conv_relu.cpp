// conv-relu and conv-add-relu: fuse a 2-D convolution with the ReLU after it, or with a residual
// add and the ReLU after that (a ResNet block's tail), into one convolution module that a
// backend runs as one kernel (oneDNN post-ops on the CPU).
//
//   %c = conv(%x);  %y = relu(%c)                   ⇒   %y = conv_relu(%x)         ConvReLU2d
//   %c = conv(%x);  %s = %c + %r;  %y = relu(%s)    ⇒   %y = conv_add_relu(%x, %r) ConvAddReLU2d
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

class ConvReluFuser {
 public:
  ConvReluFuser(ir::GraphModule& gm, bool with_add) : gm_(gm), with_add_(with_add) {
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kCallModule) ++calls_[node->target()];
    }
    // The convolution: exactly a Conv2d, its module called once, one ONNX op.
    ir::OpOptions conv_options{false, [this](const ir::GraphModule&, const ir::Node& node) {
                                 return node.kwargs().empty() && calls_[node.target()] == 1 &&
                                        node.meta.source_ops <= 1;
                               }};
    // relu(conv(x)) and relu(conv(x) + r), the ReLU a function or a module.
    for (bool module_relu : {false, true}) {
      ir::Pattern p;
      int conv = p.label(p.module("Conv2d", {p.input("x")}, conv_options), "conv");
      int value =
          with_add
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
      why = with_add_ ? fuseAdd(*match) : fuse(*match);
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
  bool with_add_;
  PassResult result_;
  std::unordered_map<std::string, int> calls_;
  std::vector<ir::Pattern> patterns_;
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
