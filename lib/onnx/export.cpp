#include "onnx/export.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "ir/matcher.h"
#include "onnx/node_info.h"
#include "onnx/op_table.h"
#include "onnx/trace.h"

namespace fxc::onnx {
namespace {

using ::onnx::AttributeProto;
using ::onnx::NodeProto;

const NodeRecord* recordOf(const ir::Node& node) {
  return std::any_cast<NodeRecord>(&node.meta.source);
}

// kwargs of a node made by a pass → ONNX attributes (ints, floats, strings and their lists).
void writeAttributes(const ir::Kwargs& kwargs, NodeProto& out, const ir::Node& node) {
  for (const auto& [key, value] : kwargs) {
    if (key == "captures") continue;
    AttributeProto& attr = *out.add_attribute();
    attr.set_name(key);
    using K = ir::Argument::Kind;
    switch (value.kind()) {
      case K::kInt:
      case K::kBool:
        attr.set_type(AttributeProto::INT);
        attr.set_i(value.kind() == K::kBool ? value.toBool() : value.toInt());
        break;
      case K::kFloat:
        attr.set_type(AttributeProto::FLOAT);
        attr.set_f(static_cast<float>(value.toFloat()));
        break;
      case K::kString:
        attr.set_type(AttributeProto::STRING);
        attr.set_s(value.toString());
        break;
      case K::kList:
      case K::kTuple: {
        const auto& items = value.items();
        K kind = items.empty() ? K::kInt : items[0].kind();
        attr.set_type(kind == K::kFloat    ? AttributeProto::FLOATS
                      : kind == K::kString ? AttributeProto::STRINGS
                                           : AttributeProto::INTS);
        for (const auto& item : items) {
          if (item.kind() == K::kFloat)
            attr.add_floats(static_cast<float>(item.toFloat()));
          else if (item.kind() == K::kString)
            attr.add_strings(item.toString());
          else if (item.kind() == K::kInt)
            attr.add_ints(item.toInt());
          else
            throw ModelError("node '" + node.name() + "': kwarg '" + key + "' mixes kinds");
        }
        break;
      }
      default:
        throw ModelError("node '" + node.name() + "': kwarg '" + key +
                         "' has no ONNX attribute form");
    }
  }
}

void writeTensor(const ir::Tensor& tensor, const std::string& name, ::onnx::TensorProto& out) {
  if (!name.empty()) out.set_name(name);
  out.set_data_type(static_cast<int32_t>(tensor.dtype));
  for (int64_t d : tensor.dims) out.add_dims(d);
  if (tensor.dtype == ir::DType::kString) {
    for (const auto& s : tensor.strings) out.add_string_data(s);
  } else {
    out.set_raw_data(tensor.bytes(), tensor.byteSize());
  }
}

// A Constant node's value in the attribute the model had (value_int, value_floats, ...) when the
// tensor still has that form's type and rank, else as a `value` tensor.
void writeConstantValue(const ir::Tensor& tensor, AttributeProto& out) {
  const std::string& kind = tensor.constant_attribute;
  size_t rank = tensor.dims.size();
  auto element = [&](size_t k, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, tensor.bytes() + k * sizeof(v), sizeof(v));
    return v;
  };
  size_t n = static_cast<size_t>(tensor.numel());
  bool f32 = tensor.dtype == ir::DType::kFloat32, i64 = tensor.dtype == ir::DType::kInt64,
       str = tensor.dtype == ir::DType::kString;
  out.set_name(kind);
  if (kind == "value_float" && f32 && rank == 0) {
    out.set_type(AttributeProto::FLOAT);
    out.set_f(element(0, 0.0f));
  } else if (kind == "value_int" && i64 && rank == 0) {
    out.set_type(AttributeProto::INT);
    out.set_i(element(0, int64_t{0}));
  } else if (kind == "value_floats" && f32 && rank == 1) {
    out.set_type(AttributeProto::FLOATS);
    for (size_t k = 0; k < n; ++k) out.add_floats(element(k, 0.0f));
  } else if (kind == "value_ints" && i64 && rank == 1) {
    out.set_type(AttributeProto::INTS);
    for (size_t k = 0; k < n; ++k) out.add_ints(element(k, int64_t{0}));
  } else if (kind == "value_string" && str && rank == 0 && tensor.strings.size() == 1) {
    out.set_type(AttributeProto::STRING);
    out.set_s(tensor.strings[0]);
  } else if (kind == "value_strings" && str && rank == 1) {
    out.set_type(AttributeProto::STRINGS);
    for (const auto& v : tensor.strings) out.add_strings(v);
  } else {
    out.set_name("value");
    out.set_type(AttributeProto::TENSOR);
    writeTensor(tensor, tensor.constant_tensor_name, *out.mutable_t());
  }
}

class Exporter {
 public:
  Exporter(const ir::GraphModule& gm, bool defer) : gm_(gm), defer_(defer) {}

  std::vector<std::shared_ptr<const ir::Tensor>>& deferred() { return deferred_; }

  std::shared_ptr<::onnx::ModelProto> run() {
    auto model = std::make_shared<::onnx::ModelProto>();
    const ModelRecord* source = std::any_cast<ModelRecord>(&gm_.source);
    if (source && source->proto) {
      model->CopyFrom(*source->proto);
      auto* graph = model->mutable_graph();
      original_inputs_.CopyFrom(graph->input());
      original_outputs_.CopyFrom(graph->output());
      graph->clear_node();
      graph->clear_initializer();
      graph->clear_input();
      graph->clear_output();
      graph->clear_value_info();
      graph->clear_sparse_initializer();
      // Initializers are written as constants, not inputs: valid from IR version 4 (before, every
      // initializer had to be a graph input too, and ONNX's checker rejects the model).
      if (model->ir_version() < 4) model->set_ir_version(4);
    } else {
      model->set_ir_version(8);
      model->add_opset_import()->set_version(gm_.opset > 0 ? gm_.opset : 17);
      model->mutable_graph()->set_name("fxc");
    }
    model->set_producer_name("fxc");
    graph_ = model->mutable_graph();
    nameValues();
    for (const ir::Node* node : gm_.graph()) emit(*node);
    importDomains(*model);
    return model;
  }

 private:
  std::string unique(std::string name) {
    if (name.empty()) name = "value";
    std::string candidate = name;
    for (int n = 1; taken_.count(candidate); ++n) candidate = name + "_" + std::to_string(n);
    taken_.insert(candidate);
    return candidate;
  }

