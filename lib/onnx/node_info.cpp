#include "onnx/node_info.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <unordered_set>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::onnx {

using ::onnx::AttributeProto;
using ::onnx::NodeProto;

namespace {

double float32Value(float value) {
  char buf[32];
  auto result = std::to_chars(buf, buf + sizeof buf, value);
  *result.ptr = '\0';
  return std::strtod(buf, nullptr);
}

int64_t countNodes(const ::onnx::GraphProto& graph) {
  int64_t n = graph.node_size();
  for (const auto& node : graph.node()) {
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) n += countNodes(attr.g());
      for (const auto& g : attr.graphs()) n += countNodes(g);
    }
  }
  return n;
}

std::string tensorSummary(const ::onnx::TensorProto& t) {
  std::string dims;
  for (int i = 0; i < t.dims_size(); ++i) dims += (i ? ", " : "") + std::to_string(t.dims(i));
  return "<tensor " + std::string(ir::dtypeName(static_cast<ir::DType>(t.data_type()))) + "[" +
         dims + "]>";
}

// Values a subgraph reads from enclosing scopes: used but not defined inside it.
void collectCaptures(const ::onnx::GraphProto& graph, std::unordered_set<std::string_view> defined,
                     std::vector<std::string_view>& captures,
                     std::unordered_set<std::string_view>& seen) {
  for (const auto& v : graph.input()) defined.insert(v.name());
  for (const auto& t : graph.initializer()) defined.insert(t.name());
  for (const auto& t : graph.sparse_initializer()) defined.insert(t.values().name());
  auto use = [&](std::string_view name) {
    if (!name.empty() && !defined.count(name) && seen.insert(name).second) captures.push_back(name);
  };
  for (const auto& node : graph.node()) {
    for (const auto& input : node.input()) use(input);
    for (const auto& attr : node.attribute()) {
      if (attr.has_g()) collectCaptures(attr.g(), defined, captures, seen);
      for (const auto& g : attr.graphs()) collectCaptures(g, defined, captures, seen);
    }
    for (const auto& output : node.output()) defined.insert(output);
  }
  for (const auto& v : graph.output()) use(v.name());
}

}  // namespace

std::string describe(const NodeProto& node, size_t index) {
  std::string who = node.name().empty() ? "#" + std::to_string(index) : "'" + node.name() + "'";
  return "node " + who + " (" + node.op_type() + ")";
}

bool mayAliasConstant(const NodeProto& node) {
  return isDefaultDomain(node.domain()) &&
         ((node.op_type() == "Constant" && node.input_size() == 0) || node.op_type() == "Identity");
}

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// Python prints float32 attributes the way torch does: the shortest text that reads back.

ir::Argument attributeValue(const AttributeProto& attr) {
  using A = AttributeProto;
  std::vector<ir::Argument> items;
  switch (attr.type()) {
    case A::INT:
      return ir::Argument(static_cast<int64_t>(attr.i()));
    case A::FLOAT:
      return ir::Argument(float32Value(attr.f()));
    case A::STRING:
      return ir::Argument(attr.s());
    case A::TENSOR:
      return ir::Argument(tensorSummary(attr.t()));
    case A::GRAPH:
      return ir::Argument("<graph " + attr.name() + ": " + std::to_string(countNodes(attr.g())) +
                          " nodes>");
    case A::INTS:
      for (int64_t v : attr.ints()) items.emplace_back(v);
      return ir::Argument::list(std::move(items));
    case A::FLOATS:
      for (float v : attr.floats()) items.emplace_back(float32Value(v));
      return ir::Argument::list(std::move(items));
    case A::STRINGS:
      for (const auto& v : attr.strings()) items.emplace_back(v);
      return ir::Argument::list(std::move(items));
    case A::TENSORS:
      for (const auto& v : attr.tensors()) items.emplace_back(tensorSummary(v));
      return ir::Argument::list(std::move(items));
    case A::GRAPHS:
      for (const auto& g : attr.graphs())
        items.emplace_back("<graph: " + std::to_string(countNodes(g)) + " nodes>");
      return ir::Argument::list(std::move(items));
    default:
      return ir::Argument("<" + attr.name() + ">");
  }
}

