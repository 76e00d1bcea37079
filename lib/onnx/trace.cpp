// ONNX → FX: placeholders for graph inputs, typed modules for ops with weights (and for
// weightless ops that are a module of their own in the exporter's scope names), call_function
// with stable targets otherwise, get_attr for free constants, getitem for multi-output ops.
#include "onnx/trace.h"

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "ir/flat_map.h"
#include "ir/name_space.h"
#include "onnx/node_info.h"
#include "onnx/op_table.h"
#include "onnx/recognize.h"
#include "onnx/scopes.h"
#include "onnx/shape_inference.h"

namespace fxc::onnx {
namespace {

using ::onnx::AttributeProto;
using ::onnx::NodeProto;

class Tracer {
 public:
  Tracer(LoadedModel model, const TraceOptions& options)
      : model_(std::move(model)), options_(options), gm_(std::make_unique<ir::GraphModule>()) {}

  std::unique_ptr<ir::GraphModule> run() {
    auto& graph = *model_.proto->mutable_graph();
    if (options_.inline_functions) {  // first: inlining imports the bodies' opsets
      auto inlined = inlineFunctions(*model_.proto);
      if (!inlined) throw ModelError(inlined.error());
    }
    readOpsets();
    gm_->opset = default_opset_;  // recognition reads it
    // The shapes a model declares for its intermediate values and outputs are claims nothing
    // checks (ONNX Runtime runs a model whose value_info contradicts its ops): the passes would
    // prove rewrites from them (a channel shuffle or a Linear's bias taken for another rank, an
    // attention's softmax axis for the last: wrong numbers). Only the inputs' shapes, which a run
    // checks, stay; everything else is inferred from them or unknown. The element types stay, and
    // the outputs' declarations come back for export once the graph is traced.
    google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> declared_outputs = graph.output();
    if (!options_.declared_shapes) {
      for (auto& v : *graph.mutable_value_info()) forgetShape(v);
      for (auto& v : *graph.mutable_output()) forgetShape(v);
    }
    if (options_.infer_shapes || (options_.run_shapes && shapesGiven())) inferShapes();
    for (const auto& v : graph.value_info()) types_[v.name()] = &v.type();
    for (const auto& v : graph.input()) types_[v.name()] = &v.type();
    for (const auto& v : graph.output()) types_[v.name()] = &v.type();

    defineValues(graph);
    std::vector<int> order = sortNodes(graph);
    scopes_ = std::make_unique<ScopeIndex>(graph, order);

    for (int i = 0; i < graph.initializer_size(); ++i) {
      auto& init = *graph.mutable_initializer(i);
      for (const auto& entry : init.external_data()) {
        if (entry.key() == "location") data_files_.push_back(model_.base_dir + "/" + entry.value());
      }
      const RawSpan* span = static_cast<size_t>(i) < model_.initializer_bytes.size()
                                ? &model_.initializer_bytes[static_cast<size_t>(i)]
                                : nullptr;
      auto tensor =
          takeTensor(init, model_.base_dir, "initializer '" + init.name() + "'", &model_, span);
      if (!tensor) throw ModelError(tensor.error());
      tensor.value()->source_name = init.name();
      constants_[init.name()] = Constant{tensor.take(), init.name(), nullptr};
    }
    if (graph.sparse_initializer_size() > 0)
      throw ModelError("sparse initializer '" + graph.sparse_initializer(0).values().name() +
                       "' is not supported");
    for (const auto& input : graph.input()) {
      if (constants_.count(input.name())) continue;
      ir::Node* node = gm_->graph().placeholder(input.name());
      fillMeta(node->meta, &input.type());
      node->meta.source = NodeRecord{{}, {}, -1, input.name()};
      node->meta.value_name = input.name();
      values_.at(input.name()).node = node;
    }
    // Constants first: they make no node, and a module group may read one defined mid-region.
    std::unordered_set<int> aliases;
    for (int index : order) {
      if (traceAlias(*graph.mutable_node(index))) aliases.insert(index);
    }
    auto producer = [&](std::string_view value) {
      const Value* known = values_.find(value);
      return known ? known->producer : kGraphInput;
    };
    auto leaf_call = [&](const NodeProto& node) {
      return functions_.count(node.domain() + ":" + node.op_type()) != 0;
    };
    if (options_.recognize) {
      // A group's ops are traced one by one as functions, then replaced by the module where
      // onnx/recognize.h proves that they compute it. Only groups whose ops follow each other.
      std::vector<int> traced_order;
      for (int index : order) {
        if (!aliases.count(index)) traced_order.push_back(index);
      }
      std::vector<size_t> traced_position(static_cast<size_t>(graph.node_size()));
      for (size_t p = 0; p < traced_order.size(); ++p)
        traced_position[static_cast<size_t>(traced_order[p])] = p;
      for (auto& members : findModuleGroups(graph, order, *scopes_, producer, leaf_call)) {
        size_t first = traced_position[static_cast<size_t>(members.front())];
        if (traced_position[static_cast<size_t>(members.back())] - first + 1 != members.size())
          continue;
        for (int i : members) group_of_[i] = groups_.size();
        groups_.push_back(Group{std::move(members)});
      }
    }
    for (int index : order) {
      if (aliases.count(index)) continue;
      auto group = group_of_.find(index);
      if (group == group_of_.end()) {
        traceNode(*graph.mutable_node(index));
        continue;
      }
      const Group& g = groups_[group->second];
      if (g.members.front() == index) startGroup();
      traceNode(*graph.mutable_node(index), /*as_function=*/true);
      if (g.members.back() == index) finishGroup(graph, g);
    }

    std::vector<ir::Argument> results;
    for (const auto& output : graph.output()) results.emplace_back(valueNode(output.name()));
    gm_->graph().output(results.size() == 1 ? results[0] : ir::Argument::tuple(std::move(results)));

    graph.clear_initializer();
    *graph.mutable_output() = std::move(declared_outputs);  // types_ is not read after this
    gm_->source = ModelRecord{model_.proto, std::move(data_files_)};
    gm_->opset = default_opset_;
    return std::move(gm_);
  }

