// simplify: onnx-simplifier's job as a pipeline of ordinary passes, repeated until none changes
// the graph (at most 8 rounds):  const-fold → cse → identity → pad-pool → conv-bn → dce.
// conv-bn is there as in onnx-simplifier (onnxoptimizer's fuse_bn_into_conv; its --skip-fuse-bn
// is fuse-bn=0 here) and ONNX Runtime's basic level: an inference BatchNorm after a convolution
// is folded into its weights (in double; outputs equal to rounding). Each pass keeps the graph's
// function, so their sequence does; --verify checks it against the model as written.
#include "passes/registry.h"

namespace fxc::passes {
namespace {

Expected<PassResult> run(ir::GraphModule& gm, const Options& options) {
  PassResult result;
  std::vector<PassRequest> pipeline;
  std::vector<std::string> specs = {"const-fold:max-bytes=" + options.get("max-bytes"), "cse",
                                    "identity", "pad-pool"};
  if (options.getBool("fuse-bn")) specs.push_back("conv-bn");
  specs.push_back("dce");
  for (const std::string& spec : specs) {
    auto request = parsePassSpec(spec);
    if (!request) return Error{request.error()};
    pipeline.push_back(request.take());
  }
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (const PassRequest& request : pipeline) {
      auto done = request.pass->run(gm, request.options);
      if (!done) return Error{request.pass->name + ": " + done.error()};
      for (const auto& [what, n] : done.value().counts) {
        if (what == "refused" || what == "kept" || what == "too large or not exact") continue;
        result.add(request.pass->name + " " + what, n);
        changed = changed || n > 0;
      }
    }
    if (!changed) break;
  }
  return result;
}

RegisterPass registration{
    {"simplify",
     "const-fold, cse, identity, pad-pool, conv-bn and dce until nothing changes "
     "(onnx-simplifier's job)",
     {{"max-bytes", OptionKind::kInt, "67108864", "const-fold: results larger than this stay ops"},
      {"fuse-bn", OptionKind::kBool, "true",
       "fold inference BatchNorms into the convolution before them (0: keep them)"}},
     run}};

}  // namespace
}  // namespace fxc::passes
