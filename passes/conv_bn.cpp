// conv-bn: folds inference BatchNormalization into the convolution (or Gemm) before it.
//
//   %c = conv(%x);  %y = bn(%c)    ⇒   %y = conv'(%x)
//   w' = w · s,  b' = (b − mean) · s + beta,  s = gamma / sqrt(var + eps)   (per out channel)
//
// ConvTranspose scales its weight along axis 1 (grouped: [Cin, Cout/groups, k...]); a Gemm
// (Linear) followed by BatchNorm1d folds the same way along its output columns. Computed in
// double, stored in the conv's dtype; the fused node keeps the BatchNorm's output name.
// Refuses (reason at -v) when the conv output has other users, the conv module is called twice,
// its weight or bias is shared (another module holds it, or a get_attr reads it), a Gemm's C is
// one value per row, BatchNorm is in training mode or lacks running statistics, or a value is not
// a float constant.
#include "passes/conv_bn.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "ir/matcher.h"
#include "ir/module_kind.h"
#include "passes/registry.h"

namespace fxc::passes {

std::vector<double> batchNormScale(const BatchNormParams& bn, size_t channels) {
  if (bn.gamma.size() != channels || bn.beta.size() != channels || bn.mean.size() != channels ||
      bn.var.size() != channels)
    return {};
  std::vector<double> s(channels);
  for (size_t i = 0; i < channels; ++i) s[i] = bn.gamma[i] / std::sqrt(bn.var[i] + bn.epsilon);
  return s;
}

namespace {

std::optional<std::vector<double>> readFloats(const std::shared_ptr<ir::Tensor>& t) {
  if (!t) return std::nullopt;
  std::vector<double> out(static_cast<size_t>(t->numel()));
  if (t->dtype == ir::DType::kFloat32 && t->byteSize() == out.size() * 4) {
    for (size_t i = 0; i < out.size(); ++i) {
      float v;
      std::memcpy(&v, t->bytes() + i * 4, 4);
      out[i] = v;
    }
    return out;
  }
  if (t->dtype == ir::DType::kFloat64 && t->byteSize() == out.size() * 8) {
    if (!out.empty()) std::memcpy(out.data(), t->bytes(), out.size() * 8);
    return out;
  }
  return std::nullopt;
}

std::shared_ptr<ir::Tensor> writeFloats(const std::vector<double>& values, ir::DType dtype,
                                        std::vector<int64_t> dims, std::string source_name) {
  auto t = std::make_shared<ir::Tensor>();
  t->dtype = dtype;
  t->dims = std::move(dims);
  t->source_name = std::move(source_name);
  std::string bytes(values.size() * (dtype == ir::DType::kFloat64 ? 8 : 4), '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == ir::DType::kFloat64) {
      std::memcpy(bytes.data() + i * 8, &values[i], 8);
    } else {
      float v = static_cast<float>(values[i]);
      std::memcpy(bytes.data() + i * 4, &v, 4);
    }
  }
  t->setBytes(std::move(bytes));
  return t;
}

class ConvBnFolder {
 public:
  explicit ConvBnFolder(ir::GraphModule& gm) : gm_(gm) {
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kCallModule) ++calls_[node->target()];
    }
    countTensors(gm.root());
    // A get_attr reads a tensor too: one naming a module's slot ("conv.weight", a weight the
    // model also reads elsewhere) shares it, and would see the folded values.
    for (const ir::Node* node : gm.graph()) {
      if (node->op() != ir::Opcode::kGetAttr) continue;
      if (auto tensor = gm.findTensor(node->target())) ++tensor_refs_[tensor.get()];
      size_t dot = node->target().rfind('.');
      if (dot != std::string::npos) read_modules_.insert(node->target().substr(0, dot));
    }
    // bn(conv(x)), the conv's output used by the BatchNorm alone. Exactly a convolution or a
    // Linear: a fused ConvReLU2d has a ReLU between the convolution and the BatchNorm, which no
    // weight change can move the BatchNorm across.
    int conv = pattern_.label(pattern_.module({"Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
                                               "ConvTranspose2d", "ConvTranspose3d", "Linear"},
                                              {pattern_.input("x")}),
                              "conv");
    pattern_.setOutput(pattern_.module({"BatchNorm1d", "BatchNorm2d", "BatchNorm3d"}, {conv}));
  }

  PassResult run() {
    std::vector<ir::Node*> candidates;
    for (ir::Node* node : gm_.graph()) {
      const ir::Module* module =
          node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
      if (module && ir::isBatchNorm(ir::moduleKind(module->type()))) candidates.push_back(node);
    }
    for (ir::Node* bn : candidates) {
      std::string why = fold(bn);
      if (why.empty()) {
        result_.add("fused");
      } else {
        spdlog::debug("conv-bn: not folding {}: {}", bn->name(), why);
        result_.add("refused");
      }
    }
    return result_;
  }

 private:
  void countTensors(const ir::Module& module) {
    for (const auto& [name, tensor] : module.tensors()) ++tensor_refs_[tensor.get()];
    for (const auto& [name, child] : module.children()) countTensors(*child);
  }

  // Folds one BatchNorm node; returns why not, or "".
  std::string fold(ir::Node* bn_node) {
    ir::Module& bn = *gm_.findModule(bn_node->target());
    std::string why;
    auto match = ir::matchAt(gm_, pattern_, bn_node, &why);
    if (!match) return why;
    ir::Node* conv_node = match->node("conv");
    ir::Module* conv = gm_.findModule(conv_node->target());
    ir::ModuleKind kind = ir::moduleKind(conv->type());
    bool transposed = ir::isTransposedConvolution(kind);
    bool gemm = kind == ir::ModuleKind::kLinear;
    const ir::Meta& from = conv_node->meta;
    if (gemm && from.source_ops > 0 && (from.source_ops != 1 || from.source_op != "Gemm"))
      return "the Linear is not a single Gemm";
    if (from.source_ops > 1) return "the convolution is a group of ops";
    if (calls_[conv_node->target()] != 1) return "the convolution module is called more than once";
    for (const ir::Node* user : bn_node->users()) {
      if (user->target() == "operator.getitem")
        return "BatchNorm is in training mode (several outputs)";
    }
    if (bn.numberAttribute("training_mode", 0) != 0) return "BatchNorm is in training mode";
    if (bn.numberAttribute("is_test", 1) == 0) return "BatchNorm is in training mode (is_test 0)";
    auto weight_tensor = conv->tensor("weight");
    if (!weight_tensor) return "the convolution has no constant weight";
    if (tensor_refs_[weight_tensor.get()] != 1) return "the convolution's weight is shared";
    BatchNormParams params;
    auto gamma = readFloats(bn.tensor("weight")), beta = readFloats(bn.tensor("bias"));
    auto mean = readFloats(bn.tensor("running_mean")), var = readFloats(bn.tensor("running_var"));
    if (!mean || !var) return "BatchNorm has no running statistics";
    if (!gamma || !beta) return "BatchNorm's scale or bias is not a float constant";
    params = {*gamma, *beta, *mean, *var, bn.numberAttribute("epsilon", 1e-5)};
    // A zero variance with epsilon 0 makes γ/√(var + ε) infinite: the BatchNorm as written gives
    // ±inf (or NaN for 0/0) per element, a folded weight inf·w and inf − inf = NaN.
    for (double scale : batchNormScale(params, params.var.size())) {
      if (!std::isfinite(scale)) return "the BatchNorm's scale γ/√(var + ε) is not finite";
    }
    ir::DType dtype = weight_tensor->dtype;
    if (dtype != ir::DType::kFloat32 && dtype != ir::DType::kFloat64)
      return "the convolution's weight is not a float constant";
    // The new weights, scaled in place in their own buffer (the old may be a view of the file).
    std::string weight(weight_tensor->bytes(), weight_tensor->byteSize());
    size_t count = static_cast<size_t>(weight_tensor->numel());
    if (weight.size() != count * (dtype == ir::DType::kFloat32 ? 4 : 8))
      return "the convolution's weight has the wrong size";
    auto old_bias = conv->tensor("bias");
    if (old_bias && tensor_refs_[old_bias.get()] != 1) return "the convolution's bias is shared";
    std::vector<double> bias;
    if (old_bias) {
      auto values = readFloats(old_bias);
      if (!values) return "the convolution's bias is not a float constant";
      bias = *values;
    }
    size_t channels;
    if (gemm) {
      bool trans_b = conv->numberAttribute("transB", 0) != 0;
      if (conv->numberAttribute("transA", 0) != 0) return "the Gemm transposes A";
      // C must be one value per output column ([N], [1, N]) or one for all: a C of [M, 1] with
      // M = N is one per row, which no per-column fold can keep.
      if (old_bias && old_bias->dims.size() > 2) return "the Gemm's C has more than two axes";
      if (old_bias && old_bias->dims.size() == 2 && old_bias->dims[0] != 1)
        return "the Gemm's C is not one row";
      double beta = conv->numberAttribute("beta", 1.0);
      bool folded = dtype == ir::DType::kFloat32
                        ? foldGemmBatchNorm(reinterpret_cast<float*>(weight.data()), count,
                                            weight_tensor->dims, trans_b, beta, bias, params)
                        : foldGemmBatchNorm(reinterpret_cast<double*>(weight.data()), count,
                                            weight_tensor->dims, trans_b, beta, bias, params);
      if (!folded) return "the shapes do not fit";
      channels = bias.size();
    } else {
      int64_t groups = static_cast<int64_t>(conv->numberAttribute("group", 1));
      bool folded = dtype == ir::DType::kFloat32
                        ? foldConvBatchNorm(reinterpret_cast<float*>(weight.data()), count,
                                            weight_tensor->dims, transposed, groups, bias, params)
                        : foldConvBatchNorm(reinterpret_cast<double*>(weight.data()), count,
                                            weight_tensor->dims, transposed, groups, bias, params);
      if (!folded) return "the shapes do not fit";
      channels = bias.size();
    }
    auto finite = [](const auto* v, size_t n) {
      return std::all_of(v, v + n, [](double x) { return std::isfinite(x); });
    };
    if (!finite(bias.data(), bias.size()) ||
        !(dtype == ir::DType::kFloat32 ? finite(reinterpret_cast<float*>(weight.data()), count)
                                       : finite(reinterpret_cast<double*>(weight.data()), count)))
      return "a folded weight or bias overflows";
    if (gemm) conv->setAttribute("beta", 1.0);  // folded into the bias
    auto new_weight = std::make_shared<ir::Tensor>();
    new_weight->dtype = dtype;
    new_weight->dims = weight_tensor->dims;
    new_weight->source_name = weight_tensor->source_name;
    new_weight->setBytes(std::move(weight));
    conv->setTensor("weight", new_weight);
    std::string bias_name = old_bias ? old_bias->source_name : bn.tensor("bias")->source_name;
    conv->setTensor("bias", writeFloats(bias, weight_tensor->dtype,
                                        {static_cast<int64_t>(channels)}, bias_name));

    // The fused node takes the BatchNorm's place and its output name; the export rebuilds the
    // conv from the module (the new bias is not in the original node).
    ir::takeOverValue(*conv_node, *bn_node);
    bn_node->replaceAllUsesWith(conv_node);
    std::string bn_path = bn_node->target();
    gm_.graph().eraseNode(bn_node);
    if (--calls_[bn_path] == 0 && !read_modules_.count(bn_path)) gm_.removeModule(bn_path);
    return "";
  }

  ir::GraphModule& gm_;
  ir::Pattern pattern_;
  PassResult result_;
  std::unordered_map<std::string, int> calls_;
  std::unordered_map<const ir::Tensor*, int> tensor_refs_;
  std::unordered_set<std::string> read_modules_;  // modules a get_attr reads a tensor of
};

Expected<PassResult> run(ir::GraphModule& gm, const Options&) { return ConvBnFolder(gm).run(); }

RegisterPass registration{
    {"conv-bn",
     "folds inference BatchNorm into the Conv, ConvTranspose or Gemm before it",
     {},
     run}};

}  // namespace
}  // namespace fxc::passes
