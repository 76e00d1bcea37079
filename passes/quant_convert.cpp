// quant-convert: observers become fake-quantize ops (exported as QuantizeLinear→DequantizeLinear
// pairs) and the weighted ops they feed take quantized weights, as torch.ao's convert_fx does:
//
//   %o = activation_post_process_0(%x); %y = conv(%o)
//     ⇒  %q = torch.fake_quantize_per_tensor_affine(%x, %x_scale, %x_zero_point, ...)
//         %w = torch.fake_quantize_per_channel_affine(%conv_weight, ...)      (qat=true)
//              onnx.DequantizeLinear(%conv_weight_quantized, ...)             (qat=false)
//         %y = torch.nn.functional.conv2d(%q, %w, %b, ...)
//
// Weights: symmetric, narrow range [-127, 127], per output channel (axis 0; ConvTranspose axis 1;
// Gemm's B along N) unless per-tensor. Bias: float (trt, and always with qat), or int32 at
// s_in·s_w (ort-cpu) behind a DequantizeLinear.
//
// quant-fold-weights: a fake-quantize or a QuantizeLinear→DequantizeLinear pair on a constant
// weight (a QAT model back from training) becomes the int8 constant and a DequantizeLinear.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "passes/quant.h"

namespace fxc::passes {
namespace {

const char* kPerTensor = "torch.fake_quantize_per_tensor_affine";
const char* kPerChannel = "torch.fake_quantize_per_channel_affine";

// The integer values of `w` quantized with per-slice parameters along `axis` (-1: one slice).
std::vector<int64_t> quantizeAlong(const std::vector<float>& w, const std::vector<int64_t>& dims,
                                   int64_t axis, const std::vector<exec::QuantParams>& params,
                                   exec::QuantRange range) {
  exec::Slices slices(dims, axis);
  std::vector<int64_t> q(w.size());
  for (size_t k = 0; k < w.size(); ++k)
    q[k] = exec::quantizeValue(w[k], params[slices.of(k)], range);
  return q;
}

// Replaces `old` by `replacement` everywhere and takes its name and output name.
void substitute(ir::GraphModule& gm, ir::Node* old, ir::Node* replacement) {
  replacement->meta.dtype = old->meta.dtype;
  replacement->meta.shape = old->meta.shape;
  ir::takeOverValue(*replacement, *old);
  old->replaceAllUsesWith(replacement);
  std::string name = old->name();
  gm.graph().eraseNode(old);
  replacement->setName(name);
}

class Converter {
 public:
  Converter(ir::GraphModule& gm, const QuantPreset& preset, bool per_tensor, bool qat)
      : gm_(gm), preset_(preset), per_tensor_(per_tensor), qat_(qat) {}

  Expected<PassResult> run() {
    // The weighted ops whose activation input is observed, found before observers go.
    std::vector<ir::Node*> weighted;
    for (ir::Node* node : gm_.graph()) {
      if (!isWeighted(quantKind(gm_, *node)) || node->args().empty() || !node->args()[0].isNode())
        continue;
      const ir::Node* input = node->args()[0].toNode();
      if (isObserver(gm_, *input) && !skipped(*input)) weighted.push_back(node);
    }
    std::vector<ir::Node*> observers;
    for (ir::Node* node : gm_.graph()) {
      if (isObserver(gm_, *node)) observers.push_back(node);
    }
    for (ir::Node* observer : observers) {
      auto converted = convertObserver(observer);
      if (!converted) return Error{converted.error()};
    }
    for (ir::Node* node : weighted) {
      std::string why = convertWeighted(node);
      if (!why.empty()) {
        spdlog::debug("quant-convert: {}: weights left float: {}", node->name(), why);
        result_.add("weights left float");
      }
    }
    return result_;
  }

 private:
  bool skipped(const ir::Node& observer) const {
    return gm_.findModule(observer.target())->attribute("skip") != nullptr;
  }