 private:
  std::vector<std::string> data_files_;  // ModelRecord::data_files
  struct Constant {
    std::shared_ptr<ir::Tensor> tensor;
    std::string path_hint;  // the initializer's own name, if it has one
    ir::Node* get_attr;     // made on first use as an argument
  };

  void readOpsets() {
    for (const auto& opset : model_.proto->opset_import()) {
      std::string domain = isDefaultDomain(opset.domain()) ? "" : opset.domain();
      opsets_[domain] = opset.version();
      domains_.insert(std::move(domain));
      if (isDefaultDomain(opset.domain())) default_opset_ = static_cast<int>(opset.version());
    }
    for (const auto& function : model_.proto->functions()) {
      functions_.insert(function.domain() + ":" + function.name());
    }
  }

  bool shapesGiven() const { return !options_.input_shapes.empty() || options_.batch > 0; }

  void inferShapes() {
    // Given input shapes: the inference runs with them, and the model gets its declared inputs
    // back: an export writes what the model declared, and the placeholders show it.
    auto& inputs = *model_.proto->mutable_graph()->mutable_input();
    bool override = shapesGiven();
    google::protobuf::RepeatedPtrField<::onnx::ValueInfoProto> declared;
    if (override && options_.run_shapes) forgetShapes(*model_.proto->mutable_graph());
    if (override) {
      declared = inputs;
      std::unordered_set<std::string> weights;  // old models list initializers as inputs too
      for (const auto& init : model_.proto->graph().initializer()) weights.insert(init.name());
      // Names the model does not have are the caller's to report (a usage error). An input is
      // named as in the model or as its placeholder will be (the same names, made in the same
      // order).
      ir::NameSpace placeholders;
      for (auto& input : inputs) {
        if (weights.count(input.name())) continue;
        std::string fx_name = placeholders.createName(input.name());
        auto* shape = input.mutable_type()->mutable_tensor_type()->mutable_shape();
        auto given = options_.input_shapes.find(input.name());
        if (given == options_.input_shapes.end()) given = options_.input_shapes.find(fx_name);
        if (given != options_.input_shapes.end()) {
          shape->clear_dim();
          for (int64_t d : given->second) shape->add_dim()->set_dim_value(d);
        } else if (options_.batch > 0 && shape->dim_size() > 0) {
          shape->mutable_dim(0)->set_dim_value(options_.batch);
        }
      }
    }
    // Shapes are an annotation: a model that shape inference cannot follow still traces.
    std::string why;
    if (!inferShapesIsolated(*model_.proto, why))
      spdlog::debug("ONNX's shape inference gave no shapes: {}", why);
    if (override && !options_.run_shapes) inputs = declared;
  }

  // Drops the shape of every value but the graph's inputs, here and in the subgraphs: the
  // element types stay.
  static void forgetShapes(::onnx::GraphProto& graph) {
    for (auto& v : *graph.mutable_value_info()) forgetShape(v);
    for (auto& v : *graph.mutable_output()) forgetShape(v);
    for (auto& node : *graph.mutable_node()) {
      for (auto& attr : *node.mutable_attribute()) {
        if (attr.has_g()) forgetSubgraphShapes(*attr.mutable_g());
        for (auto& g : *attr.mutable_graphs()) forgetSubgraphShapes(g);
      }
    }
  }
  static void forgetSubgraphShapes(::onnx::GraphProto& graph) {
    for (auto& v : *graph.mutable_input()) forgetShape(v);  // a body's inputs follow the outer ones
    forgetShapes(graph);
  }
  static void forgetShape(::onnx::ValueInfoProto& value) {
    auto* type = value.mutable_type();
    if (type->has_tensor_type()) type->mutable_tensor_type()->clear_shape();
  }

  // Every value defined once (graph inputs, initializers, node outputs) and every input defined
  // somewhere. Fills values_ with each value's producer and use count.
  static constexpr int kGraphInput = -1;
  static constexpr int kInitializer = -2;

  std::string definerText(const ::onnx::GraphProto& graph, int producer) const {
    if (producer == kGraphInput) return "graph input";
    if (producer == kInitializer) return "an initializer";
    return describe(graph.node(producer), static_cast<size_t>(producer));
  }