ir::Kwargs attributeKwargs(const NodeProto& node) {
  // A list attribute becomes one kwarg item per value: bounded, so that a model that lists 10^8
  // ints costs an error, not gigabytes (large constants belong in a tensor attribute).
  constexpr int kMaxListLength = 1 << 20;
  ir::Kwargs kwargs;
  for (const auto& attr : node.attribute()) {
    int length = std::max({attr.ints_size(), attr.floats_size(), attr.strings_size(),
                           attr.tensors_size(), attr.graphs_size()});
    if (length > kMaxListLength)
      throw fxc::ModelError((node.name().empty() ? "a node" : "node '" + node.name() + "'") + " (" +
                            node.op_type() + "): attribute '" + attr.name() + "' lists " +
                            std::to_string(length) + " values; fxc reads at most " +
                            std::to_string(kMaxListLength) +
                            " (a tensor attribute holds large constants)");
    kwargs.emplace_back(attr.name(), attributeValue(attr));
  }
  return kwargs;
}

// Views into the node's subgraphs: valid as long as the node is.

std::vector<std::string_view> capturesOf(const NodeProto& node) {
  std::vector<std::string_view> captures;
  std::unordered_set<std::string_view> seen;
  for (const auto& attr : node.attribute()) {
    if (attr.has_g()) collectCaptures(attr.g(), {}, captures, seen);
    for (const auto& g : attr.graphs()) collectCaptures(g, {}, captures, seen);
  }
  return captures;
}

void fillMeta(ir::Meta& meta, const ::onnx::TypeProto* type) {
  if (!type || !type->has_tensor_type()) return;
  const auto& tensor = type->tensor_type();
  if (tensor.elem_type())
    meta.dtype = std::string(ir::dtypeName(static_cast<ir::DType>(tensor.elem_type())));
  if (!tensor.has_shape()) return;
  std::vector<std::string> dims;
  for (const auto& d : tensor.shape().dim()) {
    dims.push_back(d.has_dim_value() ? std::to_string(d.dim_value())
                                     : (d.has_dim_param() ? d.dim_param() : std::string("?")));
  }
  meta.shape = std::move(dims);
}

// "/layer1/layer1.0/conv1/Conv" → ["layer1", "layer1.0", "conv1"]; no scope without a leading '/'.

// "/layer1/layer1.0/conv1/Conv" → "/layer1/layer1.0/conv1", a view of the name; "" when the name

// carries no scope.

std::string_view scopeKey(const std::string& node_name) {
  if (node_name.size() < 2 || node_name[0] != '/') return {};
  size_t slash = node_name.rfind('/');
  return slash == 0 ? std::string_view() : std::string_view(node_name).substr(0, slash);
}

std::vector<std::string> scopeElements(const std::string& node_name) {
  std::vector<std::string> elements;
  if (node_name.size() < 2 || node_name[0] != '/') return elements;
  size_t start = 1;
  while (true) {
    size_t slash = node_name.find('/', start);
    if (slash == std::string::npos) break;  // the last element is the op, not a module
    if (slash > start) elements.push_back(node_name.substr(start, slash - start));
    start = slash + 1;
  }
  return elements;
}

std::vector<std::string> splitDots(const std::string& text) {
  std::vector<std::string> atoms;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    atoms.push_back(text.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return atoms;
    start = dot + 1;
  }
}

std::string joinDots(const std::vector<std::string>& atoms, size_t count) {
  std::string out;
  for (size_t i = 0; i < count && i < atoms.size(); ++i) out += (i ? "." : "") + atoms[i];
  return out;
}

// A module path atom: an identifier or a run of digits (a Sequential index).

std::string sanitizeAtom(const std::string& atom) {
  std::string out;
  for (char c : atom) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (out.empty()) out = "_";
  return out;
}

}  // namespace fxc::onnx