  Expected<bool> convertObserver(ir::Node* observer) {
    std::string path = observer->target();
    ir::Module* m = gm_.findModule(path);
    ir::Node* input = observer->args().at(0).toNode();
    auto lo_t = m->tensor("min_val"), hi_t = m->tensor("max_val");
    if (skipped(*observer) || !lo_t || !hi_t) {
      if (!skipped(*observer) && (!lo_t || !hi_t))
        return Error{"observer " + path + " was not calibrated: run quant-calibrate first"};
      observer->replaceAllUsesWith(input);
      gm_.graph().eraseNode(observer);
      gm_.removeModule(path);
      result_.add("skipped");
      return true;
    }
    exec::QuantRange range{static_cast<int64_t>(m->numberAttribute("quant_min", -128)),
                           static_cast<int64_t>(m->numberAttribute("quant_max", 127))};
    bool symmetric = m->numberAttribute("symmetric", 1) != 0;
    exec::QuantParams p =
        exec::chooseParams(floatsOf(*lo_t).at(0), floatsOf(*hi_t).at(0), range, symmetric);
    ir::DType zp_type = range.min < 0 ? ir::DType::kInt8 : ir::DType::kUInt8;
    std::string base = gm_.freshPath(input->name() + "_scale");
    std::string scale_path = base, zp_path = gm_.freshPath(input->name() + "_zero_point");
    gm_.setTensor(scale_path, floatTensor({p.scale}, {}));
    gm_.setTensor(zp_path, intTensor({p.zero_point}, {}, zp_type));
    ir::Node* fq;
    {
      auto guard = gm_.graph().insertingBefore(observer);
      ir::Node* s = gm_.graph().getAttr(scale_path);
      ir::Node* z = gm_.graph().getAttr(zp_path);
      fq = gm_.graph().callFunction(
          kPerTensor, {input, s, z},
          {{"quant_min", ir::Argument(range.min)}, {"quant_max", ir::Argument(range.max)}});
    }
    fq->meta.dtype = observer->meta.dtype;
    fq->meta.shape = observer->meta.shape;
    observer->replaceAllUsesWith(fq);
    gm_.graph().eraseNode(observer);
    gm_.removeModule(path);
    activation_scale_[fq] = p.scale;
    result_.add("activations");
    return true;
  }

  // The node that gives the (fake-)quantized weight at `path`, inserted before `anchor`.
  ir::Node* quantizedWeight(const std::string& path, const ir::Tensor& w, int64_t axis,
                            ir::Node* anchor, std::vector<float>& scales) {
    std::vector<float> values = floatsOf(w);
    exec::Slices slices(w.dims, axis);
    int64_t count = slices.count();
    std::vector<float> amax(static_cast<size_t>(count), 0.0f);
    for (size_t k = 0; k < values.size(); ++k)
      amax[slices.of(k)] = std::max(amax[slices.of(k)], std::fabs(values[k]));
    std::vector<exec::QuantParams> params;
    scales.clear();
    for (float a : amax) {
      params.push_back(exec::chooseParams(-a, a, preset_.weight, true));
      scales.push_back(params.back().scale);
    }
    std::vector<int64_t> dims = axis < 0 ? std::vector<int64_t>{} : std::vector<int64_t>{count};
    std::string scale_path = gm_.freshPath(path + "_scale");
    gm_.setTensor(scale_path, floatTensor(scales, dims));
    std::string zp_path = gm_.freshPath(path + "_zero_point");
    gm_.setTensor(zp_path,
                  intTensor(std::vector<int64_t>(scales.size(), 0), dims, ir::DType::kInt8));
    auto guard = gm_.graph().insertingBefore(anchor);
    ir::Kwargs axis_kw;
    if (axis >= 0) axis_kw.emplace_back("axis", ir::Argument(axis));
    if (qat_) {
      ir::Node* source = gm_.graph().getAttr(path);
      ir::Node* s = gm_.graph().getAttr(scale_path);
      ir::Node* z = gm_.graph().getAttr(zp_path);
      ir::Kwargs kwargs = axis_kw;
      kwargs.emplace_back("quant_min", ir::Argument(preset_.weight.min));
      kwargs.emplace_back("quant_max", ir::Argument(preset_.weight.max));
      return gm_.graph().callFunction(axis < 0 ? kPerTensor : kPerChannel, {source, s, z},
                                      std::move(kwargs));
    }
    std::string q_path = gm_.freshPath(path + "_quantized");
    gm_.setTensor(q_path, intTensor(quantizeAlong(values, w.dims, axis, params, preset_.weight),
                                    w.dims, ir::DType::kInt8));
    ir::Node* q = gm_.graph().getAttr(q_path);
    ir::Node* s = gm_.graph().getAttr(scale_path);
    ir::Node* z = gm_.graph().getAttr(zp_path);
    return gm_.graph().callFunction("onnx.DequantizeLinear", {q, s, z}, std::move(axis_kw));
  }

  static bool allFinite(const ir::Tensor& w) {
    std::vector<float> values = floatsOf(w);
    return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
  }

