// quant-lower: a QDQ model's quantized convolutions become integer ops, as ONNX Runtime's QDQ
// transformer does, so that a backend runs them on int8 arithmetic:
//
//   %x = DequantizeLinear(%xq, %sx, %zx);  %w = DequantizeLinear(%wq, %sw, %zw)
//   %c = conv2d(%x, %w, %b);  [%r = clamp(%c)];  %y = QuantizeLinear(%c or %r, %sy, %zy)
//     ⇒  %y = QLinearConv(%xq, %sx, %zx, %wq, %sw, %zw, %sy, %zy, %bq)   [Max, Min]
//     (fxc.QLinearConvAct, QLinearConv's inputs, when %b is a float bias that is not an exact
//     int32 number of s_x·s_w[c]; a transposed convolution into fxc.QLinearConvTranspose)
//   %y = QuantizeLinear([clamp](DequantizeLinear(%a) + DequantizeLinear(%b)))
//     ⇒  %y = com.microsoft.QLinearAdd(%a, ..., %b, ..., %sy, %zy)   [Max, Min]
//     (and a product of two dequantized values into com.microsoft.QLinearMul)
//
//   %p = max_pool(%v);  %y = QuantizeLinear(%p, ...)  ⇒  %q = QuantizeLinear(%v, ...); max_pool(%q)
//     (and so for the ops that only move elements: flatten, reshape, permute, squeeze,
//     unsqueeze, cat — each of cat's operands gets its own Q)
//   %y = QuantizeLinear(DequantizeLinear(%q, s, z), s, z)  ⇒  %q
//   %y = QuantizeLinear(GlobalAveragePool(DequantizeLinear(%x, ...)), ...)
//     ⇒  com.microsoft.QLinearGlobalAveragePool(%x, ...)
//   %y = QuantizeLinear(act(conv2d(DQ(%x), DQ(%w), %b))) for act Hardswish, SiLU, Sigmoid, Tanh,
//     LeakyReLU, GELU, and ReLU or a two-sided clamp where saturation does not clip for it
//     ⇒  fxc.QLinearConvAct(%x, ..., %w, ..., %y_scale, %y_zp, %bq)
//   %y = QuantizeLinear(f(DequantizeLinear(%x, ...)), ...)  ⇒  fxc.QLinearLookup(%x, %table)
//     for an elementwise f (activations, BatchNorm, arithmetic with constants), the input a
//     DequantizeLinear or a concatenation of them (then made again on the 8-bit values)
//
// What each rewrite keeps, from the graph's own values:
// - QLinearConv: the weights are int8 constants with zero point 0, the scales and zero points
//   constants (one scale for the input and the output, one per tensor or per output channel for
//   the weight); the bias an int32 constant at s_x·s_w[c] (used as it is), or any other constant
//   bias kept in float and added to the accumulator's real value (fxc's ops: QLinearConv's bias
//   is int32). The integer run differs from the QDQ model's float run only in rounding: at
//   most one unit of the output's step, on values at a rounding tie. A transposed convolution
//   likewise: its weight [C_in, C_out / group, kh, kw], scales per tensor or (group 1) per
//   output channel, along axis 1.
// - QLinearAdd, QLinearMul: DQ(a) + DQ(b) (or DQ(a)·DQ(b)) quantized, in the same float
//   arithmetic as the QDQ ops, with the add's own numpy broadcasting: exact.
// - A clamping activation (ReLU, Hardtanh/ReLU6, torch.clamp with constant bounds) between the
//   float op and the Q: Q(clamp(v, lo, hi)) = clamp(Q(v), Q(lo), Q(hi)) for any monotone Q, so it
//   is dropped where saturation already clips there and becomes an integer Max/Min elsewhere
//   (exact); an integer clamp right after the Q (torch.onnx's reduced-range fake-quantize) joins
//   it. A convolution's ReLU or two-sided clamp that saturation does not give (a symmetric int8
//   output's ReLU: Q(0) = 0 > −128) is applied by the convolution instead (QLinearConvAct, with
//   activation ReLU or Hardtanh), in real units before its Q: one pass over the output, not two.
// - MaxPool commutes with any monotone map (a QuantizeLinear), and an op that only moves
//   elements (Flatten, Reshape, Transpose, Squeeze, Unsqueeze, Concat) with any elementwise one:
//   exact; the op then runs on 8-bit integers. A per-tensor Q only (one scale: a per-axis Q's
//   axis would move with the elements).
// - QuantizeLinear(DequantizeLinear(q)) with the same scale and zero point is q: (q − z)·s/s is
//   within an ulp of the integer q − z, which rounding restores. Exact.
// - QLinearGlobalAveragePool: the exact integer sum of each plane, its mean in double, then Q;
//   the QDQ graph's float mean of the dequantized values differs by their rounding alone: one
//   unit at most, at a rounding tie. Both quantized per tensor to one type.
// - QLinearConvAct: QLinearConv's integer accumulator, the activation on its real value, then Q:
//   what the QDQ graph computes but for float rounding (at most one unit, at a tie).
// - A lookup table: f maps each element alone (a listed elementwise op; BatchNorm in inference
//   mode), its constants vary along at most one axis, its ops are read by nothing but each other
//   and the Q: Q(f(DQ(x))) is then a function of x's 256 values, one table row per index along
//   that axis (a BatchNorm's channel). The table is computed here with the graph's own nodes —
//   the DQ (each concatenated operand's own), f's ops, the Q — on the reference kernels, run once
//   on every value of every row: the lookup gives what the QDQ graph does, bit for bit.
// Anything else stays as it was and runs as before.
#include <spdlog/spdlog.h>

#include <cmath>
#include <deque>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "exec/interpreter.h"
#include "exec/value.h"
#include "ir/module_kind.h"
#include "passes/fused_activation.h"
#include "passes/quant.h"

namespace fxc::passes {
namespace {

using ir::isCall;

ir::Node* nodeArg(const ir::Node* node, size_t k) {
  if (!node || k >= node->args().size() || !node->args()[k].isNode()) return nullptr;
  return const_cast<ir::Node*>(node->args()[k].toNode());
}

// A keyword argument, or nullptr.
const ir::Argument* kwarg(const ir::Node* node, const char* key) {
  for (const auto& [name, value] : node->kwargs()) {
    if (name == key) return &value;
  }
  return nullptr;
}

class Lowering {
 public:
  explicit Lowering(ir::GraphModule& gm) : gm_(gm) {}

  PassResult run() {
    // Innermost first: Q(flatten(max_pool(v))) moves twice.
    for (bool moved = true; moved;) {
      moved = false;
      for (ir::Node* q : nodesOf("onnx.QuantizeLinear")) {
        if (const char* what = swapQuantize(q)) {
          result_.add(what);
          moved = true;
        }
      }
    }
    for (ir::Node* q : nodesOf("onnx.QuantizeLinear")) {
      if (dropRoundTrip(q)) result_.add("requantize");
    }
    for (ir::Node* q : nodesOf("onnx.QuantizeLinear")) {
      std::string why, add_why;
      const char* binary = nullptr;
      if (lowerConv(q, why)) {
        result_.add("conv");
      } else if (why.empty() && lowerConvAdd(q, why)) {
        result_.add("conv add");
      } else if (why.empty() && (binary = lowerBinary(q, add_why))) {
        result_.add(binary);
      } else if (why.empty() && lowerGlobalAveragePool(q, why)) {
        result_.add("average pool");
      } else if (why.empty() && lowerLookup(q, why)) {
        result_.add("lookup");
      } else if (!why.empty() || !add_why.empty()) {
        // An add's or mul's refusal says more than the lookup's ("reads two quantized values").
        if (!add_why.empty()) why = add_why;
        spdlog::debug("quant-lower: {} stays in float: {}", q->name(), why);
        result_.add("refused");
      }
    }
    // A quantized convolution whose result stays float (no Q after it: the trt preset's
    // convolution before a residual add) runs on integers too, with a float result.
    for (ir::Node* conv : nodesOf("torch.nn.functional.conv2d")) {
      std::string why;
      // Not counted as refused: a Q after it, if any, was counted already.
      if (lowerConvToFloat(conv, why)) {
        result_.add("conv to float");
      } else if (!why.empty()) {
        spdlog::debug("quant-lower: {} stays in float: {}", conv->name(), why);
      }
    }
    // A quantized Gemm or MatMul whose result stays float (the classifier, a transformer's
    // Linear): ONNX Runtime's MatMulIntegerToFloat.
    std::vector<ir::Node*> products = nodesOf("onnx.Gemm");
    for (ir::Node* node : nodesOf("operator.matmul")) products.push_back(node);
    for (ir::Node* node : products) {
      std::string why;
      if (lowerMatmulToFloat(node, why)) {
        result_.add("matmul to float");
      } else if (!why.empty()) {
        spdlog::debug("quant-lower: {} stays in float: {}", node->name(), why);
        result_.add("refused");
      }
    }
    return result_;
  }

