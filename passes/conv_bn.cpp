// conv-bn: folds inference BatchNormalization into the convolution (or Gemm) before it.
//
//   %c = conv(%x);  %y = bn(%c)    ⇒   %y = conv'(%x)
//   w' = w · s,  b' = (b − mean) · s + beta,  s = gamma / sqrt(var + eps)   (per out channel)
//
// ConvTranspose scales its weight along axis 1 (grouped: [Cin, Cout/groups, k...]); a Gemm
// (Linear) followed by BatchNorm1d folds the same way along its output columns. Computed in
// double, stored in the conv's dtype; the fused node keeps the BatchNorm's output name.
// Refuses (reason at -v) when the conv output has other users, the conv module or its weight is
// shared, BatchNorm is in training mode or lacks running statistics, or a value is not a float
// constant.
#include "passes/conv_bn.h"

#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstring>

#include "onnx/trace.h"
#include "passes/registry.h"

namespace fxc::passes {

namespace {
std::vector<double> scales(const BatchNormParams& bn) {
  std::vector<double> s(bn.gamma.size());
  for (size_t i = 0; i < s.size(); ++i) s[i] = bn.gamma[i] / std::sqrt(bn.var[i] + bn.epsilon);
  return s;
}

bool sameSizes(const BatchNormParams& bn, size_t n) {
  return bn.gamma.size() == n && bn.beta.size() == n && bn.mean.size() == n && bn.var.size() == n;
}
}  // namespace

bool foldConvBatchNorm(std::vector<double>& weight, const std::vector<int64_t>& dims,
                       bool transposed, int64_t groups, std::vector<double>& bias,
                       const BatchNormParams& bn) {
  if (dims.size() < 2 || groups < 1) return false;
  size_t inner = 1;
  for (size_t i = 2; i < dims.size(); ++i) inner *= static_cast<size_t>(dims[i]);
  size_t out_channels =
      transposed ? static_cast<size_t>(dims[1] * groups) : static_cast<size_t>(dims[0]);
  if (!sameSizes(bn, out_channels) ||
      weight.size() != static_cast<size_t>(dims[0] * dims[1]) * inner)
    return false;
  if (transposed && dims[0] % groups != 0) return false;
  if (bias.empty()) bias.assign(out_channels, 0.0);
  if (bias.size() != out_channels) return false;
  std::vector<double> s = scales(bn);
  size_t per_row = static_cast<size_t>(dims[1]) * inner;
  for (size_t e = 0; e < weight.size(); ++e) {
    size_t channel;
    if (!transposed) {
      channel = e / per_row;
    } else {
      size_t in_channel = e / per_row;
      size_t j = (e / inner) % static_cast<size_t>(dims[1]);
      size_t group = in_channel / static_cast<size_t>(dims[0] / groups);
      channel = group * static_cast<size_t>(dims[1]) + j;
    }
    weight[e] *= s[channel];
  }
  for (size_t o = 0; o < out_channels; ++o) bias[o] = (bias[o] - bn.mean[o]) * s[o] + bn.beta[o];
  return true;
}

bool foldGemmBatchNorm(std::vector<double>& b, const std::vector<int64_t>& dims, bool trans_b,
                       double beta, std::vector<double>& c, const BatchNormParams& bn) {
  if (dims.size() != 2) return false;
  size_t n = static_cast<size_t>(trans_b ? dims[0] : dims[1]);
  size_t k = static_cast<size_t>(trans_b ? dims[1] : dims[0]);
  if (!sameSizes(bn, n) || b.size() != n * k) return false;
  if (c.empty()) c.assign(n, 0.0);
  if (c.size() == 1) c.assign(n, c[0]);
  if (c.size() != n) return false;
  std::vector<double> s = scales(bn);
  for (size_t row = 0; row < (trans_b ? n : k); ++row) {
    for (size_t col = 0; col < (trans_b ? k : n); ++col)
      b[row * (trans_b ? k : n) + col] *= s[trans_b ? row : col];
  }
  for (size_t o = 0; o < n; ++o) c[o] = (beta * c[o] - bn.mean[o]) * s[o] + bn.beta[o];
  return true;
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
    std::memcpy(out.data(), t->bytes(), out.size() * 8);
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

const ir::Argument* attribute(const ir::Module& module, const std::string& name) {
  for (const auto& [key, value] : module.attributes()) {
    if (key == name) return &value;
  }
  return nullptr;
}

double numberAttribute(const ir::Module& module, const std::string& name, double fallback) {
  const ir::Argument* value = attribute(module, name);
  if (!value) return fallback;
  if (value->kind() == ir::Argument::Kind::kFloat) return value->toFloat();
  if (value->kind() == ir::Argument::Kind::kInt) return static_cast<double>(value->toInt());
  return fallback;
}

void setAttribute(ir::Module& module, const std::string& name, ir::Argument value) {
  for (auto& [key, existing] : module.attributes()) {
    if (key == name) {
      existing = std::move(value);
      return;
    }
  }
  module.attributes().emplace_back(name, std::move(value));
}

bool startsWith(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

class ConvBnFolder {
 public:
  explicit ConvBnFolder(ir::GraphModule& gm) : gm_(gm) {
    for (const ir::Node* node : gm.graph()) {
      if (node->op() == ir::Opcode::kCallModule) ++calls_[node->target()];
    }
    countTensors(gm.root());
  }

  PassResult run() {
    std::vector<ir::Node*> candidates;
    for (ir::Node* node : gm_.graph()) {
      const ir::Module* module =
          node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
      if (module && startsWith(module->type(), "BatchNorm")) candidates.push_back(node);
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
    if (bn_node->args().size() != 1 || !bn_node->args()[0].isNode())
      return "its input is not a single value";
    ir::Node* conv_node = bn_node->args()[0].toNode();
    ir::Module* conv =
        conv_node->op() == ir::Opcode::kCallModule ? gm_.findModule(conv_node->target()) : nullptr;
    if (!conv) return "its input is not a module call";
    bool transposed = startsWith(conv->type(), "ConvTranspose");
    bool gemm = conv->type() == "Linear";
    if (!transposed && !gemm && !startsWith(conv->type(), "Conv"))
      return "its input is a " + conv->type() + ", not a convolution";
    const onnx::NodeRecord* conv_record = std::any_cast<onnx::NodeRecord>(&conv_node->meta.source);
    if (gemm && conv_record && !conv_record->protos.empty() &&
        (conv_record->protos.size() != 1 || conv_record->protos[0]->op_type() != "Gemm"))
      return "the Linear is not a single Gemm";
    if (conv_record && conv_record->protos.size() > 1) return "the convolution is a group of ops";
    if (conv_node->users().size() != 1) return "the convolution's output has other users";
    if (calls_[conv_node->target()] != 1) return "the convolution module is called more than once";
    for (const ir::Node* user : bn_node->users()) {
      if (user->target() == "operator.getitem")
        return "BatchNorm is in training mode (several outputs)";
    }
    if (numberAttribute(bn, "training_mode", 0) != 0) return "BatchNorm is in training mode";
    auto weight_tensor = conv->tensor("weight");
    if (!weight_tensor) return "the convolution has no constant weight";
    if (tensor_refs_[weight_tensor.get()] != 1) return "the convolution's weight is shared";
    BatchNormParams params;
    auto gamma = readFloats(bn.tensor("weight")), beta = readFloats(bn.tensor("bias"));
    auto mean = readFloats(bn.tensor("running_mean")), var = readFloats(bn.tensor("running_var"));
    if (!mean || !var) return "BatchNorm has no running statistics";
    if (!gamma || !beta) return "BatchNorm's scale or bias is not a float constant";
    params = {*gamma, *beta, *mean, *var, numberAttribute(bn, "epsilon", 1e-5)};
    auto weight = readFloats(weight_tensor);
    if (!weight) return "the convolution's weight is not a float constant";
    auto old_bias = conv->tensor(gemm ? "bias" : "bias");
    std::vector<double> bias;
    if (old_bias) {
      auto values = readFloats(old_bias);
      if (!values) return "the convolution's bias is not a float constant";
      bias = *values;
    }
    size_t channels;
    if (gemm) {
      bool trans_b = numberAttribute(*conv, "transB", 0) != 0;
      if (numberAttribute(*conv, "transA", 0) != 0) return "the Gemm transposes A";
      if (!foldGemmBatchNorm(*weight, weight_tensor->dims, trans_b,
                             numberAttribute(*conv, "beta", 1.0), bias, params))
        return "the shapes do not fit";
      setAttribute(*conv, "beta", 1.0);
      channels = bias.size();
    } else {
      int64_t groups = static_cast<int64_t>(numberAttribute(*conv, "group", 1));
      if (!foldConvBatchNorm(*weight, weight_tensor->dims, transposed, groups, bias, params))
        return "the shapes do not fit";
      channels = bias.size();
    }
    conv->setTensor("weight", writeFloats(*weight, weight_tensor->dtype, weight_tensor->dims,
                                          weight_tensor->source_name));
    std::string bias_name = old_bias ? old_bias->source_name : bn.tensor("bias")->source_name;
    conv->setTensor("bias", writeFloats(bias, weight_tensor->dtype,
                                        {static_cast<int64_t>(channels)}, bias_name));

    // The fused node takes the BatchNorm's place and its output name; the export rebuilds the
    // conv from the module (the new bias is not in the original node).
    std::string bn_value;
    if (const auto* record = std::any_cast<onnx::NodeRecord>(&bn_node->meta.source)) {
      bn_value = !record->value.empty()
                     ? record->value
                     : (record->protos.empty() ? "" : record->protos[0]->output(0));
    }
    conv_node->meta.source = onnx::NodeRecord{{}, {}, -1, bn_value};
    bn_node->replaceAllUsesWith(conv_node);
    std::string bn_path = bn_node->target();
    gm_.graph().eraseNode(bn_node);
    if (--calls_[bn_path] == 0) removeModule(bn_path);
    return "";
  }

  void removeModule(const std::string& path) {
    size_t dot = path.rfind('.');
    ir::Module* parent =
        dot == std::string::npos ? &gm_.root() : gm_.findModule(path.substr(0, dot));
    if (parent) parent->removeChild(dot == std::string::npos ? path : path.substr(dot + 1));
  }

  ir::GraphModule& gm_;
  PassResult result_;
  std::unordered_map<std::string, int> calls_;
  std::unordered_map<const ir::Tensor*, int> tensor_refs_;
};

Expected<PassResult> run(ir::GraphModule& gm, const Options&) { return ConvBnFolder(gm).run(); }

RegisterPass registration{
    {"conv-bn",
     "folds inference BatchNorm into the Conv, ConvTranspose or Gemm before it",
     {},
     run}};

}  // namespace
}  // namespace fxc::passes