  std::string convertWeighted(ir::Node* node) {
    std::string kind = quantKind(gm_, *node);
    if (kind == "MatMul") return convertMatMul(node);
    ir::Module* m = gm_.findModule(node->target());
    if (node->meta.source_ops > 1) return "the op is a group of ONNX ops";
    if (node->args().size() != 1) return "it takes more than one argument";
    auto w = m->tensor("weight");
    if (!w || floatsOf(*w).empty() || w->dims.size() < 2) return "no float weight";
    if (!allFinite(*w)) return "its weight is not finite (inf or NaN): no scale represents it";
    int64_t axis = 0;
    std::string target = "torch.nn.functional.conv2d";
    if (kind == "ConvTranspose") {
      axis = 1;
      target = "torch.nn.functional.conv_transpose2d";
    } else if (kind == "Gemm") {
      if (!onMatrix(*node)) return convertLinearAsMatMul(node, *m, *w);
      axis = m->numberAttribute("transB", 0) != 0 ? 0 : 1;
      target = "onnx.Gemm";
    }
    if (per_tensor_) axis = -1;
    // Output channel c's weight scale: per tensor, one; a convolution's weight is sliced by
    // output channel (axis 0); a transposed one [Cin, Cout/group, ...] along axis 1, so with
    // groups, channel c = g·(Cout/group) + j has the scale of slice j = c mod (Cout/group).
    if (auto b = m->tensor("bias"); b && axis >= 0) {
      size_t channels = static_cast<size_t>(b->numel());
      size_t slices = static_cast<size_t>(w->dims[static_cast<size_t>(axis)]);
      bool fits = kind == "ConvTranspose" ? slices > 0 && channels % slices == 0
                                          : channels == slices || kind == "Gemm";
      if (!fits)
        return "the bias has " + std::to_string(channels) + " channels for " +
               std::to_string(slices) + " weight scales";
    }
    std::vector<float> w_scales;
    ir::Node* w_node = quantizedWeight(node->target() + ".weight", *w, axis, node, w_scales);
    std::vector<ir::Argument> args = {node->args()[0], w_node};
    if (auto b = m->tensor("bias")) {
      std::vector<float> bias = floatsOf(*b);
      const ir::Node* input = node->args()[0].toNode();
      auto s_in = activation_scale_.find(input);
      auto guard = gm_.graph().insertingBefore(node);
      size_t slices = w_scales.size();
      if (preset_.bias_int32 && !qat_ && !bias.empty() && s_in != activation_scale_.end() &&
          kind != "Gemm") {
        // int32 at s_in·s_w[c], zero point 0: what integer convolution kernels add.
        std::vector<float> scales(bias.size());
        std::vector<int64_t> q(bias.size());
        for (size_t c = 0; c < bias.size(); ++c) {
          scales[c] = s_in->second * w_scales[c % slices];
          q[c] = exec::quantizeValue(bias[c], {scales[c], 0}, {INT32_MIN, INT32_MAX});
        }
        int64_t n = static_cast<int64_t>(bias.size());
        std::string base = node->target() + ".bias";
        std::string q_path = gm_.freshPath(base + "_quantized"),
                    s_path = gm_.freshPath(base + "_scale"),
                    z_path = gm_.freshPath(base + "_zero_point");
        gm_.setTensor(q_path, intTensor(q, {n}, ir::DType::kInt32));
        gm_.setTensor(s_path, floatTensor(scales, {n}));
        gm_.setTensor(z_path,
                      intTensor(std::vector<int64_t>(bias.size(), 0), {n}, ir::DType::kInt32));
        args.emplace_back(gm_.graph().callFunction(
            "onnx.DequantizeLinear",
            {gm_.graph().getAttr(q_path), gm_.graph().getAttr(s_path), gm_.graph().getAttr(z_path)},
            {{"axis", ir::Argument(int64_t{0})}}));
      } else {
        args.emplace_back(gm_.graph().getAttr(node->target() + ".bias"));
      }
    }
    ir::Node* functional;
    {
      auto guard = gm_.graph().insertingBefore(node);
      functional = gm_.graph().callFunction(target, std::move(args), m->attributes());
    }
    substitute(gm_, node, functional);
    result_.add("weights");
    return "";
  }

  // Whether a Linear's input and output are known to be matrices, as Gemm requires.
  static bool onMatrix(const ir::Node& node) {
    auto rank2 = [](const ir::Node& n) { return n.meta.shape && n.meta.shape->size() == 2; };
    return rank2(node) && node.args()[0].isNode() && rank2(*node.args()[0].toNode());
  }

