// pad-pool: an average pool that torch.onnx wrote as a Pad and an AveragePool becomes the one
// AveragePool that pads itself (onnxoptimizer's fuse_pad_into_pool; ONNX Runtime's basic-level
// PadFusion).
//
//   %p = pad(%x, pads);  %y = avg_pool2d(%p, k, s)   ⇒   %y = avg_pool2d(%x, k, s, pads,
//                                                                      count_include_pad = 1)
//   %y = self.pool(%x)   (AvgPool2d the trace recognized from the same two ops)
//                                                    ⇒   the module, written as one AveragePool
//
// One proof for both (ir/patterns.h): a constant-mode Pad of zeros, non-negative, over H and W
// alone, before an AveragePool without pads or dilations of its own and without ceil_mode;
// counting the padded zeros is what the two ops computed. The recognized module already holds the
// one op's attributes: the pass only stops the node from being the model's two ops, so export
// writes it from the module. Nothing changes numerically.
#include <spdlog/spdlog.h>

#include "ir/module_kind.h"
#include "ir/patterns.h"
#include "passes/registry.h"

namespace fxc::passes {
namespace {

Expected<PassResult> run(ir::GraphModule& gm, const Options&) {
  PassResult result;
  const ir::Pattern pattern = ir::paddedAveragePool();
  std::vector<ir::Node*> pools;
  for (ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kCallFunction &&
        node->target() == "torch.nn.functional.avg_pool2d") {
      pools.push_back(node);
      continue;
    }
    if (node->op() != ir::Opcode::kCallModule || node->meta.source_ops < 2) continue;
    const ir::Module* module = gm.findModule(node->target());
    if (module && module->type() == "AvgPool2d") {
      ir::takeOverValue(*node, *node);
      result.add("merged");
    }
  }
  for (ir::Node* pool : pools) {
    std::string why;
    auto match = ir::matchAt(gm, pattern, pool, &why);
    if (!match) continue;
    auto kwargs = ir::paddedAveragePoolKwargs(*match, &why);
    if (!kwargs) {
      spdlog::debug("pad-pool: {} stays two ops: {}", pool->name(), why);
      continue;
    }
    ir::Node* pad = pool->args()[0].toNode();
    ir::Node* merged;
    {
      auto guard = gm.graph().insertingBefore(pool);
      merged = gm.graph().callFunction("torch.nn.functional.avg_pool2d", {match->input("x")},
                                       std::move(*kwargs));
    }
    merged->meta.dtype = pool->meta.dtype;
    merged->meta.shape = pool->meta.shape;
    ir::takeOverValue(*merged, *pool);
    pool->replaceAllUsesWith(merged);
    gm.graph().eraseNode(pool);
    gm.graph().eraseNode(pad);  // the matcher proved the pool its only user
    result.add("merged");
  }
  return result;
}

RegisterPass registration{
    {"pad-pool",
     "a Pad of zeros before an AveragePool becomes one AveragePool that pads itself "
     "(onnxoptimizer's fuse_pad_into_pool)",
     {},
     run}};

}  // namespace
}  // namespace fxc::passes