  void defineValues(const ::onnx::GraphProto& graph) {
    size_t n = static_cast<size_t>(graph.node_size());
    values_.reserve(n + static_cast<size_t>(graph.initializer_size() + graph.input_size()) + 16);
    for (const auto& init : graph.initializer()) {
      if (!values_.emplace(init.name(), Value{kInitializer}).second)
        throw ModelError("value '" + init.name() + "' is defined twice (by two initializers)");
    }
    std::unordered_set<std::string> inputs;
    for (const auto& input : graph.input()) {
      // An unnamed input or output is no value (ONNX's checker refuses it): read back, the
      // export's placeholder name would not be the output's.
      if (input.name().empty()) throw ModelError("a graph input has no name");
      if (!inputs.insert(input.name()).second)
        throw ModelError("graph input '" + input.name() + "' is declared twice");
      values_.emplace(input.name(), Value{kGraphInput});  // an input may also be an initializer
    }
    for (int i = 0; i < graph.node_size(); ++i) {
      const NodeProto& node = graph.node(i);
      bool default_domain = isDefaultDomain(node.domain());
      if (!domains_.count(default_domain ? "" : node.domain()) &&
          !functions_.count(node.domain() + ":" + node.op_type()))
        throw ModelError(describe(node, static_cast<size_t>(i)) + ": domain '" + node.domain() +
                         "' is not imported by the model (opset_import)");
      // fxc names a call by domain.op and its default-domain ops onnx.*, torch.*, operator.*:
      // a model's own domain of those names would read as one of them (torch::relu as Relu).
      const std::string& domain = node.domain();
      if (!default_domain &&
          (domain == "onnx" || domain == "torch" || domain == "operator" || domain == "builtins" ||
           domain == "fxc" || domain.compare(0, 6, "torch.") == 0))
        throw ModelError(describe(node, static_cast<size_t>(i)) + ": domain '" + domain +
                         "' is reserved (fxc's own names for ops begin with it)");
      if (!functions_.count(node.domain() + ":" + node.op_type()))
        verifySchema(node, static_cast<size_t>(i));
      for (const auto& output : node.output()) {
        if (output.empty()) continue;
        auto [existing, fresh] = values_.emplace(output, Value{i});
        if (!fresh)
          throw ModelError("value '" + output + "' is defined twice: by " +
                           definerText(graph, existing->producer) + " and by " +
                           describe(node, static_cast<size_t>(i)));
      }
    }
    for (int i = 0; i < graph.node_size(); ++i) {
      const NodeProto& node = graph.node(i);
      for (const auto& input : node.input()) {
        if (input.empty()) continue;
        Value* value = values_.find(input);
        if (!value)
          throw ModelError(describe(node, static_cast<size_t>(i)) + ": input '" + input +
                           "' is not a graph input, an initializer or any node's output");
        ++value->uses;
      }
      if (!hasSubgraphs(node)) continue;
      for (const auto& captured : capturesOf(node)) {
        Value* value = values_.find(captured);
        if (!value)
          throw ModelError(describe(node, static_cast<size_t>(i)) + ": a subgraph reads '" +
                           std::string(captured) + "', which is defined nowhere");
        ++value->uses;
      }
    }
    for (const auto& output : graph.output()) {
      if (output.name().empty()) throw ModelError("a graph output has no name");
      Value* value = values_.find(output.name());
      if (!value)
        throw ModelError("graph output '" + output.name() + "' is not produced by any node");
      ++value->uses;
    }
  }

  // ONNX's own check of a node against its op's schema, as ONNX Runtime makes it when it loads a
  // model: how many inputs and outputs, a required input left empty, each attribute's name and
  // type, the required attributes. Without it a misspelt attribute (`stride` for `strides`) was
  // ignored and its default used: a different function, without a word. Ops of a domain this
  // build's ONNX has no schemas for, or of an opset newer than it knows (its newest schema of
  // the op could be an older signature), are left to the kernels' own checks.
  void verifySchema(const NodeProto& node, size_t index) const {
    std::string domain = isDefaultDomain(node.domain()) ? "" : node.domain();
    auto version = opsets_.find(domain);
    if (version == opsets_.end()) return;
    const auto& known = ::onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    auto range = known.find(domain);
    if (range == known.end() || version->second > range->second.second) return;
    const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(
        node.op_type(), static_cast<int>(version->second), domain);
    if (!schema) return;
    std::string op = node.op_type() + "-" + std::to_string(schema->SinceVersion());
    for (const auto& attr : node.attribute()) {  // ONNX's message names neither type
      auto formal = schema->attributes().find(attr.name());
      if (formal != schema->attributes().end() && attr.type() != formal->second.type)
        throw ModelError(describe(node, index) + ": attribute '" + attr.name() + "' is " +
                         AttributeProto::AttributeType_Name(attr.type()) + ", where " + op +
                         " has " + AttributeProto::AttributeType_Name(formal->second.type));
    }
    try {
      schema->Verify(node);
    } catch (const std::exception& error) {
      std::string why = error.what();
      // ONNX names the node as "Node (name)"; fxc's description names it already.
      std::string prefix = "Node (" + node.name() + ") ";
      if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
      while (!why.empty() && (why.back() == '\n' || why.back() == '.')) why.pop_back();
      throw ModelError(describe(node, index) + ": not a valid " + op + " (ONNX's schema): " + why);
    }
  }