  // The initializer (or Constant output) name of a tensor, written on first use.
  const std::string& tensorName(const std::shared_ptr<ir::Tensor>& tensor,
                                const std::string& fallback) {
    auto it = tensor_names_.find(tensor.get());
    if (it != tensor_names_.end()) return it->second;
    std::string name = unique(tensor->source_name.empty() ? fallback : tensor->source_name);
    if (tensor->from_constant_node) {
      NodeProto& constant = *graph_->add_node();
      constant.set_op_type("Constant");
      if (!tensor->source_node.empty()) constant.set_name(tensor->source_node);
      constant.add_output(name);
      writeConstantValue(*tensor, *constant.add_attribute());
    } else if (defer_ && tensor->dtype != ir::DType::kString) {
      ::onnx::TensorProto& init = *graph_->add_initializer();
      init.set_name(name);
      init.set_data_type(static_cast<int32_t>(tensor->dtype));
      for (int64_t d : tensor->dims) init.add_dims(d);
      deferred_.resize(static_cast<size_t>(graph_->initializer_size()));
      deferred_.back() = tensor;
    } else {
      writeTensor(*tensor, name, *graph_->add_initializer());
    }
    return tensor_names_.emplace(tensor.get(), name).first->second;
  }

  // Names every value before anything is written: graph outputs keep their names, values keep
  // the names they had, new values take their FX name.
  void nameValues() {
    const ir::Node* output = gm_.graph().last();
    std::vector<const ir::Node*> results;
    if (output && output->op() == ir::Opcode::kOutput && !output->args().empty()) {
      const ir::Argument& result = output->args()[0];
      if (result.isSequence()) {
        for (const auto& item : result.items())
          results.push_back(item.isNode() ? item.toNode() : nullptr);
      } else {
        results.push_back(result.isNode() ? result.toNode() : nullptr);
      }
    }
    std::unordered_map<const ir::Node*, std::string> wanted;
    for (size_t k = 0; k < results.size(); ++k) {
      const ir::Node* node = results[k];
      if (!node || static_cast<int>(k) >= original_outputs_.size()) continue;
      if (node->op() == ir::Opcode::kPlaceholder || node->op() == ir::Opcode::kGetAttr) continue;
      wanted.emplace(node, original_outputs_.Get(static_cast<int>(k)).name());
    }
    for (const ir::Node* node : gm_.graph()) {
      if (node->op() == ir::Opcode::kOutput) continue;
      if (node->op() == ir::Opcode::kGetAttr) {
        auto tensor = gm_.findTensor(node->target());
        if (!tensor) throw ModelError("get_attr '" + node->name() + "' names no tensor");
        value_[node] = tensorName(tensor, node->target());
        auto [first, inserted] = tensor_paths_.emplace(tensor.get(), node->target());
        if (!inserted && first->second != node->target()) {
          // A second path to one tensor (the trace's alias of an Identity on a constant, which
          // exporters write for a shared parameter): the Identity again, so that the written
          // model traces to the same graph.
          auto [alias, added] = alias_names_.emplace(
              node->target(),
              unique(node->meta.value_name.empty() ? node->target() : node->meta.value_name));
          if (added) {
            NodeProto& identity = *graph_->add_node();
            identity.set_op_type("Identity");
            identity.add_input(value_[node]);
            identity.add_output(alias->second);
          }
          value_[node] = alias->second;
        }
        continue;
      }
      std::string name;
      auto it = wanted.find(node);
      if (it != wanted.end()) {
        name = it->second;
      } else if (!node->meta.value_name.empty()) {
        name = node->meta.value_name;
      } else if (const NodeRecord* record = recordOf(*node)) {
        if (!record->value.empty()) {
          name = record->value;
        } else if (!record->protos.empty()) {
          // A multi-output op has no value of its own: its getitem users name its outputs.
          const NodeProto& proto = *record->protos[0];
          if (record->output_index >= 0 && record->output_index < proto.output_size())
            name = proto.output(record->output_index);
          else if (record->output_index < 0 && proto.output_size() >= 1 &&
                   std::all_of(proto.output().begin() + 1, proto.output().end(),
                               [](const std::string& o) { return o.empty(); }))
            name = proto.output(0);
        }
      }
      value_[node] = unique(name.empty() || taken_.count(name) ? node->name() : name);
    }
  }

  const std::string& valueOf(const ir::Argument& arg, const ir::Node& user) {
    static const std::string kAbsent;
    if (arg.isNone()) return kAbsent;
    if (!arg.isNode())
      throw ModelError("node '" + user.name() + "': a constant argument (" + ir::pyRepr(arg) +
                       ") has no ONNX input form");
    return value_.at(arg.toNode());
  }

  // Output names of a node: its value, or for multi-output ops the getitem users' values.
  void setOutputs(const ir::Node& node, NodeProto& out, const NodeProto* original) {
    out.clear_output();
    bool multi = false;
    for (const ir::Node* user : node.users()) multi = multi || user->target() == "operator.getitem";
    if (!multi) {
      out.add_output(value_.at(&node));
      return;
    }
    int count = original ? original->output_size() : 0;
    std::unordered_map<int64_t, std::string> by_index;
    for (const ir::Node* user : node.users()) {
      if (user->target() != "operator.getitem" || user->args().size() != 2) continue;
      int64_t index = user->args()[1].toInt();
      by_index[index] = value_.at(user);
      count = std::max(count, static_cast<int>(index) + 1);
    }
    for (int i = 0; i < count; ++i) {
      auto it = by_index.find(i);
      if (it != by_index.end()) {
        out.add_output(it->second);
      } else if (original && i < original->output_size() && !original->output(i).empty() &&
                 !taken_.count(original->output(i))) {
        out.add_output(unique(original->output(i)));  // unused, but keeps its name
      } else {
        out.add_output("");
      }
    }
  }

  void emit(const ir::Node& node) {
    switch (node.op()) {
      case ir::Opcode::kPlaceholder:
        return emitInput(node);
      case ir::Opcode::kGetAttr:
        return;  // written by nameValues
      case ir::Opcode::kCallFunction:
        return emitFunction(node);
      case ir::Opcode::kCallModule:
        return emitModule(node);
      case ir::Opcode::kCallMethod:
        throw ModelError("node '" + node.name() + "': call_method '" + node.target() +
                         "' has no ONNX op");
      case ir::Opcode::kOutput:
        return emitOutputs(node);
    }
  }