  // A Linear on an input not known to be a matrix (a transformer's [batch, tokens, features]):
  // Gemm takes rank 2 only (written as one, the model was invalid: ONNX Runtime refuses it), so
  // its weight is quantized as MatMul's B, [in, out] per output channel along axis 1, and its
  // bias added after: the DQ → MatMul → Add that QDQ tools write for such a layer.
  std::string convertLinearAsMatMul(ir::Node* node, const ir::Module& m, const ir::Tensor& w) {
    if (m.numberAttribute("alpha", 1.0) != 1.0 || m.numberAttribute("beta", 1.0) != 1.0 ||
        m.numberAttribute("transA", 0) != 0)
      return "a Gemm with alpha, beta or transA on an input not known to be a matrix";
    if (w.dims.size() != 2) return "its weight is not a matrix";
    bool transposed = m.numberAttribute("transB", 0) != 0;
    int64_t out = transposed ? w.dims[0] : w.dims[1], in = transposed ? w.dims[1] : w.dims[0];
    auto bias = m.tensor("bias");
    if (bias && bias->numel() != out && bias->numel() != 1)
      return "its bias is not one value per output channel";
    std::string path = node->target() + ".weight";
    std::shared_ptr<ir::Tensor> b_matrix;
    if (transposed) {  // B = Wᵀ, stored as its own tensor
      std::vector<float> values = floatsOf(w), t(values.size());
      for (int64_t o = 0; o < out; ++o)
        for (int64_t i = 0; i < in; ++i)
          t[static_cast<size_t>(i * out + o)] = values[static_cast<size_t>(o * in + i)];
      path = gm_.freshPath(node->target() + ".weight_t");
      b_matrix = floatTensor(t, {in, out});
      gm_.setTensor(path, b_matrix);
    }
    std::vector<float> scales;
    ir::Node* w_node =
        quantizedWeight(path, b_matrix ? *b_matrix : w, per_tensor_ ? -1 : 1, node, scales);
    ir::Node* result;
    {
      auto guard = gm_.graph().insertingBefore(node);
      result = gm_.graph().callFunction("operator.matmul", {node->args()[0], w_node});
      if (bias)
        result = gm_.graph().callFunction("operator.add",
                                          {result, gm_.graph().getAttr(node->target() + ".bias")});
    }
    substitute(gm_, node, result);
    result_.add("weights");
    return "";
  }

  std::string convertMatMul(ir::Node* node) {
    if (node->args().size() != 2 || !node->args()[1].isNode()) return "not a MatMul of two values";
    ir::Node* weight = node->args()[1].toNode();
    if (weight->op() != ir::Opcode::kGetAttr) return "its second operand is not a constant";
    auto w = gm_.findTensor(weight->target());
    if (!w || floatsOf(*w).empty()) return "no float weight";
    if (!allFinite(*w)) return "its weight is not finite (inf or NaN): no scale represents it";
    std::vector<float> scales;
    ir::Node* q = quantizedWeight(weight->target(), *w, -1, node, scales);
    node->replaceInputWith(weight, q);
    if (weight->users().empty()) gm_.graph().eraseNode(weight);
    result_.add("weights");
    return "";
  }