  // Kahn's algorithm, keeping the file's order where it is already topological.
  std::vector<int> sortNodes(const ::onnx::GraphProto& graph) {
    size_t n = static_cast<size_t>(graph.node_size());
    // Edges producer → consumer in compressed rows: one pass to count, one to fill.
    std::vector<int> pending(n, 0);
    std::vector<size_t> row(n + 1, 0);
    auto forEachEdge = [&](auto&& edge) {
      for (int i = 0; i < graph.node_size(); ++i) {
        const NodeProto& node = graph.node(i);
        auto depend = [&](std::string_view input) {
          const Value* value = values_.find(input);
          if (value && value->producer >= 0) edge(value->producer, i);
        };
        for (const auto& input : node.input()) depend(input);
        if (hasSubgraphs(node)) {
          for (const auto& c : capturesOf(node)) depend(c);
        }
      }
    };
    forEachEdge([&](int from, int to) {
      ++row[static_cast<size_t>(from) + 1];
      ++pending[static_cast<size_t>(to)];
    });
    for (size_t i = 0; i < n; ++i) row[i + 1] += row[i];
    std::vector<int> dependents(row[n]);
    std::vector<size_t> fill(row.begin(), row.end() - 1);
    forEachEdge([&](int from, int to) { dependents[fill[static_cast<size_t>(from)]++] = to; });
    std::vector<int> order;
    order.reserve(n);
    // Ready nodes leave lowest index first, so that a file already in topological order keeps
    // its order exactly and any other is changed as little as possible.
    std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
    for (size_t i = 0; i < n; ++i) {
      if (pending[i] == 0) ready.push(static_cast<int>(i));
    }
    while (!ready.empty()) {
      int i = ready.top();
      ready.pop();
      order.push_back(i);
      for (size_t e = row[static_cast<size_t>(i) + 1]; e-- > row[static_cast<size_t>(i)];) {
        int next = dependents[e];
        if (--pending[static_cast<size_t>(next)] == 0) ready.push(next);
      }
    }
    if (order.size() != n) {
      for (size_t i = 0; i < n; ++i) {
        if (pending[i] > 0)
          throw ModelError("graph has a cycle through " +
                           describe(graph.node(static_cast<int>(i)), i));
      }
    }
    return order;
  }

  bool isConstant(std::string_view value) const { return constants_.count(value) != 0; }

  ir::Node* constantNode(std::string_view value) {
    Constant& constant = constants_.at(value);
    if (constant.get_attr) return constant.get_attr;
    std::string path;
    if (!constant.path_hint.empty()) {
      auto atoms = splitDots(constant.path_hint);
      for (auto& atom : atoms) atom = sanitizeAtom(atom);
      if (std::isdigit(static_cast<unsigned char>(atoms[0][0]))) atoms[0].insert(0, "_");
      path = joinDots(atoms, atoms.size());
    } else {
      path = "_tensor_constant" + std::to_string(tensor_constants_++);
    }
    // A free constant never becomes a tensor of an op's module ("head.bias" beside a Linear
    // "head" made from a MatMul): the module's kernel would read it as its own bias and add it
    // a second time. Unless it already is that module's tensor, it goes beside the module.
    if (gm_->findTensor(path) != constant.tensor) {
      for (size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
        const ir::Module* owner = gm_->findModule(path.substr(0, dot));
        if (owner && owner->type() != "Module") {
          std::replace(path.begin(), path.end(), '.', '_');
          break;
        }
      }
    }
    std::string base = path;
    for (int n = 1;; ++n) {
      auto existing = gm_->findTensor(path);
      if (existing == constant.tensor ||
          (!existing && !gm_->findModule(path) && !ir::isReservedName(path)))
        break;
      path = base + "_" + std::to_string(n);
    }
    gm_->setTensor(path, constant.tensor);
    constant.get_attr = gm_->graph().getAttr(path);
    if (in_group_) group_constants_.push_back(value);
    constant.get_attr->meta.dtype = std::string(ir::dtypeName(constant.tensor->dtype));
    std::vector<std::string> dims;
    for (int64_t d : constant.tensor->dims) dims.push_back(std::to_string(d));
    constant.get_attr->meta.shape = std::move(dims);
    return constant.get_attr;
  }

  ir::Argument valueNode(std::string_view value) {
    if (value.empty()) return ir::Argument();
    if (const Value* known = values_.find(value); known && known->node)
      return ir::Argument(known->node);
    return ir::Argument(constantNode(value));
  }

  // Constant and Identity-of-constant produce no node: their outputs alias a constant tensor.
  bool traceAlias(NodeProto& node) {
    if (!mayAliasConstant(node) || node.output_size() != 1) return false;
    if (node.op_type() == "Identity") {
      if (node.input_size() != 1 || !isConstant(node.input(0))) return false;
      Constant alias = constants_.at(node.input(0));
      alias.path_hint = node.output(0);  // the exporter's name for the de-duplicated parameter
      alias.get_attr = nullptr;
      constants_[node.output(0)] = std::move(alias);
      return true;
    }
    if (node.attribute_size() != 1) return false;
    AttributeProto& attr = *node.mutable_attribute(0);
    auto tensor = std::make_shared<ir::Tensor>();
    auto scalar = [&](ir::DType dtype, const void* data, size_t size, std::vector<int64_t> dims) {
      tensor->dtype = dtype;
      tensor->dims = std::move(dims);
      tensor->setBytes(std::string(static_cast<const char*>(data), size));
    };
    const std::string& name = attr.name();
    std::string tensor_name = attr.has_t() ? attr.t().name() : "";
    if (name == "value" && attr.has_t()) {
      auto taken =
          takeTensor(*attr.mutable_t(), model_.base_dir, "Constant '" + node.output(0) + "'");
      if (!taken) throw ModelError(taken.error());
      tensor = taken.take();
    } else if (name == "value_float") {
      float v = attr.f();
      scalar(ir::DType::kFloat32, &v, 4, {});
    } else if (name == "value_int") {
      int64_t v = attr.i();
      scalar(ir::DType::kInt64, &v, 8, {});
    } else if (name == "value_floats") {
      scalar(ir::DType::kFloat32, attr.floats().data(), 4 * static_cast<size_t>(attr.floats_size()),
             {attr.floats_size()});
    } else if (name == "value_ints") {
      scalar(ir::DType::kInt64, attr.ints().data(), 8 * static_cast<size_t>(attr.ints_size()),
             {attr.ints_size()});
    } else if (name == "value_string") {
      tensor->dtype = ir::DType::kString;
      tensor->strings = {attr.s()};
    } else if (name == "value_strings") {
      tensor->dtype = ir::DType::kString;
      tensor->dims = {attr.strings_size()};
      tensor->strings.assign(attr.strings().begin(), attr.strings().end());
    } else {
      return false;  // sparse_value: kept as a plain call
    }
    tensor->source_name = node.output(0);
    tensor->from_constant_node = true;
    tensor->source_node = node.name();
    tensor->constant_attribute = name;
    tensor->constant_tensor_name = tensor_name;
    constants_[node.output(0)] = Constant{std::move(tensor), "", nullptr};
    return true;
  }