  void emitInput(const ir::Node& node) {
    const std::string& name = value_.at(&node);
    const NodeRecord* record = recordOf(node);
    ::onnx::ValueInfoProto* input = graph_->add_input();
    for (const auto& original : original_inputs_) {
      if (record && original.name() == record->value) input->CopyFrom(original);
    }
    input->set_name(name);
  }

  void emitFunction(const ir::Node& node) {
    if (node.target() == "operator.getitem") return;  // an output name of its producer
    if (node.target() == "torch.fake_quantize_per_tensor_affine" ||
        node.target() == "torch.fake_quantize_per_channel_affine")
      return emitFakeQuantize(node);
    if (node.target() == "fxc.QLinearConvToFloat") return emitConvToFloat(node);
    if (node.target() == "fxc.QLinearLookup") return emitLookup(node);
    if (node.target() == "fxc.QLinearConvAct" || node.target() == "fxc.QLinearConvTranspose")
      return emitQuantizedConvolution(node);
    if (node.target() == "torch.nn.functional.channel_shuffle") return emitChannelShuffle(node);
    if (node.target() == "fxc.Attention") return emitAttention(node);
    const NodeRecord* record = recordOf(node);
    const NodeProto* original =
        record && record->protos.size() == 1 ? record->protos[0].get() : nullptr;
    NodeProto& out = *graph_->add_node();
    bool same_op = original && (functionTarget(*original) == node.target() ||
                                (original->domain() + "." + original->op_type()) == node.target());
    if (same_op && original->input_size() == static_cast<int>(node.args().size())) {
      out.CopyFrom(*original);
    } else {
      auto op = opForTarget(node.target());
      if (!op)
        throw ModelError("node '" + node.name() + "': no ONNX op for target " + node.target());
      out.set_domain(op->first);
      out.set_op_type(op->second);
      out.set_name(node.name());
      writeAttributes(node.kwargs(), out, node);
    }
    out.clear_input();
    for (const auto& arg : node.args()) out.add_input(valueOf(arg, node));
    setOutputs(node, out, original);
  }

  // A fake-quantize is ONNX's QuantizeLinear → DequantizeLinear pair on the same scale and zero
  // point (whose integer type says the range; quant_min/max narrower than it only clamp).
  void emitFakeQuantize(const ir::Node& node) {
    if (node.args().size() != 3)
      throw ModelError("node '" + node.name() + "': a fake-quantize takes (x, scale, zero_point)");
    std::vector<std::string> inputs;
    for (const auto& arg : node.args()) inputs.push_back(valueOf(arg, node));
    ir::Kwargs attributes;  // quant_min/max are the zero point type's range: no attribute
    if (const ir::Argument* axis = node.kwarg("axis")) attributes.emplace_back("axis", *axis);
    NodeProto* pair[2] = {graph_->add_node(), graph_->add_node()};
    pair[0]->set_op_type("QuantizeLinear");
    pair[0]->set_name(node.name() + "_quantize");
    pair[1]->set_op_type("DequantizeLinear");
    pair[1]->set_name(node.name());
    for (NodeProto* out : pair) {
      for (const auto& input : inputs) out->add_input(input);
      writeAttributes(attributes, *out, node);
    }
    pair[0]->add_output(unique(value_.at(&node) + "_quantized"));
    pair[1]->set_input(0, pair[0]->output(0));
    setOutputs(node, *pair[1], nullptr);
  }

  // fxc.QLinearConvToFloat (quant-lower's integer convolution with a float result) is written
  // as the QDQ ops it computes: DequantizeLinear of the input and of the weight (axis 0),
  // Conv with the float bias, then Add of the addend and Relu where the node has them.
  void emitConvToFloat(const ir::Node& node) {
    const auto& args = node.args();
    if (args.size() < 6 || args.size() > 8)
      throw ModelError("node '" + node.name() + "': QLinearConvToFloat takes 6 to 8 arguments");
    auto input = [&](size_t k) { return k < args.size() ? valueOf(args[k], node) : std::string(); };
    std::string base = value_.at(&node);
    auto op = [&](const std::string& type, const std::string& suffix,
                  const std::vector<std::string>& inputs) -> NodeProto& {
      NodeProto& out = *graph_->add_node();
      out.set_op_type(type);
      out.set_name(node.name() + suffix);
      for (const auto& name : inputs) out.add_input(name);
      return out;
    };
    NodeProto& dx = op("DequantizeLinear", "_dequantize_input", {input(0), input(1), input(2)});
    dx.add_output(unique(base + "_input"));
    NodeProto& dw = op("DequantizeLinear", "_dequantize_weight", {input(3), input(4), input(5)});
    writeAttributes({{"axis", ir::Argument(int64_t{0})}}, dw, node);
    dw.add_output(unique(base + "_weight"));
    std::vector<std::string> conv_inputs = {dx.output(0), dw.output(0)};
    if (args.size() > 6 && !args[6].isNone()) conv_inputs.push_back(input(6));
    ir::Kwargs attributes;
    std::string activation;
    for (const auto& [key, value] : node.kwargs()) {
      if (key == "activation")
        activation = value.toString();
      else
        attributes.emplace_back(key, value);
    }
    NodeProto* last = &op("Conv", "_conv", conv_inputs);
    writeAttributes(attributes, *last, node);
    auto chain = [&](const std::string& type, const std::string& suffix,
                     std::vector<std::string> inputs) {
      last->add_output(unique(base + "_" + suffix));
      inputs.insert(inputs.begin(), last->output(0));
      last = &op(type, "_" + suffix, inputs);
    };
    if (args.size() > 7 && !args[7].isNone()) chain("Add", "add", {input(7)});
    if (activation == "Relu") {
      chain("Relu", "relu", {});
    } else if (!activation.empty()) {
      throw ModelError("node '" + node.name() + "': QLinearConvToFloat with activation " +
                       activation + ", which export does not know");
    }
    last->set_name(node.name());
    setOutputs(node, *last, nullptr);
  }