  ir::GraphModule& gm_;
  const QuantPreset& preset_;
  bool per_tensor_, qat_;
  PassResult result_;
  std::unordered_map<const ir::Node*, float> activation_scale_;
};

// quant-fold-weights: constant weights behind a fake-quantize or a Q→DQ pair become int8 (or
// uint8) constants read by a DequantizeLinear.
Expected<PassResult> foldWeights(ir::GraphModule& gm, const Options&) {
  PassResult result;
  std::vector<ir::Node*> nodes;
  for (ir::Node* node : gm.graph()) nodes.push_back(node);
  auto constant = [&](const ir::Argument& arg) -> std::shared_ptr<ir::Tensor> {
    if (!arg.isNode() || arg.toNode()->op() != ir::Opcode::kGetAttr) return nullptr;
    return gm.findTensor(arg.toNode()->target());
  };
  for (ir::Node* node : nodes) {
    bool fake = node->target() == kPerTensor || node->target() == kPerChannel;
    bool quantize = node->target() == "onnx.QuantizeLinear";
    if (node->op() != ir::Opcode::kCallFunction || (!fake && !quantize)) continue;
    if (node->args().size() < 3) continue;
    auto w = constant(node->args()[0]), s = constant(node->args()[1]),
         z = constant(node->args()[2]);
    if (!w || !s || !z || floatsOf(*w).empty() || floatsOf(*s).empty()) continue;
    if (quantize &&
        (node->users().size() != 1 || node->users()[0]->target() != "onnx.DequantizeLinear"))
      continue;
    std::vector<float> scales = floatsOf(*s);
    exec::Value zp_value;
    try {
      zp_value = exec::fromTensor(*z);
    } catch (const exec::ExecError&) {
      continue;
    }
    if (zp_value.isFloat() || zp_value.i.size() != scales.size()) continue;
    // Only what the op itself would accept is folded (anything else runs, and fails, as
    // written): an integer axis inside the weight's rank with one scale per slice along it
    // (the passes fuzzer found scales past the axis's size read out of bounds), integer bounds.
    const ir::Argument* axis_kw = node->kwarg("axis");
    if (axis_kw && axis_kw->kind() != ir::Argument::Kind::kInt) continue;
    // 8-bit values only (an int16 weight folded into int8's range gave -0.128 for -3), and no
    // opset-21 attributes.
    if (quantize && ((z->dtype != ir::DType::kInt8 && z->dtype != ir::DType::kUInt8) ||
                     !plainQuantization(*node)))
      continue;
    int64_t rank = static_cast<int64_t>(w->dims.size());
    int64_t axis = scales.size() > 1 ? (axis_kw ? axis_kw->toInt() : (fake ? 0 : 1)) : -1;
    if (axis < 0 && scales.size() > 1) axis += rank;
    if (scales.size() > 1 &&
        (axis < 0 || axis >= rank ||
         w->dims[static_cast<size_t>(axis)] != static_cast<int64_t>(scales.size())))
      continue;
    exec::QuantRange range =
        z->dtype == ir::DType::kUInt8 ? exec::QuantRange{0, 255} : exec::QuantRange{-128, 127};
    if (fake) {
      const ir::Argument* lo = node->kwarg("quant_min");
      const ir::Argument* hi = node->kwarg("quant_max");
      if (lo && hi) {
        if (lo->kind() != ir::Argument::Kind::kInt || hi->kind() != ir::Argument::Kind::kInt ||
            lo->toInt() >= hi->toInt())
          continue;
        range = {lo->toInt(), hi->toInt()};
      }
    }
    std::vector<exec::QuantParams> params;
    for (size_t c = 0; c < scales.size(); ++c) params.push_back({scales[c], zp_value.i[c]});
    ir::Node* source = node->args()[0].toNode();
    std::string q_path = gm.freshPath(source->target() + "_quantized");
    gm.setTensor(q_path, intTensor(quantizeAlong(floatsOf(*w), w->dims, axis, params, range),
                                   w->dims, z->dtype));
    auto guard = gm.graph().insertingBefore(node);
    ir::Node* q = gm.graph().getAttr(q_path);
    if (quantize) {
      node->replaceAllUsesWith(q);
      gm.graph().eraseNode(node);
    } else {
      ir::Kwargs kwargs;
      if (axis >= 0) kwargs.emplace_back("axis", ir::Argument(axis));
      ir::Node* dq = gm.graph().callFunction(
          "onnx.DequantizeLinear", {q, node->args()[1], node->args()[2]}, std::move(kwargs));
      substitute(gm, node, dq);
    }
    if (source->users().empty()) gm.graph().eraseNode(source);
    result.add("weights folded");
  }
  return result;
}

Expected<bool> validateConvert(const Options& options) {
  if (!findPreset(options.get("preset")))
    return Error{"unknown preset '" + options.get("preset") + "' (presets: " + presetNames() + ")"};
  return true;
}

RegisterPass convert{
    {"quant-convert",
     "replaces calibrated observers by Q/DQ (fake-quantize) and quantizes the weights they feed",
     {{"preset", OptionKind::kString, "trt", "trt or ort-cpu"},
      {"per-tensor", OptionKind::kBool, "false", "one weight scale per tensor, not per channel"},
      {"qat", OptionKind::kBool, "false",
       "keep float weights behind fake-quantize (for training)"}},
     [](ir::GraphModule& gm, const Options& options) -> Expected<PassResult> {
       return Converter(gm, *findPreset(options.get("preset")), options.getBool("per-tensor"),
                        options.getBool("qat"))
           .run();
     },
     validateConvert}};

RegisterPass fold{{"quant-fold-weights",
                   "turns Q/DQ (or fake-quantize) on constant weights into int8 constants + "
                   "DequantizeLinear",
                   {},
                   foldWeights}};

}  // namespace
}  // namespace fxc::passes