  // The module path for an op in scope `elements`, merging each element with the path so far
  // (each names a module relative to an ancestor) and folding repeated calls (relu_1 → relu).
  std::string scopePath(const std::vector<std::string>& elements) {
    std::vector<std::string> path;
    for (const std::string& element : elements) {
      auto atoms = splitDots(element);
      for (auto& atom : atoms) {
        if (atom.empty()) atom = "_";
      }
      size_t overlap = 0;
      for (size_t k = std::min(path.size(), atoms.size() - 1); k > 0; --k) {
        if (std::equal(path.end() - static_cast<std::ptrdiff_t>(k), path.end(), atoms.begin())) {
          overlap = k;
          break;
        }
      }
      for (size_t a = overlap; a < atoms.size(); ++a) {
        std::string atom = atoms[a];
        size_t underscore = atom.rfind('_');
        if (underscore != std::string::npos && underscore > 0 && underscore + 1 < atom.size() &&
            atom.find_first_not_of("0123456789", underscore + 1) == std::string::npos) {
          std::string prefix = joinDots(path, path.size());
          std::string base = atom.substr(0, underscore);
          std::string with_base = prefix.empty() ? base : prefix + "." + base;
          std::string as_is = prefix.empty() ? atom : prefix + "." + atom;
          if (gm_->findModule(with_base) && !gm_->findModule(as_is)) atom = base;
        }
        path.push_back(atom);
      }
    }
    return joinDots(path, path.size());
  }

  int spatialRank(const NodeProto& node) {
    if (node.op_type() == "Conv" || node.op_type() == "ConvTranspose") {
      if (node.input_size() > 1 && isConstant(node.input(1)))
        return static_cast<int>(constants_.at(node.input(1)).tensor->dims.size()) - 2;
    }
    if (node.input_size() > 0) {
      const ::onnx::TypeProto* type = typeOf(node.input(0));
      if (type && type->tensor_type().has_shape())
        return type->tensor_type().shape().dim_size() - 2;
      const Value* producer = values_.find(node.input(0));
      if (producer && producer->node && producer->node->op() == ir::Opcode::kCallModule) {
        const std::string& t = gm_->findModule(producer->node->target())->type();
        if (t.size() > 2 && t.compare(t.size() - 1, 1, "d") == 0 &&
            std::isdigit(static_cast<unsigned char>(t[t.size() - 2])))
          return t[t.size() - 2] - '0';
      }
    }
    return -1;
  }

  // A module call about to be emitted: tensors are (local name, ONNX value), args ONNX values.
  struct ModuleCall {
    std::string path;
    std::string type;
    ir::Kwargs attributes;
    std::vector<std::pair<std::string, std::string>> tensors;
    std::vector<std::string> args;
  };

  // Which inputs an op binds as module tensors, or nothing when it is not a weighted call.
  std::optional<ModuleCall> weightedCall(const NodeProto& node) {
    const auto& slots = parameterSlots(node.op_type());
    if (slots.empty() || !isDefaultDomain(node.domain())) return std::nullopt;
    ModuleCall call;
    bool has_defining_weight = false;
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string& input = node.input(i);
      size_t index = static_cast<size_t>(i);
      if (input.empty()) continue;
      std::string slot = index < slots.size() ? slots[index] : "";
      if (slot.empty()) {
        call.args.push_back(input);
        continue;
      }
      if (!isConstant(input)) return std::nullopt;
      // A Linear's weight is a matrix: MatMul with a 1-D or 3-D constant stays a product.
      if (node.op_type() == "MatMul" && constants_.at(input).tensor->dims.size() != 2)
        return std::nullopt;
      call.tensors.emplace_back(slot, input);
      has_defining_weight = has_defining_weight || requiresConstant(node.op_type(), index);
    }
    if (!has_defining_weight) return std::nullopt;
    return call;
  }