  // fxc.QLinearConvAct (quant-lower's Q([act](conv(DQ(x), DQ(w)) + B [+ DQ(Z)]))) and
  // QLinearConvTranspose (Q(conv_transpose(...))) are written as the QDQ ops they compute:
  // DequantizeLinear of the input and of the weight (axis 0; a transposed convolution's output
  // channels are axis 1), Conv or ConvTranspose with the bias in real units (B[c]·s_x·s_w[c] for
  // an int32 B, a float B as it is), the Add of DequantizeLinear(Z) and the activation's ops
  // (QLinearConvAct, where it has them), QuantizeLinear.
  void emitQuantizedConvolution(const ir::Node& node) {
    const auto& args = node.args();
    bool transposed = node.target() == "fxc.QLinearConvTranspose";
    auto refuse = [&](const std::string& why) {
      throw ModelError("node '" + node.name() + "': " + node.target().substr(4) + " " + why);
    };
    bool addend = args.size() == 12 && !transposed;  // QLinearConvAct's 8-bit addend
    if ((args.size() < 8 || args.size() > 9) && !addend)
      refuse(transposed ? "takes 8 or 9 arguments" : "takes 8, 9 or 12 arguments");
    auto input = [&](size_t k) { return valueOf(args[k], node); };
    auto constant = [&](size_t k) -> std::vector<double> {
      const ir::Node* at = args[k].isNode() ? args[k].toNode() : nullptr;
      auto tensor = at && at->op() == ir::Opcode::kGetAttr ? gm_.findTensor(at->target()) : nullptr;
      auto values = tensor ? ir::tensorValues(*tensor) : std::nullopt;
      if (!values) refuse("with a scale or bias that is not a constant");
      return *values;
    };
    ir::Kwargs conv_attributes, activation_attributes;
    std::string activation = splitActivation(node.kwargs(), conv_attributes, activation_attributes);
    std::string base = value_.at(&node);
    NodeProto& dx = addStep("DequantizeLinear", node.name() + "_dequantize_input",
                            {input(0), input(1), input(2)}, base + "_input");
    NodeProto& dw = addStep("DequantizeLinear", node.name() + "_dequantize_weight",
                            {input(3), input(4), input(5)}, base + "_weight");
    // The output channels' axis of the weight: a transposed convolution's is [C_in, C_out, …].
    writeAttributes({{"axis", ir::Argument(int64_t{transposed ? 1 : 0})}}, dw, node);
    std::vector<std::string> conv_inputs = {dx.output(0), dw.output(0)};
    if (args.size() > 8 && !args[8].isNone()) {
      std::vector<double> b = constant(8), sx = constant(1), sw = constant(4);
      if (sx.size() != 1 || (sw.size() != 1 && sw.size() != b.size()))
        refuse("with scales that do not match its bias");
      // An int32 bias is in units of s_x·s_w[c]; a float one already in real units.
      const ir::Node* at = args[8].toNode();
      bool real_units = gm_.findTensor(at->target())->dtype == ir::DType::kFloat32;
      std::vector<float> real(b.size());
      for (size_t c = 0; c < b.size(); ++c)
        real[c] = static_cast<float>(real_units ? b[c] : b[c] * sx[0] * sw[sw.size() == 1 ? 0 : c]);
      auto bias = madeTensor(ir::DType::kFloat32, {static_cast<int64_t>(real.size())}, real.data(),
                             real.size() * sizeof(float));
      conv_inputs.push_back(tensorName(bias, base + "_bias"));
    }
    NodeProto& conv = addStep(transposed ? "ConvTranspose" : "Conv", node.name() + "_conv",
                              conv_inputs, base + "_conv");
    writeAttributes(conv_attributes, conv, node);
    std::string result = conv.output(0);
    if (addend) {
      NodeProto& dz = addStep("DequantizeLinear", node.name() + "_dequantize_addend",
                              {input(9), input(10), input(11)}, base + "_addend");
      NodeProto& add = addStep("Add", node.name() + "_add", {result, dz.output(0)}, base + "_sum");
      result = add.output(0);
    }
    if (activation == "?") refuse("with an activation that is not a name");
    if (!activation.empty()) {
      NodeProto& act =
          emitActivation(node, activation, activation_attributes, nullptr, result, base);
      act.add_output(unique(base + "_activation"));
      result = act.output(0);
    }
    NodeProto& q = *graph_->add_node();
    q.set_op_type("QuantizeLinear");
    q.set_name(node.name());
    for (const std::string& name : {result, input(6), input(7)}) q.add_input(name);
    setOutputs(node, q, nullptr);
  }

  // torch.nn.functional.channel_shuffle (the channel-shuffle pass's) is written as the ops it
  // stands for, with its input's known shape [N, C, …]: Reshape to [N, g, C/g, …], Transpose
  // swapping axes 1 and 2, Reshape back.
  void emitChannelShuffle(const ir::Node& node) {
    auto refuse = [&](const std::string& why) {
      throw ModelError("node '" + node.name() + "': channel_shuffle " + why);
    };
    const ir::Argument* groups_arg = node.kwarg("groups");
    if (node.args().size() != 1 || !node.args()[0].isNode() || !groups_arg ||
        groups_arg->kind() != ir::Argument::Kind::kInt || node.kwargs().size() != 1)
      refuse("takes (x, groups = g)");
    const ir::Node* x = node.args()[0].toNode();
    auto known = ir::knownDims(x->meta.shape);
    if (!known) refuse("of a value whose shape is not known");
    const std::vector<int64_t>& shape = *known;
    int64_t groups = groups_arg->toInt();
    if (shape.size() < 2 || groups < 1 || shape[1] % groups != 0)
      refuse("of a value without channels, or with groups that do not divide them");
    std::vector<int64_t> split = {shape[0], groups, shape[1] / groups};
    split.insert(split.end(), shape.begin() + 2, shape.end());
    std::string base = value_.at(&node);
    auto shapeName = [&](const std::vector<int64_t>& dims, const std::string& suffix) {
      auto tensor = madeTensor(ir::DType::kInt64, {static_cast<int64_t>(dims.size())}, dims.data(),
                               dims.size() * sizeof(int64_t));
      return tensorName(tensor, base + suffix);
    };
    NodeProto& first =
        addStep("Reshape", node.name() + "_split",
                {valueOf(node.args()[0], node), shapeName(split, "_split_shape")}, base + "_split");
    std::vector<ir::Argument> perm = {ir::Argument(int64_t{0}), ir::Argument(int64_t{2}),
                                      ir::Argument(int64_t{1})};
    for (size_t d = 3; d < split.size(); ++d) perm.emplace_back(static_cast<int64_t>(d));
    NodeProto& swap =
        addStep("Transpose", node.name() + "_swap", {first.output(0)}, base + "_swapped");
    writeAttributes({{"perm", ir::Argument::list(std::move(perm))}}, swap, node);
    NodeProto& last = *graph_->add_node();
    last.set_op_type("Reshape");
    last.set_name(node.name());
    last.add_input(swap.output(0));
    last.add_input(shapeName(shape, "_shape"));
    setOutputs(node, last, nullptr);
  }