 private:
  std::vector<ir::Node*> nodesOf(const char* target) {
    std::vector<ir::Node*> out;
    for (ir::Node* node : gm_.graph()) {
      if (isCall(node, target)) out.push_back(node);
    }
    return out;
  }

  // The value of a constant argument (a get_attr), or nullopt.
  std::optional<exec::Value> constant(const ir::Node* node) {
    if (!node || node->op() != ir::Opcode::kGetAttr) return std::nullopt;
    auto tensor = gm_.findTensor(node->target());
    if (!tensor) return std::nullopt;
    try {
      return exec::fromTensor(*tensor);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }

  // A per-tensor (scale, zero point) pair of constants: a float scale of one element and an
  // int8/uint8 zero point of one element (required: ONNX's QLinearConv has no default).
  struct Scalar {
    ir::Node *scale_node, *zero_point_node;
    float scale;
    int64_t zero_point;
    ir::DType dtype;
  };
  std::optional<Scalar> scalarParams(const ir::Node* node, size_t scale_arg) {
    if (!plainQuantization(*node)) return std::nullopt;
    ir::Node *s = nodeArg(node, scale_arg), *z = nodeArg(node, scale_arg + 1);
    auto scale = constant(s);
    auto zero_point = constant(z);
    if (!scale || !zero_point || !scale->isFloat() || scale->numel() != 1 ||
        zero_point->numel() != 1 ||
        (zero_point->dtype != ir::DType::kInt8 && zero_point->dtype != ir::DType::kUInt8) ||
        !(scale->f[0] > 0) || !std::isfinite(scale->f[0]))
      return std::nullopt;
    return Scalar{s, z, scale->f[0], zero_point->i[0], zero_point->dtype};
  }

  bool isMaxPool(const ir::Node* node) {
    if (isCall(node, "torch.nn.functional.max_pool2d")) return true;
    if (!node || node->op() != ir::Opcode::kCallModule) return false;
    const ir::Module* module = gm_.findModule(node->target());
    return module && module->type() == "MaxPool2d";
  }

  // The bounds of a clamping activation between a float op and its Q: ReLU (0, ∞), Hardtanh
  // (ReLU6: its module's min/max), torch.clamp with constant bounds. nullopt for anything else.
  std::optional<std::pair<float, float>> clampBounds(const ir::Node* node) {
    if (!node) return std::nullopt;
    if (isCall(node, "torch.relu")) return std::pair{0.0f, INFINITY};
    const ir::Module* module =
        node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
    if (module && module->type() == "ReLU") return std::pair{0.0f, INFINITY};
    float lo = -INFINITY, hi = INFINITY;
    auto bound = [&](std::optional<exec::Value> v, float& out) {
      if (!v || !v->isFloat() || v->numel() != 1) return false;
      out = v->f[0];
      return true;
    };
    if (module && module->type() == "Hardtanh") {
      lo = static_cast<float>(module->numberAttribute("min", -INFINITY));
      hi = static_cast<float>(module->numberAttribute("max", INFINITY));
      for (const char* name : {"min", "max"}) {
        auto tensor = module->tensor(name);
        if (tensor && !bound(exec::fromTensor(*tensor), name[1] == 'i' ? lo : hi))
          return std::nullopt;
      }
      if (node->args().size() != 1) return std::nullopt;
    } else if (isCall(node, "torch.clamp") && node->kwargs().empty()) {
      for (size_t k = 1; k < node->args().size(); ++k) {
        if (node->args()[k].isNone()) continue;
        if (!bound(constant(nodeArg(node, k)), k == 1 ? lo : hi)) return std::nullopt;
      }
    } else {
      return std::nullopt;
    }
    if (std::isnan(lo) || std::isnan(hi) || lo > hi) return std::nullopt;
    return std::pair{lo, hi};
  }

  // Erases `node` and, recursively, the inputs it leaves without users.
  void eraseDead(ir::Node* node) {
    if (!node->users().empty() || node->op() == ir::Opcode::kPlaceholder ||
        node->op() == ir::Opcode::kOutput)
      return;
    std::vector<ir::Node*> inputs = node->inputNodes();
    gm_.graph().eraseNode(node);
    for (ir::Node* input : inputs) {
      if (input->op() == ir::Opcode::kGetAttr || isCall(input, "onnx.DequantizeLinear"))
        eraseDead(input);
    }
  }

  // The arguments of `node` that hold the elements it moves or selects, when a per-tensor Q
  // commutes with it (the others are shapes, axes); empty when it does not.
  std::vector<size_t> elementArgs(const ir::Node* node) {
    if (!node || node->args().empty()) return {};
    if (isMaxPool(node))
      return node->args().size() == 1 ? std::vector<size_t>{0} : std::vector<size_t>{};
    if (node->op() == ir::Opcode::kCallModule) {
      const ir::Module* module = gm_.findModule(node->target());
      bool flatten = module && module->type() == "Flatten" && module->tensors().empty();
      return flatten && node->args().size() == 1 ? std::vector<size_t>{0} : std::vector<size_t>{};
    }
    for (const char* target :
         {"torch.flatten", "torch.reshape", "torch.permute", "torch.squeeze", "torch.unsqueeze"}) {
      if (isCall(node, target)) return {0};
    }
    if (isCall(node, "torch.cat")) {
      std::vector<size_t> all(node->args().size());
      for (size_t k = 0; k < all.size(); ++k) all[k] = k;
      return all;
    }
    return {};
  }

  // Q(op(v…)) ⇒ op(Q(v)…) when `op` commutes with Q (elementArgs) and the Q is its only user: the
  // op then moves 8-bit integers. Returns what moved ("max-pool", "data movement"), or nullptr.
  const char* swapQuantize(ir::Node* q) {
    ir::Node* op = nodeArg(q, 0);
    std::vector<size_t> moved_args = elementArgs(op);
    if (moved_args.empty() || op->users().size() != 1 || !scalarParams(q, 1)) return nullptr;
    for (size_t k : moved_args) {
      if (!op->args()[k].isNode()) return nullptr;
    }
    // The Q's scale and zero point may be defined between the op and the Q: they move up before
    // the op (a get_attr reads nothing; moving it earlier keeps every use after it).
    std::vector<ir::Node*> params;  // the Q's arguments after the op, in graph order
    for (ir::Node* n = op->next(); n != q; n = n->next()) {
      bool param = false;
      for (size_t k = 1; k < q->args().size(); ++k) param = param || nodeArg(q, k) == n;
      if (!param) continue;
      if (n->op() != ir::Opcode::kGetAttr) return nullptr;  // computed: left as it is
      params.push_back(n);
    }
    for (ir::Node* n : params) gm_.graph().moveBefore(n, op);
    std::vector<ir::Argument> op_args = op->args();
    for (size_t k : moved_args) {
      std::vector<ir::Argument> args = q->args();
      args[0] = op_args[k];
      ir::Node* quantized;
      {
        auto guard = gm_.graph().insertingBefore(op);
        quantized = gm_.graph().callFunction("onnx.QuantizeLinear", std::move(args), q->kwargs());
      }
      quantized->meta.dtype = q->meta.dtype;
      quantized->meta.shape = op_args[k].toNode()->meta.shape;
      op_args[k] = ir::Argument(quantized);
    }
    op->setArgs(std::move(op_args));
    op->meta.dtype = q->meta.dtype;
    ir::takeOverValue(*op, *q);
    q->replaceAllUsesWith(op);
    gm_.graph().eraseNode(q);
    return isMaxPool(op) ? "max-pool" : "data movement";
  }

  // Q(DQ(q, s, z), s, z) ⇒ q (8-bit: scalarParams): (q − z)·s, |q − z| ≤ 255, is exact enough in
  // float32 to round back to q − z when s is a normal float and (q − z)·s stays finite (s = 10^37
  // and q − z = 100 make an infinity, which Q saturates to 127).
  bool dropRoundTrip(ir::Node* q) {
    ir::Node* dq = (nodeArg(q, 0));
    if (!isCall(dq, "onnx.DequantizeLinear") || !nodeArg(dq, 0)) return false;
    auto in = scalarParams(dq, 1), out = scalarParams(q, 1);
    if (!in || !out || in->scale != out->scale || in->zero_point != out->zero_point ||
        in->dtype != out->dtype)
      return false;
    if (!(in->scale >= std::numeric_limits<float>::min()) ||
        !(static_cast<double>(in->scale) * 256.0 < std::numeric_limits<float>::max()))
      return false;
    ir::Node* source = (nodeArg(dq, 0));
    q->replaceAllUsesWith(source);
    gm_.graph().eraseNode(q);
    eraseDead(dq);
    return true;
  }

  // The bias of an integer convolution. The int32 constant at s_x·s_w[c] when its
  // DequantizeLinear has exactly that scale and zero point 0 (ONNX Runtime's layout), or when the
  // float bias is an exact integer number of those units (zeros): ONNX's QLinearConv takes it.
  // Any other constant bias stays the float the QDQ graph adds (a float constant as it is, a
  // DequantizeLinear of constants evaluated into one), which fxc's integer convolutions add to
  // the accumulator's real value: rounded to int32 units it would be off by up to half a unit of
  // the accumulator, and on the `trt` preset's resnet18 that moved the integer run further from
  // the QDQ model computed in float64 than fxc's float32 run of it (38.4 against 40.1 dB).
  // `integer` says which. nullptr with `why` set when the bias is not a constant of one value per
  // channel.
  ir::Node* convolutionBias(ir::Node* bias, float sx, const std::vector<float>& sw,
                            int64_t channels, ir::Node* before, bool& integer, std::string& why) {
    std::vector<double> units(static_cast<size_t>(channels));
    for (size_t c = 0; c < units.size(); ++c)
      units[c] = static_cast<double>(sx * sw[sw.size() == 1 ? 0 : c]);  // s_x·s_w[c] in float
    std::vector<float> real;
    if (isCall(bias, "onnx.DequantizeLinear")) {
      auto q = constant(nodeArg(bias, 0));
      auto s = constant(nodeArg(bias, 1));
      auto z = bias->args().size() > 2 ? constant(nodeArg(bias, 2)) : std::optional<exec::Value>();
      if (!q || !s || q->dtype != ir::DType::kInt32 || q->numel() != channels || !s->isFloat() ||
          (s->numel() != 1 && s->numel() != channels) || (bias->args().size() > 2 && !z)) {
        why = "the bias is not a constant int32 tensor of one element per channel";
        return nullptr;
      }
      bool zero = !z || std::all_of(z->i.begin(), z->i.end(), [](int64_t v) { return v == 0; });
      bool same = zero && (!z || !z->isFloat());
      for (size_t c = 0; c < units.size() && same; ++c)
        same = static_cast<double>(s->f[s->numel() == 1 ? 0 : c]) == units[c];
      integer = true;
      if (same) return (nodeArg(bias, 0));
      for (size_t c = 0; c < units.size(); ++c)
        real.push_back(exec::dequantizeValue(
            q->i[c],
            {s->f[s->numel() == 1 ? 0 : c], z && !z->isFloat() ? z->i[c % z->i.size()] : 0}));
    } else {
      auto b = constant(bias);
      if (!b || !b->isFloat() || b->numel() != channels) {
        why = "the bias is not a constant of one float per channel";
        return nullptr;
      }
      real = b->f;
    }
    std::vector<int64_t> q(real.size());
    bool exact = true;
    for (size_t c = 0; c < real.size(); ++c) {
      // Within int32 in those units either way (a NaN, an infinity or a huge bias: refused).
      double v = std::nearbyint(static_cast<double>(real[c]) / units[c]);
      if (!(std::fabs(v) < 2147483647.0)) {
        why = "the bias does not fit int32 in units of the input and weight scales";
        return nullptr;
      }
      exact = exact && v * units[c] == static_cast<double>(real[c]);
      q[c] = static_cast<int64_t>(v);
    }
    integer = exact;
    if (!exact && !isCall(bias, "onnx.DequantizeLinear")) return bias;  // the float constant
    std::string path = gm_.freshPath(bias->name() + (exact ? "_int32" : "_float"));
    gm_.setTensor(
        path, exact ? intTensor(q, {channels}, ir::DType::kInt32) : floatTensor(real, {channels}));
    auto guard = gm_.graph().insertingBefore(before);
    ir::Node* node = gm_.graph().getAttr(path);
    node->meta.dtype = exact ? "int32" : "float32";
    node->meta.shape = std::vector<std::string>{std::to_string(channels)};
    return node;
  }

  // The integer operands of conv2d(DQ(x), DQ(w), ...): x per tensor with constants, w an int8
  // constant with zero point 0 and one scale per tensor or per output channel, attributes the
  // convolution's own. nullopt with `why` set (empty: not a dequantized convolution at all).
  struct QuantizedConv {
    ir::Node *dx, *dw;
    Scalar x;
    std::vector<float> w_scales;
    int64_t channels;
  };
  // A transposed convolution's weight is [C_in, C_out / group, kh, kw]: its output channels
  // are along axis 1, and per-channel scales (one per output channel) need group 1.
  std::optional<QuantizedConv> quantizedOperands(ir::Node* conv, std::string& why) {
    bool transposed = isCall(conv, "torch.nn.functional.conv_transpose2d");
    ir::Node* dx = nodeArg(conv, 0);
    ir::Node* dw = nodeArg(conv, 1);
    if (!isCall(dx, "onnx.DequantizeLinear") || !isCall(dw, "onnx.DequantizeLinear"))
      return (why = "the convolution's input or weight is not dequantized"), std::nullopt;
    int64_t group = 1;
    for (const auto& [key, arg] : conv->kwargs()) {
      bool same_padding = key == "auto_pad" && arg.kind() == ir::Argument::Kind::kString &&
                          arg.toString().compare(0, 5, "SAME_") == 0;
      if (key == "group" && arg.kind() == ir::Argument::Kind::kInt) group = arg.toInt();
      if ((key != "dilations" && key != "group" && key != "kernel_shape" && key != "pads" &&
           key != "strides" && key != "auto_pad" && !(transposed && key == "output_padding")) ||
          (transposed && same_padding))
        return (why = "the convolution has attribute " + key), std::nullopt;
    }
    auto x = scalarParams(dx, 1);
    if (!x || !nodeArg(dx, 0))
      return (why = "the input is not quantized per tensor with constants"), std::nullopt;
    auto w = constant(nodeArg(dw, 0));
    auto sw = constant(nodeArg(dw, 1));
    auto zw = dw->args().size() > 2 ? constant(nodeArg(dw, 2)) : std::optional<exec::Value>();
    if (!w || w->dtype != ir::DType::kInt8 || w->shape.size() != 4 || !sw || !sw->isFloat() ||
        !zw || zw->isFloat() || zw->numel() != sw->numel() || !plainQuantization(*dw) ||
        std::any_of(zw->i.begin(), zw->i.end(), [](int64_t z) { return z != 0; }))
      return (why = "the weight is not an int8 constant with zero point 0"), std::nullopt;
    int64_t channels = transposed ? w->shape[1] * group : w->shape[0];
    int64_t axis = 1;
    if (const ir::Argument* a = kwarg(dw, "axis")) {
      if (a->kind() != ir::Argument::Kind::kInt)
        return (why = "the weight's axis is not an integer"), std::nullopt;
      axis = a->toInt();
    }
    if (sw->numel() != 1 &&
        (sw->numel() != channels || axis != (transposed ? 1 : 0) || (transposed && group != 1)))
      return (why = "the weight's scales are not per tensor or per output channel"), std::nullopt;
    for (float s : sw->f) {
      if (!(s > 0) || !std::isfinite(s))
        return (why = "a weight scale is not positive"), std::nullopt;
    }
    return QuantizedConv{dx, dw, *x, sw->f, channels};
  }

  // An activation that a quantized convolution applies before its Q (fxc.QLinearConvAct): its
  // kwargs there (`activation`, the module type, and its parameters as activation_*). No clamp:
  // those are exact integer bounds (replaceQuantize).
  std::optional<ir::Kwargs> fusableActivation(const ir::Node* node) {
    if (!node || node->args().size() != 1) return std::nullopt;
    std::string type;
    const ir::Kwargs* attributes = &node->kwargs();
    if (node->op() == ir::Opcode::kCallModule) {
      const ir::Module* module = gm_.findModule(node->target());
      if (!module) return std::nullopt;
      type = module->type();
      attributes = &module->attributes();
      // A GELU recognized from its ops keeps the constants it was proven with; its kernel
      // computes from `approximate` alone.
      if (!module->tensors().empty() && type != "GELU") return std::nullopt;
    } else if (node->op() == ir::Opcode::kCallFunction) {
      for (const auto& [target, module_type] : fusedFunctions(true)) {
        if (node->target() == target) type = module_type;
      }
    }
    std::vector<std::string> types = fusedActivations(true);
    if (type == "Hardtanh" || type == "ReLU" ||
        std::find(types.begin(), types.end(), type) == types.end())
      return std::nullopt;
    ir::Kwargs kwargs = {{"activation", ir::Argument(type)}};
    for (const auto& [key, value] : *attributes) {
      if (!carriedAttribute(type, key, value.kind())) return std::nullopt;
      kwargs.emplace_back("activation_" + key, value);
    }
    return kwargs;
  }

  bool lowerConv(ir::Node* q, std::string& why) {
    auto [activation, conv] = activationAndValue(q);
    // Q(act(conv(...))) with an activation the convolution applies: fxc.QLinearConvAct.
    ir::Node* act = nodeArg(q, 0);
    std::optional<ir::Kwargs> fused;
    if (!isCall(conv, "torch.nn.functional.conv2d") && act && act->users().size() == 1 &&
        isCall(nodeArg(act, 0), "torch.nn.functional.conv2d") && (fused = fusableActivation(act))) {
      conv = nodeArg(act, 0);
      activation = Activation{};
    }
    bool transposed = !fused && isCall(conv, "torch.nn.functional.conv_transpose2d");
    if (!isCall(conv, "torch.nn.functional.conv2d") && !transposed)
      return false;  // not a convolution's Q
    if (conv->users().size() != 1) return (why = "the convolution has other users"), false;
    auto operands = quantizedOperands(conv, why);
    if (!operands) return false;
    auto y = scalarParams(q, 1);
    if (!y) return (why = "the output is not quantized per tensor with constants"), false;
    auto [dx, dw, x, w_scales, channels] = *operands;
    // A ReLU or a two-sided clamp whose Q(lo), Q(hi) saturation does not give (a symmetric
    // int8 output's ReLU) is applied by the convolution too, in real units, instead of as an
    // integer Max/Min pass over its result: Q(clamp(v)) either way.
    if (!fused && !transposed && activation.node) {
      exec::QuantRange range =
          y->dtype == ir::DType::kUInt8 ? exec::QuantRange{0, 255} : exec::QuantRange{-128, 127};
      bool relu = activation.lo == 0.0f && activation.hi == INFINITY;
      bool two_sided = std::isfinite(activation.lo) && std::isfinite(activation.hi);
      bool bounded =
          exec::quantizeValue(activation.lo, {y->scale, y->zero_point}, range) > range.min ||
          (activation.hi < INFINITY &&
           exec::quantizeValue(activation.hi, {y->scale, y->zero_point}, range) < range.max);
      if (bounded && (relu || two_sided)) {
        fused = relu ? ir::Kwargs{{"activation", ir::Argument(std::string("ReLU"))}}
                     : ir::Kwargs{{"activation", ir::Argument(std::string("Hardtanh"))},
                                  {"activation_min", ir::Argument(double{activation.lo})},
                                  {"activation_max", ir::Argument(double{activation.hi})}};
        act = activation.node;
        activation = Activation{};
      }
    }
    std::vector<ir::Argument> args = {nodeArg(dx, 0), x.scale_node,      x.zero_point_node,
                                      nodeArg(dw, 0), nodeArg(dw, 1),    nodeArg(dw, 2),
                                      y->scale_node,  y->zero_point_node};
    bool integer_bias = true;  // QLinearConv's int32 bias, or none
    if (conv->args().size() > 2 && !conv->args()[2].isNone()) {
      ir::Node* bias =
          convolutionBias(nodeArg(conv, 2), x.scale, w_scales, channels, q, integer_bias, why);
      if (!bias) return false;
      args.emplace_back(bias);
    }
    ir::Kwargs kwargs = conv->kwargs();
    if (fused) kwargs.insert(kwargs.end(), fused->begin(), fused->end());
    // A float bias: fxc's op (QLinearConv's bias is int32).
    const char* target = fused || (!integer_bias && !transposed) ? "fxc.QLinearConvAct"
                         : transposed                            ? "fxc.QLinearConvTranspose"
                                                                 : "onnx.QLinearConv";
    replaceQuantize(q, activation, target, std::move(args), std::move(kwargs), *y);
    if (fused) {
      std::vector<ir::Node*> inputs = act->inputNodes();
      gm_.graph().eraseNode(act);
      for (ir::Node* input : inputs) {
        if (input->op() == ir::Opcode::kGetAttr) eraseDead(input);  // torch.clamp's bounds
      }
    }
    eraseDead(conv);
    return true;
  }

  // Whether the node's shape is known in every dimension (a symbol equals only itself).
  static bool knownShape(const ir::Node* node) {
    return node->meta.shape && std::none_of(node->meta.shape->begin(), node->meta.shape->end(),
                                            [](const std::string& d) { return d.empty(); });
  }

  // Q([clamp](conv2d(DQ(x), DQ(w), b) + DQ(z))), the convolution and the add read by nothing
  // else, z of the convolution's (known) shape quantized per tensor with constants: the `trt`
  // preset's residual block, whose add the convolution's float result keeps from QLinearAdd ⇒
  // fxc.QLinearConvAct(x, .., w, .., s_y, z_y, b, z, s_z, z_z[, activation ReLU or Hardtanh]):
  // the sum of DQ(z) in real units, the clamp, then Q. The bias any constant (convolutionBias).
  bool lowerConvAdd(ir::Node* q, std::string& why) {
    auto [activation, sum] = activationAndValue(q);
    if (!isCall(sum, "operator.add") || sum->args().size() != 2 || !sum->kwargs().empty())
      return false;
    ir::Node* conv = nodeArg(sum, 0);
    ir::Node* dz = nodeArg(sum, 1);
    if (!isCall(conv, "torch.nn.functional.conv2d")) std::swap(conv, dz);
    if (!isCall(conv, "torch.nn.functional.conv2d") || !isCall(dz, "onnx.DequantizeLinear") ||
        conv == dz)
      return false;
    if (!isCall(nodeArg(conv, 0), "onnx.DequantizeLinear")) return false;  // a float model's
    if (conv->users().size() != 1 || sum->users().size() != 1)
      return (why = "the convolution or its add has other users"), false;
    bool relu = activation.lo == 0.0f && activation.hi == INFINITY;
    if (activation.node && !relu && !(std::isfinite(activation.lo) && std::isfinite(activation.hi)))
      return (why = "the clamp after the add is one-sided"), false;
    // The add must not broadcast: both operands of the convolution's shape, known.
    if (!knownShape(conv) || !dz->meta.shape || *dz->meta.shape != *conv->meta.shape ||
        sum->meta.shape != conv->meta.shape)
      return (why = "the add's operands are not both of the convolution's known shape"), false;
    auto z = scalarParams(dz, 1);
    if (!z || !nodeArg(dz, 0))
      return (why = "the addend is not quantized per tensor with constants"), false;
    auto operands = quantizedOperands(conv, why);
    if (!operands) return false;
    auto y = scalarParams(q, 1);
    if (!y) return (why = "the output is not quantized per tensor with constants"), false;
    auto [dx, dw, x, w_scales, channels] = *operands;
    ir::Argument bias;
    if (conv->args().size() > 2 && !conv->args()[2].isNone()) {
      bool integer = true;
      ir::Node* node =
          convolutionBias(nodeArg(conv, 2), x.scale, w_scales, channels, q, integer, why);
      if (!node) return false;
      bias = ir::Argument(node);
    }
    std::vector<ir::Argument> args = {nodeArg(dx, 0), x.scale_node,       x.zero_point_node,
                                      nodeArg(dw, 0), nodeArg(dw, 1),     nodeArg(dw, 2),
                                      y->scale_node,  y->zero_point_node, bias,
                                      nodeArg(dz, 0), z->scale_node,      z->zero_point_node};
    ir::Kwargs kwargs = conv->kwargs();
    if (activation.node && relu) {
      kwargs.emplace_back("activation", ir::Argument(std::string("ReLU")));
    } else if (activation.node) {
      kwargs.emplace_back("activation", ir::Argument(std::string("Hardtanh")));
      kwargs.emplace_back("activation_min", ir::Argument(double{activation.lo}));
      kwargs.emplace_back("activation_max", ir::Argument(double{activation.hi}));
    }
    ir::Node* clamp = activation.node;
    replaceQuantize(q, Activation{}, "fxc.QLinearConvAct", std::move(args), std::move(kwargs), *y);
    // The clamp, the add and the convolution, in that order, then the DQs and constants only
    // they read.
    for (ir::Node* node : {clamp, sum, conv}) {
      if (node) eraseDead(node);
    }
    return true;
  }

  // conv2d(DQ(x), DQ(w), b) left float ⇒ fxc.QLinearConvToFloat(x, .., w, .., b), with the add
  // of a float value of the same shape that only it feeds (Z, oneDNN's sum post-op) and a ReLU
  // after that (or after the convolution) that only it feeds. The bias must be a float constant
  // (kept as it is: the result is float). What the node computes is the QDQ graph's float
  // arithmetic but for its rounding: the integer accumulator is exact.
  bool lowerConvToFloat(ir::Node* conv, std::string& why) {
    // A float model's convolutions are not candidates: nothing to say about them.
    if (!isCall(nodeArg(conv, 0), "onnx.DequantizeLinear") ||
        !isCall(nodeArg(conv, 1), "onnx.DequantizeLinear"))
      return false;
    auto operands = quantizedOperands(conv, why);
    if (!operands) return false;
    auto [dx, dw, x, w_scales, channels] = *operands;
    ir::Node* bias = nullptr;
    std::optional<exec::Value> computed_bias;  // a DequantizeLinear of constants, evaluated
    if (conv->args().size() > 2 && !conv->args()[2].isNone()) {
      bias = nodeArg(conv, 2);
      auto b = constant(bias);
      if (!b && isCall(bias, "onnx.DequantizeLinear")) {
        std::vector<std::optional<exec::Value>> held;
        for (size_t k = 0; k < bias->args().size(); ++k) held.push_back(constant(nodeArg(bias, k)));
        std::vector<const exec::Value*> inputs;
        for (const auto& value : held) inputs.push_back(value ? &*value : nullptr);
        std::string ignored;  // the refusal below says it
        if (std::all_of(held.begin(), held.end(), [](const auto& v) { return v.has_value(); }))
          b = computed_bias = evaluate(bias, std::move(inputs), ignored);
      }
      if (!b || !b->isFloat() || b->numel() != channels)
        return (why = "the bias is not a constant of one float per channel"), false;
    }
    // The addend must have the convolution's shape: both known, dimension by dimension (a
    // symbol equals only itself), so the add does not broadcast.
    bool known = knownShape(conv);
    std::vector<ir::Node*> fused = {conv};
    ir::Argument addend = ir::Argument();
    auto only_user = [](ir::Node* node) {
      return node->users().size() == 1 ? node->users()[0] : nullptr;
    };
    ir::Node* next = only_user(conv);
    if (isCall(next, "operator.add") && next->args().size() == 2 && next->kwargs().empty()) {
      size_t other = nodeArg(next, 0) == conv ? 1 : 0;
      ir::Node* z = nodeArg(next, other);
      if (known && nodeArg(next, 1 - other) == conv && z && z != conv && z->meta.shape &&
          *z->meta.shape == *conv->meta.shape && z->meta.dtype == std::string("float32") &&
          next->meta.shape == conv->meta.shape) {
        addend = ir::Argument(z);
        fused.push_back(next);
        next = only_user(next);
      }
    }
    bool relu = false;
    if (next && clampBounds(next) == std::pair{0.0f, INFINITY} &&
        nodeArg(next, 0) == fused.back()) {
      relu = true;
      fused.push_back(next);
    }
    if (computed_bias) {
      std::string path = gm_.freshPath(bias->name() + "_float");
      gm_.setTensor(path, floatTensor(computed_bias->f, {channels}));
      ir::Node* dequantized = bias;
      auto guard = gm_.graph().insertingBefore(conv);
      bias = gm_.graph().getAttr(path);
      bias->meta.dtype = "float32";
      bias->meta.shape = std::vector<std::string>{std::to_string(channels)};
      conv->replaceInputWith(dequantized, bias);
      eraseDead(dequantized);
    }
    std::vector<ir::Argument> args = {nodeArg(dx, 0), x.scale_node,   x.zero_point_node,
                                      nodeArg(dw, 0), nodeArg(dw, 1), nodeArg(dw, 2)};
    if (bias || !addend.isNone()) args.emplace_back(bias ? ir::Argument(bias) : ir::Argument());
    if (!addend.isNone()) args.push_back(addend);
    ir::Kwargs kwargs = conv->kwargs();
    if (relu) kwargs.emplace_back("activation", ir::Argument(std::string("Relu")));
    ir::Node* last = fused.back();
    ir::Node* made;
    {
      auto guard = gm_.graph().insertingBefore(last);
      made = gm_.graph().callFunction("fxc.QLinearConvToFloat", std::move(args), std::move(kwargs));
    }
    made->meta.dtype = last->meta.dtype;
    made->meta.shape = last->meta.shape;
    ir::takeOverValue(*made, *last);
    last->replaceAllUsesWith(made);
    for (auto it = fused.rbegin(); it != fused.rend(); ++it) gm_.graph().eraseNode(*it);
    eraseDead(dx);
    eraseDead(dw);
    return true;
  }

  // Gemm(DQ(x), DQ(w), c) (α = β = 1, A not transposed) or DQ(x) @ DQ(w) [+ c] with w a 2-D int8
  // constant, zero point 0, one scale or one per output column, c a float constant of one
  // element per column ⇒ com.microsoft.MatMulIntegerToFloat(x, w as [K, N], s_x, s_w, z_x, z_w,
  // c). A transposed weight (transB) becomes a new [K, N] constant. The add of the bias after a
  // MatMul joins it when the MatMul has no other user.
  bool lowerMatmulToFloat(ir::Node* node, std::string& why) {
    bool gemm = isCall(node, "onnx.Gemm");
    ir::Node* dx = nodeArg(node, 0);
    ir::Node* dw = nodeArg(node, 1);
    if (!isCall(dx, "onnx.DequantizeLinear") || !isCall(dw, "onnx.DequantizeLinear")) return false;
    bool trans_b = false;
    if (gemm) {
      for (const auto& [key, arg] : node->kwargs()) {
        bool one = arg.kind() == ir::Argument::Kind::kFloat ? arg.toFloat() == 1.0
                   : arg.kind() == ir::Argument::Kind::kInt ? arg.toInt() == 1
                                                            : false;
        if ((key == "alpha" || key == "beta") && one) continue;
        if (key == "transA" && arg.kind() == ir::Argument::Kind::kInt && arg.toInt() == 0) continue;
        if (key == "transB" && arg.kind() == ir::Argument::Kind::kInt) {
          trans_b = arg.toInt() != 0;
          continue;
        }
        return (why = "the Gemm has " + key + " other than 1 (alpha, beta) or 0 (transA)"), false;
      }
    } else if (node->args().size() != 2 || !node->kwargs().empty()) {
      return false;
    }
    auto x = scalarParams(dx, 1);
    if (!x || !nodeArg(dx, 0))
      return (why = "the input is not quantized per tensor with constants"), false;
    auto w = constant(nodeArg(dw, 0));
    auto sw = constant(nodeArg(dw, 1));
    auto zw = dw->args().size() > 2 ? constant(nodeArg(dw, 2)) : std::optional<exec::Value>();
    if (!w || w->dtype != ir::DType::kInt8 || w->shape.size() != 2 || !sw || !sw->isFloat() ||
        !plainQuantization(*dw) ||
        (zw && (zw->isFloat() || zw->numel() != sw->numel() ||
                std::any_of(zw->i.begin(), zw->i.end(), [](int64_t z) { return z != 0; }))))
      return (why = "the weight is not a 2-D int8 constant with zero point 0"), false;
    int64_t k = w->shape[trans_b ? 1 : 0], n = w->shape[trans_b ? 0 : 1];
    int64_t axis = 1;
    if (const ir::Argument* a = kwarg(dw, "axis")) {
      if (a->kind() != ir::Argument::Kind::kInt)
        return (why = "the weight's axis is not an integer"), false;
      axis = a->toInt();
    }
    if (axis < 0) axis += 2;
    if (sw->numel() != 1 && (sw->numel() != n || axis != (trans_b ? 0 : 1)))
      return (why = "the weight's scales are not per tensor or per output column"), false;
    for (float s : sw->f) {
      if (!(s > 0) || !std::isfinite(s)) return (why = "a weight scale is not positive"), false;
    }
    auto is_bias = [&](ir::Node* c) {
      auto b = constant(c);
      return b && b->isFloat() && b->numel() == n &&
             (b->shape.size() == 1 || (b->shape.size() == 2 && b->shape[0] == 1));
    };
    ir::Node* bias = nullptr;
    ir::Node* last = node;
    if (gemm && node->args().size() > 2 && !node->args()[2].isNone()) {
      bias = nodeArg(node, 2);
      if (!is_bias(bias)) return (why = "the Gemm's C is not a float constant per column"), false;
    } else if (!gemm && node->users().size() == 1) {
      ir::Node* add = node->users()[0];
      if (isCall(add, "operator.add") && add->args().size() == 2 && add->kwargs().empty()) {
        ir::Node* c = nodeArg(add, nodeArg(add, 0) == node ? 1 : 0);
        // Only a bias of rank 1 adds along the last axis alone, whatever A's rank.
        auto tensor = c && c != node && c->op() == ir::Opcode::kGetAttr
                          ? gm_.findTensor(c->target())
                          : nullptr;
        if (tensor && tensor->dims.size() == 1 && is_bias(c)) {
          bias = c;
          last = add;
        }
      }
    }
    ir::Node* weight = nodeArg(dw, 0);
    if (trans_b) {
      std::vector<int64_t> kn(w->i.size());
      for (int64_t r = 0; r < n; ++r)
        for (int64_t col = 0; col < k; ++col) kn[col * n + r] = w->i[r * k + col];
      std::string path = gm_.freshPath(weight->target() + "_kn");
      gm_.setTensor(path, intTensor(kn, {k, n}, ir::DType::kInt8));
      auto guard = gm_.graph().insertingBefore(last);
      weight = gm_.graph().getAttr(path);
      weight->meta.dtype = "int8";
      weight->meta.shape = std::vector<std::string>{std::to_string(k), std::to_string(n)};
    }
    std::vector<ir::Argument> args = {nodeArg(dx, 0), weight, x->scale_node, nodeArg(dw, 1),
                                      x->zero_point_node};
    args.emplace_back(dw->args().size() > 2 ? dw->args()[2] : ir::Argument());
    if (bias) args.emplace_back(bias);
    ir::Node* made;
    {
      auto guard = gm_.graph().insertingBefore(last);
      made = gm_.graph().callFunction("com.microsoft.MatMulIntegerToFloat", std::move(args));
    }
    made->meta.dtype = last->meta.dtype;
    made->meta.shape = last->meta.shape;
    ir::takeOverValue(*made, *last);
    last->replaceAllUsesWith(made);
    if (last != node) gm_.graph().eraseNode(last);
    gm_.graph().eraseNode(node);
    eraseDead(dx);
    eraseDead(dw);
    return true;
  }

  // Q(relu(DQ(a) + DQ(b))) ⇒ QLinearAdd(a, ..., b, ..., y, ...), and a product into QLinearMul:
  // everything quantized per tensor to the output's type; numpy broadcasting, as the add's.
  // Returns what it lowered ("add", "mul"), or nullptr.
  const char* lowerBinary(ir::Node* q, std::string& why) {
    auto [activation, op] = activationAndValue(q);
    bool mul = isCall(op, "operator.mul");
    if (!(mul || isCall(op, "operator.add")) || op->args().size() != 2 || !op->kwargs().empty())
      return nullptr;
    const char* what = mul ? "mul" : "add";
    if (op->users().size() != 1)
      return (why = std::string("the ") + what + " has other users"), nullptr;
    ir::Node *da = nodeArg(op, 0), *db = nodeArg(op, 1);
    if (!isCall(da, "onnx.DequantizeLinear") || !isCall(db, "onnx.DequantizeLinear"))
      return (why = std::string("an operand of the ") + what + " is not dequantized"), nullptr;
    auto a = scalarParams(da, 1), b = scalarParams(db, 1), y = scalarParams(q, 1);
    if (!a || !b || !y || a->dtype != y->dtype || b->dtype != y->dtype)
      return (why = "the operands and the output are not quantized per tensor to one type"),
             nullptr;
    std::vector<ir::Argument> args = {nodeArg(da, 0), a->scale_node,     a->zero_point_node,
                                      nodeArg(db, 0), b->scale_node,     b->zero_point_node,
                                      y->scale_node,  y->zero_point_node};
    replaceQuantize(q, activation, mul ? "com.microsoft.QLinearMul" : "com.microsoft.QLinearAdd",
                    std::move(args), {}, *y);
    eraseDead(op);
    return what;
  }

  // Q(GlobalAveragePool(DQ(x))) ⇒ com.microsoft.QLinearGlobalAveragePool(x, ...): input and
  // output quantized per tensor to one type.
  bool lowerGlobalAveragePool(ir::Node* q, std::string& why) {
    ir::Node* pool = nodeArg(q, 0);
    const ir::Module* module =
        pool && pool->op() == ir::Opcode::kCallModule ? gm_.findModule(pool->target()) : nullptr;
    bool global = isCall(pool, "torch.nn.functional.adaptive_avg_pool2d")
                      ? pool->kwargs().empty()
                      : module && module->type() == "AdaptiveAvgPool2d" &&
                            module->attributes().empty() && module->tensors().empty();
    if (!global || pool->args().size() != 1) return false;  // not a global average pool's Q
    if (pool->users().size() != 1) return (why = "the average pool has other users"), false;
    ir::Node* dq = nodeArg(pool, 0);
    if (!isCall(dq, "onnx.DequantizeLinear") || !nodeArg(dq, 0))
      return (why = "the pooled value is not dequantized"), false;
    auto x = scalarParams(dq, 1), y = scalarParams(q, 1);
    if (!x || !y || x->dtype != y->dtype)
      return (why = "the input and the output are not quantized per tensor to one type"), false;
    std::vector<ir::Argument> args = {nodeArg(dq, 0), x->scale_node, x->zero_point_node,
                                      y->scale_node, y->zero_point_node};
    replaceQuantize(q, Activation{}, "com.microsoft.QLinearGlobalAveragePool", std::move(args), {},
                    *y);
    eraseDead(pool);
    return true;
  }

  // The Q's input, seen through a clamping activation that only the Q reads.
  struct Activation {
    ir::Node* node = nullptr;  // nullptr: none
    float lo = -INFINITY, hi = INFINITY;
  };
  std::pair<Activation, ir::Node*> activationAndValue(ir::Node* q) {
    ir::Node* value = nodeArg(q, 0);
    if (value && value->users().size() == 1) {
      if (auto bounds = clampBounds(value))
        return {Activation{value, bounds->first, bounds->second}, nodeArg(value, 0)};
    }
    return {Activation{}, value};
  }

  // A one-element constant of the output's integer type, `value`: the zero point's node when
  // equal.
  ir::Node* integerConstant(int64_t value, const Scalar& y, ir::Node* before) {
    if (value == y.zero_point) return y.zero_point_node;
    std::string path = gm_.freshPath(y.zero_point_node->target() + "_bound");
    gm_.setTensor(path, intTensor({value}, {}, y.dtype));
    auto guard = gm_.graph().insertingBefore(before);
    ir::Node* node = gm_.graph().getAttr(path);
    node->meta.dtype = std::string(ir::dtypeName(y.dtype));
    node->meta.shape = std::vector<std::string>{};
    return node;
  }

  // The integer op `target(args)` computes what `q` did. A clamping activation between the float
  // op and `q`: Q(clamp(v, lo, hi)) = clamp(Q(v), Q(lo), Q(hi)) for the monotone Q, so it becomes
  // an integer Max/Min with Q(lo)/Q(hi) where saturation does not already clip there.
  void replaceQuantize(ir::Node* q, const Activation& activation, const char* target,
                       std::vector<ir::Argument> args, ir::Kwargs kwargs, const Scalar& y) {
    exec::QuantRange range =
        y.dtype == ir::DType::kUInt8 ? exec::QuantRange{0, 255} : exec::QuantRange{-128, 127};
    int64_t lo = range.min, hi = range.max;
    if (activation.node) {
      if (activation.lo > -INFINITY)
        lo = exec::quantizeValue(activation.lo, {y.scale, y.zero_point}, range);
      if (activation.hi < INFINITY)
        hi = exec::quantizeValue(activation.hi, {y.scale, y.zero_point}, range);
    }
    // An integer clamp of the Q's result with constant bounds of its type (torch.onnx writes a
    // reduced-range fake-quantize as Q → Clip(0, 127) → DQ) joins the bounds.
    ir::Node* trailing = q->users().size() == 1 ? q->users()[0] : nullptr;
    if (isCall(trailing, "torch.clamp") && trailing->kwargs().empty() &&
        nodeArg(trailing, 0) == q) {
      int64_t bounds[2] = {range.min, range.max};
      for (size_t k = 1; k < trailing->args().size() && trailing; ++k) {
        if (trailing->args()[k].isNone()) continue;
        auto v = constant(nodeArg(trailing, k));
        if (k > 2 || !v || v->isFloat() || v->numel() != 1 || v->dtype != y.dtype)
          trailing = nullptr;
        else
          bounds[k - 1] = v->i[0];
      }
      // Two clamps are one on the intersection of their ranges; when those do not meet, each
      // stays (a clamp to [10, 20] after one to [0, 6] gives 10, the joined bounds 6).
      if (trailing && std::max(lo, bounds[0]) <= std::min(hi, bounds[1])) {
        lo = std::max(lo, bounds[0]);
        hi = std::min(hi, bounds[1]);
      } else {
        trailing = nullptr;
      }
    } else {
      trailing = nullptr;
    }
    ir::Node* lo_node = lo > range.min ? integerConstant(lo, y, q) : nullptr;
    ir::Node* hi_node = hi < range.max ? integerConstant(hi, y, q) : nullptr;
    std::vector<ir::Node*> made;
    {
      auto guard = gm_.graph().insertingBefore(q);
      made.push_back(gm_.graph().callFunction(target, std::move(args), std::move(kwargs)));
      if (lo_node)
        made.push_back(gm_.graph().callFunction("torch.maximum", {made.back(), lo_node}));
      if (hi_node)
        made.push_back(gm_.graph().callFunction("torch.minimum", {made.back(), hi_node}));
    }
    for (ir::Node* node : made) {
      node->meta.dtype = q->meta.dtype;
      node->meta.shape = q->meta.shape;
    }
    ir::Node* last = trailing ? trailing : q;
    ir::takeOverValue(*made.back(), *last);
    last->replaceAllUsesWith(made.back());
    if (trailing) {
      std::vector<ir::Node*> bounds = trailing->inputNodes();
      gm_.graph().eraseNode(trailing);
      for (ir::Node* bound : bounds) {
        if (bound != q) eraseDead(bound);
      }
    }
    gm_.graph().eraseNode(q);
    if (activation.node) {
      std::vector<ir::Node*> inputs = activation.node->inputNodes();
      gm_.graph().eraseNode(activation.node);
      for (ir::Node* input : inputs) {
        if (input->op() == ir::Opcode::kGetAttr) eraseDead(input);  // torch.clamp's bounds
      }
    }
  }

  // Q(f(DQ(x))) for an elementwise f ⇒ fxc.QLinearLookup(x, table).

  // Whether `node` computes each element of its result from the same element of each operand
  // (broadcast) and nothing else: the ops a lookup table may stand for. BatchNorm in inference
  // mode only (in training it reads the batch's statistics).
  bool isElementwise(const ir::Node* node) {
    static const std::unordered_set<std::string_view> functions = {
        "torch.relu",
        "torch.sigmoid",
        "torch.tanh",
        "torch.exp",
        "torch.log",
        "torch.sqrt",
        "torch.erf",
        "torch.abs",
        "operator.neg",
        "torch.reciprocal",
        "torch.floor",
        "torch.ceil",
        "torch.round",
        "torch.sin",
        "torch.cos",
        "torch.tan",
        "torch.sign",
        "torch.nn.functional.leaky_relu",
        "torch.nn.functional.elu",
        "torch.nn.functional.softplus",
        "torch.nn.functional.hardsigmoid",
        "torch.nn.functional.hardswish",
        "torch.nn.functional.gelu",
        "torch.nn.functional.selu",
        "torch.nn.functional.softsign",
        "torch.nn.functional.celu",
        "torch.clamp",
        "operator.add",
        "torch.add",
        "operator.sub",
        "torch.sub",
        "operator.mul",
        "torch.mul",
        "operator.truediv",
        "torch.div",
        "operator.pow",
        "torch.maximum",
        "torch.minimum"};
    static const std::unordered_set<std::string_view> modules = {
        "ReLU", "Sigmoid", "Tanh", "LeakyReLU", "ELU",  "Softplus", "Hardsigmoid", "Hardswish",
        "SiLU", "GELU",    "Mish", "Hardtanh",  "SELU", "Softsign", "CELU"};
    if (node->op() == ir::Opcode::kCallFunction) {
      if (!functions.count(node->target())) return false;
      for (const auto& [key, value] : node->kwargs()) {
        bool reads_value = false;
        ir::visitNodes(value, [&](const ir::Node*) { reads_value = true; });
        if (reads_value) return false;
      }
      return true;
    }
    if (node->op() != ir::Opcode::kCallModule || node->args().size() != 1) return false;
    const ir::Module* module = gm_.findModule(node->target());
    if (!module || !module->children().empty()) return false;
    if (ir::isBatchNorm(ir::moduleKind(module->type())))
      return module->numberAttribute("training_mode", 0) == 0 &&
             module->numberAttribute("is_test", 1) != 0 &&
             module->numberAttribute("spatial", 1) != 0;
    if (!modules.count(module->type())) return false;
    for (const auto& [name, tensor] : module->tensors()) {
      if (!tensor || tensor->numel() != 1) return false;  // one number: a slope, a bound
    }
    return true;
  }

  // The operands of a concatenation when each is a DequantizeLinear per tensor with constants,
  // all to one 8-bit type; empty otherwise.
  std::vector<ir::Node*> dequantizedOperands(const ir::Node* cat) {
    std::vector<ir::Node*> out;
    if (!isCall(cat, "torch.cat") || cat->args().empty()) return out;
    for (size_t k = 0; k < cat->args().size(); ++k) {
      ir::Node* dq = nodeArg(cat, k);
      auto params = isCall(dq, "onnx.DequantizeLinear") && nodeArg(dq, 0) ? scalarParams(dq, 1)
                                                                          : std::optional<Scalar>();
      if (!params || (!out.empty() && params->dtype != scalarParams(out[0], 1)->dtype)) return {};
      out.push_back(dq);
    }
    return out;
  }

  // f between a quantized value and a Q: its ops, the value they read (a DequantizeLinear or a
  // concatenation of them), and the axis the table's rows follow.
  struct Region {
    ir::Node* entry = nullptr;
    std::vector<ir::Node*> nodes;  // in graph order
    size_t rank = 0;
    int64_t axis = -1;     // counted from the end (-1: the last); used when channels > 1
    int64_t channels = 1;  // 1: one table for every element
  };
  static constexpr size_t kMaxRegion = 64;

  // A static dimension, or -1.
  static int64_t staticDim(const std::vector<std::string>& shape, size_t d) {
    const std::string& text = shape[d];
    if (text.empty() || text.size() > 12 ||
        !std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      return -1;
    return std::stoll(text);
  }

  std::optional<Region> elementwiseRegion(ir::Node* q, std::string& why) {
    Region region;
    ir::Node* sink = nodeArg(q, 0);
    if (!sink) return std::nullopt;
    std::unordered_set<const ir::Node*> inside;
    std::vector<ir::Node*> stack = {sink};
    std::vector<ir::Node*> constants;
    while (!stack.empty()) {
      ir::Node* node = stack.back();
      stack.pop_back();
      if (!inside.insert(node).second) continue;
      if (isCall(node, "onnx.DequantizeLinear") || !dequantizedOperands(node).empty()) {
        if (region.entry)
          return (why = "the ops before the Q read two quantized values"), std::nullopt;
        region.entry = node;
        continue;
      }
      if (!isElementwise(node)) {
        if (node == sink) return std::nullopt;  // not an elementwise op's Q: nothing to say
        return (why = node->name() + " is not elementwise"), std::nullopt;
      }
      if (inside.size() > kMaxRegion) return (why = "more than 64 elementwise ops"), std::nullopt;
      for (const ir::Argument& arg : node->args()) {
        if (arg.isNone()) continue;
        if (!arg.isNode()) return (why = node->name() + " has a literal argument"), std::nullopt;
        ir::Node* input = const_cast<ir::Node*>(arg.toNode());
        (input->op() == ir::Opcode::kGetAttr ? constants : stack).push_back(input);
      }
    }
    if (!region.entry) return (why = "the ops before the Q read no quantized value"), std::nullopt;
    for (ir::Node* node = region.entry->next(); node != q; node = node->next()) {
      if (inside.count(node)) region.nodes.push_back(node);
    }
    if (region.nodes.size() + 1 != inside.size())
      return (why = "the ops before the Q are not between its input and it"), std::nullopt;
    for (ir::Node* node : region.nodes) {
      for (ir::Node* user : node->users()) {
        if (node == sink ? user != q : !inside.count(user))
          return (why = node->name() + " has users besides the Q"), std::nullopt;
      }
    }
    // A concatenation is made again on the 8-bit values: only when nothing else reads it.
    for (ir::Node* user : region.entry->users()) {
      if (isCall(region.entry, "torch.cat") && user != q && !inside.count(user))
        return (why = "the concatenation has other users"), std::nullopt;
    }
    const auto& shape = region.entry->meta.shape;
    if (!shape || shape->empty()) return (why = "the input's rank is not known"), std::nullopt;
    region.rank = shape->size();
    // The axis along which the constants (and the input's scales) vary, and its extent.
    int64_t rank = static_cast<int64_t>(region.rank);
    auto along = [&](int64_t axis, int64_t extent) {
      if (extent == 1) return true;
      if (region.channels > 1 && (axis != region.axis || extent != region.channels)) return false;
      region.axis = axis;
      region.channels = extent;
      return true;
    };
    for (ir::Node* node : constants) {
      auto value = constant(node);
      if (!value || !value->isFloat() || value->shape.size() > region.rank)
        return (why = node->name() + " is not a float constant of at most the input's rank"),
               std::nullopt;
      int64_t dims = static_cast<int64_t>(value->shape.size());
      for (int64_t d = 0; d < dims; ++d) {
        if (!along(d - dims, value->shape[static_cast<size_t>(d)]))
          return (why = "the constants vary along more than one axis"), std::nullopt;
      }
    }
    for (ir::Node* node : region.nodes) {
      const ir::Module* module =
          node->op() == ir::Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
      if (!module || !ir::isBatchNorm(ir::moduleKind(module->type()))) continue;
      auto mean = module->tensor("running_mean");
      if (!mean || rank < 2 || !along(1 - rank, mean->numel()))
        return (why = node->name() + "'s channels are not the constants' axis"), std::nullopt;
    }
    if (isCall(region.entry, "torch.cat")) {
      const ir::Argument* axis = kwarg(region.entry, "axis");  // ONNX's default: 0
      int64_t cat_axis = axis && axis->kind() == ir::Argument::Kind::kInt ? axis->toInt() : 0;
      if ((axis && axis->kind() != ir::Argument::Kind::kInt) || cat_axis < -rank ||
          cat_axis >= rank)
        return (why = "the concatenation's axis is not known"), std::nullopt;
      int64_t from_end = cat_axis < 0 ? cat_axis : cat_axis - rank;
      int64_t total = 0;
      for (ir::Node* dq : dequantizedOperands(region.entry)) {
        int64_t extent = dq->meta.shape && dq->meta.shape->size() == region.rank
                             ? staticDim(*dq->meta.shape, static_cast<size_t>(rank + from_end))
                             : -1;
        if (extent < 0) return (why = "a concatenated extent is not known"), std::nullopt;
        total += extent;
      }
      // Each operand's scale is one row's: one row per index along the axis.
      if (region.channels > 1 && region.axis != from_end)
        return (why = "the constants vary along another axis than the concatenation"), std::nullopt;
      region.axis = from_end;
      region.channels = total;
    }
    if (region.channels > 1) {
      if (region.rank < 2)
        return (why = "a table per index of a one-dimensional value"), std::nullopt;
      if (staticDim(*shape, static_cast<size_t>(rank + region.axis)) != region.channels)
        return (why = "the input's extent along the constants' axis is not theirs"), std::nullopt;
    }
    return region;
  }

  // One node of the region run on the reference kernels; nullopt with `why` set when it fails.
  std::optional<exec::Value> evaluate(const ir::Node* node, std::vector<const exec::Value*> inputs,
                                      std::string& why) {
    try {
      auto outputs = exec::evaluateCall(gm_, *node, std::move(inputs));
      if (outputs && !outputs->empty()) return std::move((*outputs)[0]);
      why = node->name() + " has no reference kernel";
    } catch (const exec::ExecError& error) {
      why = "tabulating " + node->name() + ": " + error.what();
    }
    return std::nullopt;
  }

  // The table: the region's own ops (DQ, f, Q) on the reference kernels, run once on every
  // 8-bit value of every row, so the lookup gives what the QDQ graph computes, bit for bit.
  std::optional<std::vector<int64_t>> tabulate(const Region& region, ir::Node* q, ir::DType in_type,
                                               std::string& why) {
    size_t rank = region.rank, rows = static_cast<size_t>(region.channels);
    size_t row_axis = rows > 1 ? static_cast<size_t>(static_cast<int64_t>(rank) + region.axis) : 0;
    size_t value_axis = rows > 1 && row_axis == rank - 1 ? 0 : rank - 1;
    std::vector<int64_t> shape(rank, 1);
    if (rows > 1) shape[row_axis] = region.channels;
    shape[value_axis] = 256;
    // Element (row r, value v): the only two axes longer than one.
    auto at = [&](size_t r, size_t v) {
      return row_axis < value_axis ? r * 256 + v : v * rows + r;
    };
    int64_t lo = in_type == ir::DType::kInt8 ? -128 : 0;
    exec::Value x = exec::Value::ints(shape, std::vector<int64_t>(rows * 256), in_type);
    for (size_t r = 0; r < rows; ++r)
      for (size_t v = 0; v < 256; ++v) x.i[at(r, v)] = lo + static_cast<int64_t>(v);
    std::unordered_map<const ir::Node*, exec::Value> values;
    std::deque<exec::Value> held;  // the constants read
    auto input = [&](const ir::Argument& arg) -> const exec::Value* {
      if (arg.isNone()) return nullptr;
      const ir::Node* node = arg.toNode();
      auto it = values.find(node);
      if (it != values.end()) return &it->second;
      auto value = constant(node);
      return value ? &held.emplace_back(std::move(*value)) : nullptr;
    };
    auto run = [&](const ir::Node* node, const exec::Value& first) -> std::optional<exec::Value> {
      std::vector<const exec::Value*> inputs = {&first};
      for (size_t k = 1; k < node->args().size(); ++k) inputs.push_back(input(node->args()[k]));
      return evaluate(node, std::move(inputs), why);
    };
    // The entry's float values: its DequantizeLinear, or each operand's on its rows.
    if (isCall(region.entry, "onnx.DequantizeLinear")) {
      auto dq = run(region.entry, x);
      if (!dq) return std::nullopt;
      values.emplace(region.entry, std::move(*dq));
    } else {
      // Each operand's DequantizeLinear is per tensor: run on the 256 values once, its result
      // fills the operand's rows.
      std::vector<int64_t> one_row(rank, 1);
      one_row[value_axis] = 256;
      exec::Value values_only = exec::Value::ints(one_row, std::vector<int64_t>(256), in_type);
      for (size_t v = 0; v < 256; ++v) values_only.i[v] = lo + static_cast<int64_t>(v);
      exec::Value dq = exec::Value::floats(shape, std::vector<float>(rows * 256));
      size_t row = 0;
      for (ir::Node* operand : dequantizedOperands(region.entry)) {
        auto part = run(operand, values_only);
        if (!part) return std::nullopt;
        size_t extent = static_cast<size_t>(
            staticDim(*operand->meta.shape, row_axis));  // checked by elementwiseRegion
        for (size_t r = row; r < row + extent; ++r)
          for (size_t v = 0; v < 256; ++v) dq.f[at(r, v)] = part->f[v];
        row += extent;
      }
      values.emplace(region.entry, std::move(dq));
    }
    for (const ir::Node* node : region.nodes) {
      std::vector<const exec::Value*> inputs;
      for (const ir::Argument& arg : node->args()) inputs.push_back(input(arg));
      auto out = evaluate(node, std::move(inputs), why);
      if (!out) return std::nullopt;
      if (!out->isFloat() || out->shape != shape)
        return (why = node->name() + " does not keep a float value's shape"), std::nullopt;
      values.emplace(node, std::move(*out));
    }
    auto y = run(q, values.at(nodeArg(q, 0)));
    if (!y) return std::nullopt;
    if (y->isFloat() || y->shape != shape)
      return (why = "the Q does not give 8-bit values of the input's shape"), std::nullopt;
    std::vector<int64_t> table(rows * 256);
    for (size_t r = 0; r < rows; ++r)
      for (size_t v = 0; v < 256; ++v) table[r * 256 + v] = y->i[at(r, v)];
    return table;
  }

  bool lowerLookup(ir::Node* q, std::string& why) {
    auto region = elementwiseRegion(q, why);
    if (!region) return false;
    auto y = scalarParams(q, 1);
    if (!y) return (why = "the output is not quantized per tensor with constants"), false;
    std::vector<ir::Node*> operands;
    ir::DType in_type;
    if (isCall(region->entry, "onnx.DequantizeLinear")) {
      auto x = scalarParams(region->entry, 1);
      if (!x || !nodeArg(region->entry, 0))
        return (why = "the input is not quantized per tensor with constants"), false;
      in_type = x->dtype;
    } else {
      operands = dequantizedOperands(region->entry);
      in_type = scalarParams(operands[0], 1)->dtype;
    }
    // The 8-bit values themselves must be of the zero point's type (ONNX's rule; the lookup
    // kernel takes no other), where the graph says their type.
    std::vector<ir::Node*> sources = operands;
    if (sources.empty()) sources.push_back(region->entry);
    for (ir::Node* dq : sources) {
      const std::string& type = nodeArg(dq, 0)->meta.dtype;
      if (!type.empty() && type != ir::dtypeName(in_type))
        return (why = "a dequantized value is not of its zero point's type"), false;
    }
    auto table = tabulate(*region, q, in_type, why);
    if (!table) return false;
    ir::Node* x = nodeArg(region->entry, 0);
    if (!operands.empty()) {  // the concatenation of the 8-bit values
      std::vector<ir::Argument> args;
      for (ir::Node* dq : operands) args.emplace_back(nodeArg(dq, 0));
      auto guard = gm_.graph().insertingBefore(region->entry);
      x = gm_.graph().callFunction("torch.cat", std::move(args), region->entry->kwargs());
      x->meta.dtype = std::string(ir::dtypeName(in_type));
      x->meta.shape = region->entry->meta.shape;
    }
    std::string path = gm_.freshPath(q->name() + "_table");
    gm_.setTensor(path, intTensor(*table, {static_cast<int64_t>(table->size())}, y->dtype));
    ir::Node* lookup;
    {
      auto guard = gm_.graph().insertingBefore(q);
      ir::Node* table_node = gm_.graph().getAttr(path);
      table_node->meta.dtype = std::string(ir::dtypeName(y->dtype));
      table_node->meta.shape = std::vector<std::string>{std::to_string(table->size())};
      ir::Kwargs kwargs;
      if (region->channels > 1) kwargs.emplace_back("axis", ir::Argument(region->axis));
      lookup = gm_.graph().callFunction("fxc.QLinearLookup", {x, table_node}, std::move(kwargs));
    }
    lookup->meta.dtype = q->meta.dtype;
    lookup->meta.shape = q->meta.shape;
    ir::takeOverValue(*lookup, *q);
    q->replaceAllUsesWith(lookup);
    // The constants the Q and f read, each once: erased when nothing else reads them.
    std::vector<ir::Node*> constants;
    auto note = [&](ir::Node* node) {
      for (ir::Node* input : node->inputNodes()) {
        if (input->op() == ir::Opcode::kGetAttr &&
            std::find(constants.begin(), constants.end(), input) == constants.end())
          constants.push_back(input);
      }
    };
    note(q);
    gm_.graph().eraseNode(q);
    for (auto it = region->nodes.rbegin(); it != region->nodes.rend(); ++it) {
      note(*it);
      gm_.graph().eraseNode(*it);
    }
    for (ir::Node* node : constants) eraseDead(node);
    eraseDead(region->entry);
    return true;
  }

  ir::GraphModule& gm_;
  PassResult result_;
};

RegisterPass quant_lower{
    {"quant-lower",
     "runs a QDQ model's convolutions, adds and products on integers (QLinearConv, "
     "QLinearAdd, QLinearMul), max pooling on int8, elementwise ops between DQ and Q as lookup "
     "tables",
     {},
     [](ir::GraphModule& gm, const Options&) -> Expected<PassResult> { return Lowering(gm).run(); },
     nullptr,
     /*needs_shapes=*/true}};

}  // namespace
}  // namespace fxc::passes