  // A weightless op that is a module of its own: its inputs after the first become buffers, named
  // by the op schema (Clip's min/max, Resize's scales, ...). Only when every one is a constant:
  // the module's kernel reads a buffer by name and an argument by its position, so a value among
  // them (Clip's max computed, its min constant) would shift into the wrong slot; such an op stays
  // a call_function, every input in its ONNX position.
  std::optional<ModuleCall> bufferedCall(const NodeProto& node) {
    ModuleCall call;
    const ::onnx::OpSchema* schema =
        nullptr;  // looked up only when needed: the registry is slow to build
    for (int i = 0; i < node.input_size(); ++i) {
      size_t index = static_cast<size_t>(i);
      const std::string& input = node.input(i);
      if (input.empty()) continue;
      if (i == 0) {
        call.args.push_back(input);
        continue;
      }
      if (!isConstant(input)) return std::nullopt;
      std::string name = "input" + std::to_string(i);
      if (!schema)
        schema = ::onnx::OpSchemaRegistry::Schema(node.op_type(), default_opset_, node.domain());
      if (schema && index < schema->inputs().size() &&
          schema->inputs()[index].GetOption() != ::onnx::OpSchema::Variadic)
        name = ir::snakeCase(schema->inputs()[index].GetName());
      call.tensors.emplace_back(name, input);
    }
    return call;
  }

  // A path for a module with no usable scope: from its weight's name ("fc.weight" → "fc"), else
  // from the op ("conv", "conv_1", ...).
  std::string pathWithoutScope(const NodeProto& node, const ModuleCall& call) {
    if (!call.tensors.empty()) {
      const auto& [local, value] = call.tensors.front();
      const std::string& hint = constants_.at(value).path_hint;
      std::string suffix = "." + local;
      if (hint.size() > suffix.size() &&
          hint.compare(hint.size() - suffix.size(), suffix.size(), suffix) == 0) {
        auto atoms = splitDots(hint.substr(0, hint.size() - suffix.size()));
        for (auto& atom : atoms) atom = sanitizeAtom(atom);
        if (std::isdigit(static_cast<unsigned char>(atoms[0][0]))) atoms[0].insert(0, "_");
        std::string path = joinDots(atoms, atoms.size());
        if (!gm_->findModule(path)) return path;
      }
    }
    return module_names_.createName(ir::snakeCase(node.op_type()));
  }

  // Emits the call_module, creating the module unless this is the same module called again
  // (same path and type, same tensors), and renaming it when another module holds the path.
  ir::Node* emitModuleCall(ModuleCall call, NodeRecord& record) {
    const ir::Module* existing = gm_->findModule(call.path);
    // Same attributes too: two ops in one scope may differ only there (a Softmax's axis).
    bool repeat = existing && existing->type() == call.type && existing->children().empty() &&
                  ir::pyRepr(existing->attributes()) == ir::pyRepr(call.attributes);
    for (const auto& [local, value] : call.tensors) {
      repeat = repeat && existing->tensor(local) == constants_.at(value).tensor;
    }
    if (existing && !repeat) {
      std::string base = call.path;
      for (int n = 1; gm_->findModule(call.path); ++n) call.path = base + "_" + std::to_string(n);
    }
    if (!repeat) {
      ir::Module* module = gm_->addModule(call.path, call.type);
      module->attributes() = std::move(call.attributes);
      for (const auto& [local, value] : call.tensors)
        module->setTensor(local, constants_.at(value).tensor);
    }
    std::vector<ir::Argument> args;
    for (const auto& value : call.args) {
      args.push_back(valueNode(value));
      record.inputs.emplace_back(value, "arg");
    }
    for (const auto& [local, value] : call.tensors) record.inputs.emplace_back(value, local);
    return gm_->graph().callModule(call.path, std::move(args));
  }