  // fxc.Attention (the attention pass's) is written as the ops it stands for: MatMul(a, b), Mul
  // or Div by the scale and Add of the mask where it has them, Softmax along the original axis,
  // MatMul with v.
  void emitAttention(const ir::Node& node) {
    const ir::Argument* axis = node.kwarg("axis");
    const ir::Argument* divide = node.kwarg("divide");
    const std::vector<ir::Argument>& args = node.args();
    bool well_formed = args.size() == 5 && axis && axis->kind() == ir::Argument::Kind::kInt &&
                       divide && divide->kind() == ir::Argument::Kind::kInt &&
                       node.kwargs().size() == 2;
    for (size_t k = 0; well_formed && k < args.size(); ++k)
      well_formed = args[k].isNode() || (k >= 3 && args[k].isNone());
    if (!well_formed)
      throw ModelError("node '" + node.name() +
                       "': Attention takes (a, b, v, mask, scale, axis = k, divide = b)");
    std::string base = value_.at(&node);
    std::string scores = addStep("MatMul", node.name() + "_scores",
                                 {valueOf(args[0], node), valueOf(args[1], node)}, base + "_scores")
                             .output(0);
    if (args[4].isNode())
      scores = addStep(divide->toInt() != 0 ? "Div" : "Mul", node.name() + "_scaled",
                       {scores, valueOf(args[4], node)}, base + "_scaled")
                   .output(0);
    if (args[3].isNode())
      scores = addStep("Add", node.name() + "_masked", {scores, valueOf(args[3], node)},
                       base + "_masked")
                   .output(0);
    NodeProto& softmax =
        addStep("Softmax", node.name() + "_softmax", {scores}, base + "_probabilities");
    writeAttributes({{"axis", *axis}}, softmax, node);
    NodeProto& last = *graph_->add_node();
    last.set_op_type("MatMul");
    last.set_name(node.name());
    last.add_input(softmax.output(0));
    last.add_input(valueOf(args[2], node));
    setOutputs(node, last, nullptr);
  }

  // fxc.QLinearLookup (quant-lower's table for Q(f(DQ(x))) with an elementwise f) is written as
  // the ops that index the table: Gather(table, Cast(x, int32) + offset), offset = r·256 −
  // min(x's type) for row r: one row, or one per index along `axis` (a [rows, 1, …] constant
  // that broadcasts there). Exact; valid at every opset.
  void emitLookup(const ir::Node& node) {
    auto refuse = [&](const std::string& why) {
      throw ModelError("node '" + node.name() + "': QLinearLookup " + why);
    };
    if (node.args().size() != 2 || !node.args()[0].isNode() || !node.args()[1].isNode())
      refuse("takes (x, table)");
    const ir::Node* x = node.args()[0].toNode();
    bool int8 = x->meta.dtype == "int8";
    if (!int8 && x->meta.dtype != "uint8") refuse("of a value not known to be int8 or uint8");
    const ir::Node* table_node = node.args()[1].toNode();
    auto table =
        table_node->op() == ir::Opcode::kGetAttr ? gm_.findTensor(table_node->target()) : nullptr;
    if (!table || table->numel() == 0 || table->numel() % 256 != 0 || table->dims.size() != 1)
      refuse("with a table that is not a constant of rows of 256");
    int64_t rows = table->numel() / 256, axis = -1;
    if (rows > 1) {
      const ir::Argument* a = node.kwarg("axis");
      size_t rank = x->meta.shape ? x->meta.shape->size() : 0;
      if (!a || a->kind() != ir::Argument::Kind::kInt) refuse("without an axis for its rows");
      axis = a->toInt() < 0 || rank == 0 ? a->toInt() : a->toInt() - static_cast<int64_t>(rank);
      if (axis >= 0) refuse("with an axis counted from the front of a value of unknown rank");
    }
    std::vector<int32_t> offsets(static_cast<size_t>(rows));
    for (size_t r = 0; r < offsets.size(); ++r)
      offsets[r] = static_cast<int32_t>(r * 256 + (int8 ? 128 : 0));
    std::vector<int64_t> dims;  // [rows, 1, …] to broadcast along the axis; a scalar for one row
    if (rows > 1) {
      dims = {rows};
      dims.resize(static_cast<size_t>(-axis), 1);
    }
    auto offset = madeTensor(ir::DType::kInt32, std::move(dims), offsets.data(),
                             offsets.size() * sizeof(int32_t));
    std::string base = value_.at(&node);
    NodeProto& cast =
        addStep("Cast", node.name() + "_index", {valueOf(node.args()[0], node)}, base + "_index");
    writeAttributes({{"to", ir::Argument(int64_t{6})}}, cast, node);  // TensorProto.INT32
    std::string row = addStep("Add", node.name() + "_row",
                              {cast.output(0), tensorName(offset, base + "_offset")}, base + "_row")
                          .output(0);
    NodeProto& gather = *graph_->add_node();
    gather.set_op_type("Gather");
    gather.set_name(node.name());
    gather.add_input(valueOf(node.args()[1], node));
    gather.add_input(row);
    setOutputs(node, gather, nullptr);
  }

  void emitModule(const ir::Node& node) {
    const ir::Module* module = gm_.findModule(node.target());
    if (!module) throw ModelError("node '" + node.name() + "': no module " + node.target());
    const NodeRecord* record = recordOf(node);
    if (record && !record->protos.empty()) {
      // The original op(s): rename the values that come from outside, and the one leaving.
      std::unordered_map<std::string, std::string> rename;
      size_t next_arg = 0;
      for (const auto& [value, binding] : record->inputs) {
        if (binding == "arg") {
          if (next_arg >= node.args().size())
            throw ModelError("node '" + node.name() + "': fewer args than its record");
          rename[value] = valueOf(node.args()[next_arg++], node);
        } else {
          auto tensor = module->tensor(binding);
          if (!tensor)
            throw ModelError("node '" + node.name() + "': module " + node.target() +
                             " has no tensor " + binding);
          rename[value] = tensorName(tensor, node.target() + "." + binding);
        }
      }
      std::string leaving =
          record->value.empty() ? record->protos.back()->output(0) : record->value;
      rename[leaving] = value_.at(&node);
      for (const auto& proto : record->protos) {
        NodeProto& out = *graph_->add_node();
        out.CopyFrom(*proto);
        for (auto& input : *out.mutable_input()) {
          auto it = rename.find(input);
          if (it != rename.end()) input = it->second;
        }
        if (record->protos.size() == 1) {
          setOutputs(node, out, proto.get());
        } else {
          for (auto& output : *out.mutable_output()) {
            auto it = rename.find(output);
            if (it != rename.end()) output = it->second;
          }
        }
      }
      return;
    }
    // Fused convolutions and BatchNorms (conv-relu, conv-add-relu, bn-relu) are written back as
    // their plain ops.
    if (module->type() == "ConvReLU2d" || module->type() == "ConvAddReLU2d" ||
        module->type() == "BNReLU2d") {
      bool residual = module->type() == "ConvAddReLU2d";
      bool bn = module->type() == "BNReLU2d";
      if (node.args().size() != (residual ? 2u : 1u))
        throw ModelError("node '" + node.name() + "': " + module->type() + " takes " +
                         (residual ? "2 arguments" : "1 argument"));
      std::string base = value_.at(&node);
      NodeProto& first =
          emitModuleOp(node, *module, bn ? "BatchNormalization" : "Conv", {node.args()[0]});
      first.add_output(unique(base + (bn ? "_bn" : "_conv")));
      std::string last = first.output(0);
      if (residual) {
        NodeProto& add = *graph_->add_node();
        add.set_op_type("Add");
        add.set_name(node.name() + "_add");
        add.add_input(last);
        add.add_input(valueOf(node.args()[1], node));
        add.add_output(unique(base + "_add"));
        last = add.output(0);
      }
      NodeProto& relu = *graph_->add_node();
      relu.set_op_type("Relu");
      relu.set_name(node.name() + "_relu");
      relu.add_input(last);
      setOutputs(node, relu, nullptr);
      return;
    }
    if (module->type() == "ConvAct2d" || module->type() == "LinearAct") {
      emitFusedActivation(node, *module);
      return;
    }
    // A Linear made by a pass (linear-bias) on an input not known to be a matrix: MatMul and
    // Add, as LinearAct's product, since Gemm takes rank 2 only (a Gemm of x [2, 3, 8] was an
    // invalid model that ONNX Runtime refuses to load).
    if (module->type() == "Linear" && node.args().size() == 1) {
      const ir::Argument& x = node.args()[0];
      auto rank2 = [](const ir::Node& n) { return n.meta.shape && n.meta.shape->size() == 2; };
      bool matrix = rank2(node) || (x.isNode() && rank2(*x.toNode()));  // the same rank
      if (!matrix) {
        setOutputs(node, emitLinearProduct(node, *module, module->attributes(), value_.at(&node)),
                   nullptr);
        return;
      }
    }
    // A module made by a pass: its type says the op, its tensors the parameter inputs.
    std::string op = opForModuleType(module->type());
    if (op.empty())
      throw ModelError("node '" + node.name() + "': no ONNX op for module type " + module->type());
    NodeProto& out = emitModuleOp(node, *module, op, node.args());
    setOutputs(node, out, nullptr);
  }

  // ConvAct2d (conv-act) and LinearAct (linear-act) written back as their ops, at the model's
  // opset: the Conv, or the Linear as MatMul (of the weight as stored, or through a Transpose of
  // it when transB) and the Add of its bias — valid at any rank of the input, which Gemm is not;
  // then the activation — Clip (bounds as inputs from opset 11, as attributes before, as the
  // module had them), LeakyRelu, Sigmoid, Tanh, Relu, HardSwish (opset 14+; before,
  // HardSigmoid(1/6, 1/2) · x), SiLU as Sigmoid · x, GELU as its formula in plain ops.
  void emitFusedActivation(const ir::Node& node, const ir::Module& module) {
    const std::string& fused_type = module.type();
    bool linear = fused_type == "LinearAct";
    if (node.args().size() != 1)
      throw ModelError("node '" + node.name() + "': " + fused_type + " takes 1 argument");
    ir::Kwargs conv_attributes, activation_attributes;
    std::string activation =
        splitActivation(module.attributes(), conv_attributes, activation_attributes);
    if (activation.empty() || activation == "?")
      throw ModelError("node '" + node.name() + "': " + fused_type + " without its activation");
    std::string base = value_.at(&node);
    std::string x =
        linear ? emitLinearProduct(node, module, conv_attributes, base).output(0) : [&] {
          NodeProto& conv = emitModuleOp(node, module, "Conv", {node.args()[0]}, &conv_attributes);
          conv.add_output(unique(base + "_conv"));
          return conv.output(0);
        }();
    NodeProto& last = emitActivation(node, activation, activation_attributes, &module, x, base);
    setOutputs(node, last, nullptr);
  }

  // A fused node's attributes split: its `activation` (returned; "" when absent, "?" when not a
  // string), the activation's own (activation_*, the prefix dropped), and the rest.
  static std::string splitActivation(const ir::Kwargs& all, ir::Kwargs& rest,
                                     ir::Kwargs& activation_attributes) {
    static const std::string prefix = "activation_";
    std::string activation;
    for (const auto& [key, value] : all) {
      if (key == "activation")
        activation = value.kind() == ir::Argument::Kind::kString ? value.toString() : "?";
      else if (key.compare(0, prefix.size(), prefix) == 0)
        activation_attributes.emplace_back(key.substr(prefix.size()), value);
      else
        rest.emplace_back(key, value);
    }
    return activation;
  }