  // `as_function`: a call_function whatever the op (the ops of a group, before recognition).
  void traceNode(NodeProto& node, bool as_function = false) {
    NodeRecord record;
    std::string_view scope_key = scopeKey(node.name());
    bool leaf_scope = scopes_->isSingleOpLeaf(scope_key);
    bool local_function = functions_.count(node.domain() + ":" + node.op_type()) != 0;
    std::optional<ModuleCall> module_call;
    if (!as_function && !local_function && !hasSubgraphs(node)) {
      module_call = weightedCall(node);
      // An op with weights that weightedCall turned down (MatMul with a 1-D constant) is no
      // module with buffers either: that made it a Linear of a 1-D weight, which no kernel runs.
      if (!module_call && leaf_scope && isDefaultDomain(node.domain()) &&
          parameterSlots(node.op_type()).empty())
        module_call = bufferedCall(node);
    }

    ir::Node* call = nullptr;
    if (module_call) {
      module_call->type = moduleType(node, spatialRank(node));
      // An op torch.nn has no module for stays a call_function, its constants get_attr: a module
      // typed by the op name no kernel runs (a QAT export's weight DequantizeLinear in its
      // fake-quantize's scope, after --convert folded the weight).
      if (module_call->type.empty()) module_call.reset();
    }
    if (module_call) {
      bool weighted = !parameterSlots(node.op_type()).empty() && !module_call->tensors.empty();
      module_call->attributes = attributeKwargs(node);
      if (!scope_key.empty() && (leaf_scope || weighted))
        module_call->path = scopePath(scopeElements(node.name()));
      // A weight used directly in a container's forward (F.conv2d(x, self.weight)) gets a module
      // of its own below the container.
      if (!module_call->path.empty() && weighted && scopes_->hasChildren(scope_key))
        module_call->path += "." + ir::snakeCase(node.op_type());
      if (module_call->path.empty()) module_call->path = pathWithoutScope(node, *module_call);
      call = emitModuleCall(std::move(*module_call), record);
    } else {
      std::vector<ir::Argument> args;
      for (const auto& input : node.input()) {
        args.push_back(valueNode(input));
        if (!input.empty()) record.inputs.emplace_back(input, "arg");
      }
      ir::Kwargs kwargs = attributeKwargs(node);
      // A Split makes as many parts as it has outputs: the count is kept (num_outputs), since the
      // getitems show only the outputs that are read. A `split` list or num_outputs of another
      // count is refused here; sizes given as an operand, by the kernel against the count.
      if (node.op_type() == "Split" && isDefaultDomain(node.domain())) {
        bool sized_input = node.input_size() >= 2 && !node.input(1).empty();
        std::string who = node.name().empty() ? "the Split making '" + node.output(0) + "'"
                                              : "node '" + node.name() + "'";
        bool counted = false;
        bool sized_attribute = false;
        for (const auto& [key, value] : kwargs) {
          sized_attribute = sized_attribute || key == "split";
          size_t given = 0;
          if (key == "split" && value.isSequence()) given = value.items().size();
          if (key == "num_outputs" && value.kind() == ir::Argument::Kind::kInt) {
            given = static_cast<size_t>(std::max<int64_t>(value.toInt(), 0));
            counted = true;
            if (sized_input)
              throw ModelError(who + ": Split takes split or num_outputs, not both");
          }
          if ((key == "split" || key == "num_outputs") &&
              given != static_cast<size_t>(node.output_size()))
            throw ModelError(who + ": Split into " + std::to_string(given) + " parts has " +
                             std::to_string(node.output_size()) + " outputs");
        }
        if (!counted && !sized_attribute)
          kwargs.emplace_back("num_outputs", ir::Argument(int64_t{node.output_size()}));
      }
      if (hasSubgraphs(node)) {
        std::vector<ir::Argument> captured;
        for (const auto& name : capturesOf(node)) {
          captured.push_back(valueNode(name));
          record.inputs.emplace_back(name, "arg");
        }
        if (!captured.empty())
          kwargs.emplace_back("captures", ir::Argument::tuple(std::move(captured)));
      }
      std::string target =
          local_function ? node.domain() + "." + node.op_type() : functionTarget(node);
      call = gm_->graph().callFunction(target, std::move(args), std::move(kwargs));
      if (hasSubgraphs(node)) traceSubgraphs(node, *call);
    }
    // The record shares ownership of the model rather than copying the node out of it.
    record.protos.emplace_back(model_.proto, &node);
    keepTensorAttributes(node, *call);
    bindOutputs(call, node, std::move(record));
  }

  // Each graph attribute of a control-flow op becomes a GraphModule of its own (ir::Subgraph),
  // traced by a Tracer as the main graph is, from a copy (tracing moves tensor bytes out of the
  // proto; the record keeps the attribute as written, for export). Its placeholders: the
  // subgraph's inputs, then one per value the node captures, in the `captures` kwarg's order,
  // typed as this graph knows them. Nested subgraphs are traced by the inner tracer in turn: a
  // value captured from two scopes out is an input of each graph in between. A subgraph that
  // does not trace leaves the model traceable; the executor reports why it cannot run it.
  void traceSubgraphs(const NodeProto& node, ir::Node& call) {
    std::vector<std::string_view> captures = capturesOf(node);
    for (const auto& attr : node.attribute()) {
      if (attr.type() != AttributeProto::GRAPH || !attr.has_g()) continue;
      ir::Subgraph subgraph{attr.name(), nullptr, ""};
      LoadedModel inner;
      inner.proto = std::make_shared<::onnx::ModelProto>();
      inner.proto->set_ir_version(model_.proto->ir_version());
      *inner.proto->mutable_opset_import() = model_.proto->opset_import();
      *inner.proto->mutable_functions() = model_.proto->functions();
      ::onnx::GraphProto& graph = *inner.proto->mutable_graph();
      graph = attr.g();
      for (std::string_view name : captures) {
        ::onnx::ValueInfoProto& input = *graph.add_input();
        input.set_name(std::string(name));
        if (const ::onnx::TypeProto* type = typeOf(name)) {
          *input.mutable_type() = *type;
        } else if (isConstant(name)) {
          const ir::Tensor& tensor = *constants_.at(name).tensor;
          auto& tensor_type = *input.mutable_type()->mutable_tensor_type();
          tensor_type.set_elem_type(static_cast<int32_t>(tensor.dtype));
          for (int64_t d : tensor.dims) tensor_type.mutable_shape()->add_dim()->set_dim_value(d);
        }
      }
      inner.base_dir = model_.base_dir;
      TraceOptions options = options_;
      options.infer_shapes = false;  // the subgraph's values keep the types the model declares
      options.declared_shapes = true;
      options.input_shapes.clear();
      options.batch = 0;
      try {
        subgraph.graph = Tracer(std::move(inner), options).run();
      } catch (const ModelError& error) {
        subgraph.error = error.what();
        spdlog::debug("trace: {} of {}: {}", attr.name(), call.name(), subgraph.error);
      }
      call.meta.subgraphs.push_back(std::move(subgraph));
    }
  }

  // Tensor-valued attributes as tensors the executor can read; the proto is copied (these are
  // small), so that the record still exports the attribute as it was.
  void keepTensorAttributes(const NodeProto& node, ir::Node& call) {
    for (const auto& attr : node.attribute()) {
      if (attr.type() != AttributeProto::TENSOR || !attr.has_t()) continue;
      ::onnx::TensorProto copy = attr.t();
      auto tensor =
          takeTensor(copy, model_.base_dir, "attribute " + attr.name() + " of " + node.op_type());
      if (!tensor) throw ModelError(tensor.error());
      call.meta.tensor_attributes.emplace_back(attr.name(), tensor.take());
    }
  }