  // The ops of activation `activation` (a module type, its parameters in `attributes` and, for
  // Hardtanh's bounds, `module`'s activation_min/max tensors) on the value `x`; returns the last,
  // its output not yet named.
  NodeProto& emitActivation(const ir::Node& node, const std::string& activation,
                            const ir::Kwargs& activation_attributes, const ir::Module* module,
                            const std::string& x, const std::string& base) {
    static const std::string prefix = "activation_";
    auto op = [&](const std::string& type_name, const std::string& suffix,
                  std::vector<std::string> inputs) -> NodeProto& {
      NodeProto& out = *graph_->add_node();
      out.set_op_type(type_name);
      out.set_name(node.name() + suffix);
      for (const auto& input : inputs) out.add_input(input);
      return out;
    };
    int64_t opset = gm_.opset > 0 ? gm_.opset : 17;
    NodeProto* last = nullptr;
    auto gated = [&](NodeProto& gate) {  // x · gate(x)
      gate.add_output(unique(base + "_gate"));
      last = &op("Mul", "_mul", {x, gate.output(0)});
    };
    if (activation == "Hardtanh") {
      // The bounds' names first: a bound that was a Constant node is written where it is named.
      // A bound given as an attribute (a quantized convolution's, which has no module; a float,
      // as conv-relu and quant-lower write it) is an input from opset 11 on, as Clip takes it.
      std::vector<std::string> inputs = {x};
      ir::Kwargs attributes;
      for (const auto& [key, value] : activation_attributes) {
        bool bound = key == "min" || key == "max";
        if (bound && opset >= 11 && value.kind() == ir::Argument::Kind::kFloat) {
          inputs.resize(key == "min" ? 1 : 2);
          inputs.push_back(scalarName(static_cast<float>(value.toFloat()), "clip_" + key));
        } else {
          attributes.emplace_back(key, value);
        }
      }
      for (const char* bound : {"min", "max"}) {
        auto tensor = module ? module->tensor(prefix + bound) : nullptr;
        if (!tensor) continue;
        inputs.resize(std::string(bound) == "min" ? 1 : 2);
        inputs.push_back(tensorName(tensor, node.target() + "." + prefix + bound));
      }
      NodeProto& clip = op("Clip", "_clip", inputs);
      writeAttributes(attributes, clip, node);
      last = &clip;
    } else if (activation == "LeakyReLU") {
      last = &op("LeakyRelu", "_leaky_relu", {x});
      writeAttributes(activation_attributes, *last, node);
    } else if (activation == "Sigmoid" || activation == "Tanh") {
      last = &op(activation, "_" + std::string(activation == "Sigmoid" ? "sigmoid" : "tanh"), {x});
    } else if (activation == "Hardswish" && opset >= 14) {
      last = &op("HardSwish", "_hardswish", {x});
    } else if (activation == "Hardswish") {
      NodeProto& gate = op("HardSigmoid", "_hardsigmoid", {x});
      writeAttributes({{"alpha", ir::Argument(1.0 / 6)}, {"beta", ir::Argument(0.5)}}, gate, node);
      gated(gate);
    } else if (activation == "Hardsigmoid") {
      last = &op("HardSigmoid", "_hardsigmoid", {x});
      writeAttributes(activation_attributes, *last, node);
    } else if (activation == "SiLU") {
      gated(op("Sigmoid", "_sigmoid", {x}));
    } else if (activation == "ReLU") {
      last = &op("Relu", "_relu", {x});
    } else if (activation == "GELU") {
      // As ops every opset since 9 has (Gelu is opset 20's): exact, x · (erf(x / √2) + 1) · ½;
      // tanh, x · (tanh(√(2/π) · (x + 0.044715 · x³)) + 1) · ½.
      std::string approximate = "none";
      for (const auto& [key, value] : activation_attributes) {
        if (key == "approximate")
          approximate = value.kind() == ir::Argument::Kind::kString ? value.toString() : "?";
      }
      auto step = [&](const std::string& op_type, const std::string& suffix,
                      std::vector<std::string> inputs) {
        return addStep(op_type, node.name() + "_" + suffix, std::move(inputs), base + "_" + suffix)
            .output(0);
      };
      std::string gate;
      if (approximate == "none") {
        std::string scaled = step("Div", "div", {x, scalarName(std::sqrt(2.0f), "sqrt2")});
        gate = step("Erf", "erf", {scaled});
      } else if (approximate == "tanh") {
        std::string square = step("Mul", "square", {x, x});
        std::string cube = step("Mul", "cube", {square, x});
        std::string scaled_cube = step("Mul", "cube_scaled", {cube, scalarName(0.044715f, "c")});
        std::string inner = step("Add", "inner", {x, scaled_cube});
        std::string scaled = step(
            "Mul", "inner_scaled",
            {inner, scalarName(static_cast<float>(std::sqrt(2.0 / 3.14159265358979323846)), "k")});
        gate = step("Tanh", "tanh", {scaled});
      } else {
        throw ModelError("node '" + node.name() + "': GELU with approximate='" + approximate +
                         "', which export does not know");
      }
      std::string plus_one = step("Add", "add", {gate, scalarName(1.0f, "one")});
      std::string product = step("Mul", "mul", {x, plus_one});
      last = &op("Mul", "_half", {product, scalarName(0.5f, "half")});
    } else {
      throw ModelError("node '" + node.name() + "': " + "activation " + activation +
                       ", which export does not know");
    }
    return *last;
  }

  // A LinearAct's product: MatMul(x, W) or MatMul(x, Transpose(W)) when transB, then Add(bias)
  // when it has one. Returns the value it leaves.
  NodeProto& emitLinearProduct(const ir::Node& node, const ir::Module& module,
                               const ir::Kwargs& attributes, const std::string& base) {
    bool trans_b = false;
    for (const auto& [key, value] : attributes) {
      using K = ir::Argument::Kind;
      if (key == "transB" && value.kind() == K::kInt) {
        trans_b = value.toInt() != 0;
      } else if (!((key == "transA" && value.kind() == K::kInt && value.toInt() == 0) ||
                   ((key == "alpha" || key == "beta") && value.kind() == K::kFloat &&
                    value.toFloat() == 1.0))) {
        throw ModelError("node '" + node.name() + "': " + module.type() + " with attribute " + key +
                         ", which export does not write");
      }
    }
    auto weight = module.tensor("weight");
    if (!weight)
      throw ModelError("node '" + node.name() + "': " + module.type() + " without its weight");
    std::string w = tensorName(weight, node.target() + ".weight");
    if (trans_b) {
      NodeProto& transpose =
          addStep("Transpose", node.name() + "_weight_t", {w}, base + "_weight_t");
      writeAttributes(
          {{"perm", ir::Argument::list({ir::Argument(int64_t{1}), ir::Argument(int64_t{0})})}},
          transpose, node);
      w = transpose.output(0);
    }
    NodeProto& product =
        addStep("MatMul", node.name(), {valueOf(node.args()[0], node), w}, base + "_linear");
    auto bias = module.tensor("bias");
    if (!bias) return product;
    return addStep("Add", node.name() + "_bias",
                   {product.output(0), tensorName(bias, node.target() + ".bias")}, base + "_bias");
  }