  // Single-output ops are their value; multi-output ops are followed by one getitem per output
  // that is used.
  void bindOutputs(ir::Node* call, const NodeProto& proto, NodeRecord record) {
    const auto& outputs = proto.output();
    int declared = 0;
    for (const auto& output : outputs) declared += output.empty() ? 0 : 1;
    call->meta.source_op = proto.op_type();
    call->meta.source_ops = 1;
    if (declared <= 1 && (outputs.empty() || !outputs[0].empty())) {
      if (!outputs.empty()) {
        values_.at(outputs[0]).node = call;
        fillMeta(call->meta, typeOf(outputs[0]));
        call->meta.value_name = outputs[0];
      }
      call->meta.source = std::move(record);
      return;
    }
    auto protos = record.protos;
    call->meta.source = std::move(record);
    for (int i = 0; i < outputs.size(); ++i) {
      const std::string& output = outputs[i];
      if (output.empty() || values_.at(output).uses == 0) continue;
      ir::Node* item = gm_->graph().callFunction("operator.getitem",
                                                 {ir::Argument(call), ir::Argument(int64_t{i})});
      item->meta.source = NodeRecord{protos, {}, i, ""};
      item->meta.value_name = output;
      fillMeta(item->meta, typeOf(output));
      values_.at(output).node = item;
    }
  }

  // ---- Module groups: see scopes.h ------------------------------------------------------------
  struct Group {
    std::vector<int> members;  // in topological order, traced one after another
  };

  void startGroup() {
    gm_->graph().names().startJournal();
    group_tensor_constants_ = tensor_constants_;
    group_constants_.clear();
    in_group_ = true;
  }

  // The group's ops are traced: replace them by the module if recognize.h proves it. Names the
  // ops took are given back, so that the rest of the graph is named as if they never were.
  void finishGroup(const ::onnx::GraphProto& graph, const Group& group) {
    in_group_ = false;
    ir::NameSpace& names = gm_->graph().names();
    std::vector<ir::Node*> members;
    std::vector<std::string> ops;
    for (int i : group.members) {
      const NodeProto& node = graph.node(i);
      ops.push_back(node.op_type());
      members.push_back(node.output_size() == 1 ? values_.at(node.output(0)).node : nullptr);
    }
    std::string why = "an op has several outputs";
    ir::Node* call = nullptr;
    if (std::find(members.begin(), members.end(), nullptr) == members.end()) {
      std::string path = scopePath(scopeElements(graph.node(group.members.front()).name()));
      call = recognizeModule(*gm_, candidateModuleType(ops, true), path, members, &why);
    }
    if (!call) {
      spdlog::debug("trace: {} stays ops: {}", members.back()->name(), why);
      names.stopJournal();
      return;
    }
    names.rollbackJournal();
    names.stopJournal();
    call->setName(names.createName(ir::snakeCase(call->target())));
    // The constants only the ops read are the module's now: their get_attr nodes are gone.
    tensor_constants_ = group_tensor_constants_;
    for (std::string_view value : group_constants_) constants_.at(value).get_attr = nullptr;
    const NodeProto& last = graph.node(group.members.back());
    values_.at(last.output(0)).node = call;
  }

  const ::onnx::TypeProto* typeOf(std::string_view value) const {
    const ::onnx::TypeProto* const* type = types_.find(value);
    return type ? *type : nullptr;
  }

  LoadedModel model_;
  TraceOptions options_;
  std::unique_ptr<ir::GraphModule> gm_;
  std::unordered_set<std::string> domains_;
  std::unordered_map<std::string, int64_t> opsets_;  // imported version per domain ("" default)
  std::unordered_set<std::string> functions_;
  int default_opset_ = 1;
  // Keyed by views of the value names in model_.proto, which outlives the tracer's use of them.
  ir::FlatMap<std::string_view, const ::onnx::TypeProto*> types_;

  std::unique_ptr<ScopeIndex> scopes_;
  ir::FlatMap<std::string_view, Constant> constants_;
  // Every ONNX value of the main graph: who defines it, how often it is read, its FX node.
  struct Value {
    int producer = kGraphInput;  // node index, or kGraphInput / kInitializer
    int uses = 0;
    ir::Node* node = nullptr;
  };
  ir::FlatMap<std::string_view, Value> values_;
  ir::NameSpace module_names_;
  int tensor_constants_ = 0;
  std::vector<Group> groups_;
  std::unordered_map<int, size_t> group_of_;
  // While a group is traced: the constants given a get_attr for it, the counter before it.
  bool in_group_ = false;
  std::vector<std::string_view> group_constants_;
  int group_tensor_constants_ = 0;
};

}  // namespace

Expected<std::unique_ptr<ir::GraphModule>> trace(LoadedModel model, const TraceOptions& options) {
  try {
    return Tracer(std::move(model), options).run();
  } catch (const ModelError& error) {
    return Error{std::string(error.what())};
  }
}

std::string recordedValueName(const ir::Node& node) {
  if (!node.meta.value_name.empty()) return node.meta.value_name;
  const auto* record = std::any_cast<NodeRecord>(&node.meta.source);
  if (!record) return "";
  if (!record->value.empty()) return record->value;
  return record->protos.empty() ? "" : record->protos[0]->output(0);
}

}  // namespace fxc::onnx