  // A node `type` named `name` reading `inputs`, its one output a new value named after
  // `output`: a step of a fused module written back as its ops.
  NodeProto& addStep(const std::string& type, const std::string& name,
                     const std::vector<std::string>& inputs, const std::string& output) {
    NodeProto& out = *graph_->add_node();
    out.set_op_type(type);
    out.set_name(name);
    for (const auto& input : inputs) out.add_input(input);
    out.add_output(unique(output));
    return out;
  }

  // A tensor export makes (an initializer of the written model): `dtype`, `dims`, the bytes.
  std::shared_ptr<ir::Tensor> madeTensor(ir::DType dtype, std::vector<int64_t> dims,
                                         const void* data, size_t size) {
    auto tensor = std::make_shared<ir::Tensor>();
    tensor->dtype = dtype;
    tensor->dims = std::move(dims);
    tensor->setBytes(std::string(static_cast<const char*>(data), size));
    made_tensors_.push_back(tensor);
    return tensor;
  }

  // An initializer holding one float32 `value` (written once per value).
  const std::string& scalarName(float value, const std::string& fallback) {
    auto it = scalar_names_.find(value);
    if (it != scalar_names_.end()) return it->second;
    auto tensor = madeTensor(ir::DType::kFloat32, {}, &value, sizeof value);
    return scalar_names_.emplace(value, tensorName(tensor, fallback)).first->second;
  }

  // A node `op` reading `args` and then the module's tensors in the op's parameter slots, with
  // the module's attributes (or `attributes`); no outputs yet.
  NodeProto& emitModuleOp(const ir::Node& node, const ir::Module& module_ref, const std::string& op,
                          const std::vector<ir::Argument>& args,
                          const ir::Kwargs* attributes = nullptr) {
    const ir::Module* module = &module_ref;
    NodeProto& out = *graph_->add_node();
    out.set_op_type(op);
    out.set_name(node.name());
    for (const auto& arg : args) out.add_input(valueOf(arg, node));
    const auto& slots = parameterSlots(op);
    for (size_t i = 1; i < slots.size(); ++i) {
      if (slots[i].empty()) continue;
      auto tensor = module->tensor(slots[i]);
      if (tensor) {
        while (out.input_size() < static_cast<int>(i)) out.add_input("");
        out.add_input(tensorName(tensor, node.target() + "." + slots[i]));
      }
    }
    writeAttributes(attributes ? *attributes : module->attributes(), out, node);
    return out;
  }

  // Every domain a node uses is imported: a rewrite may bring ops of a domain the source model
  // did not use (quant-lower's com.microsoft.QLinearAdd, version 1).
  static void importDomains(::onnx::ModelProto& model) {
    std::set<std::string> imported;
    for (const auto& opset : model.opset_import())
      imported.insert(opset.domain() == "ai.onnx" ? "" : opset.domain());
    for (const auto& node : model.graph().node()) {
      std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
      if (!domain.empty() && imported.insert(domain).second) {
        auto* opset = model.add_opset_import();
        opset->set_domain(domain);
        opset->set_version(1);
      }
    }
  }

  void emitOutputs(const ir::Node& node) {
    if (node.args().empty()) return;
    std::vector<ir::Argument> results;
    const ir::Argument& result = node.args()[0];
    if (result.isSequence())
      results = result.items();
    else
      results.push_back(result);
    for (size_t k = 0; k < results.size(); ++k) {
      const std::string& value = valueOf(results[k], node);
      ::onnx::ValueInfoProto* output = graph_->add_output();
      bool known = static_cast<int>(k) < original_outputs_.size();
      if (known) output->CopyFrom(original_outputs_.Get(static_cast<int>(k)));
      std::string name = known ? output->name() : value;
      if (name != value) {
        // The value is an input, a constant, or already another output: pass it through.
        name = unique(name);
        NodeProto& identity = *graph_->add_node();
        identity.set_op_type("Identity");
        identity.set_name(name);
        identity.add_input(value);
        identity.add_output(name);
      }
      output->set_name(name);
    }
  }

  const ir::GraphModule& gm_;
  bool defer_;
  std::vector<std::shared_ptr<const ir::Tensor>> deferred_;
  ::onnx::GraphProto* graph_ = nullptr;
  google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> original_inputs_;
  google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> original_outputs_;
  std::unordered_map<const ir::Node*, std::string> value_;
  std::unordered_set<std::string> taken_;
  std::unordered_map<const ir::Tensor*, std::string> tensor_names_;
  // The scalars export itself writes (a GELU's constants before opset 20), by value.
  std::map<float, std::string> scalar_names_;
  std::vector<std::shared_ptr<ir::Tensor>> made_tensors_;
  std::unordered_map<const ir::Tensor*, std::string> tensor_paths_;  // the first get_attr target
  std::unordered_map<std::string, std::string> alias_names_;         // other targets: Identity
};

}  // namespace

void ExportedModel::materialize() {
  auto& initializers = *proto->mutable_graph()->mutable_initializer();
  for (size_t i = 0; i < deferred.size() && i < static_cast<size_t>(initializers.size()); ++i) {
    if (deferred[i])
      initializers[static_cast<int>(i)].set_raw_data(deferred[i]->bytes(), deferred[i]->byteSize());
  }
  deferred.clear();
}

Expected<ExportedModel> exportModel(const ir::GraphModule& gm, bool defer_data) {
  try {
    Exporter exporter(gm, defer_data);
    auto proto = exporter.run();
    exporter.deferred().resize(static_cast<size_t>(proto->graph().initializer_size()));
    return ExportedModel{std::move(proto), std::move(exporter.deferred())};
  } catch (const ModelError& error) {
    return Error{"cannot export: " + std::string(error.what())};
  }
}

Expected<bool> checkModelFile(const std::string& path) {
  try {
    ::onnx::checker::check_model(path);
  } catch (const std::exception& error) {
    return Error{std::string("the ONNX checker rejects the written model: ") + error.what()};
  }
  return true;
}

Expected<bool> checkModel(const ::onnx::ModelProto& model) {
  try {
    ::onnx::checker::check_model(model);
  } catch (const std::exception& error) {
    return Error{std::string("the ONNX checker rejects the model: ") + error.what()};
  }
  return true;
}

}  // namespace fxc::onnx
