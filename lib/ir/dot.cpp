// The graph as Graphviz DOT, after torch.fx's FxGraphDrawer: one record per node (name, opcode,
// target), coloured by opcode (call_function by a hash of its target), module paths as nested
// clusters, and with shapes the value's shape on each edge.
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string_view>

#include "ir/printers.h"

namespace fxc::ir {
namespace {

// FxGraphDrawer's colours.
const char* opcodeColor(Opcode op) {
  switch (op) {
    case Opcode::kPlaceholder:
      return "AliceBlue";
    case Opcode::kCallModule:
      return "LemonChiffon1";
    case Opcode::kGetAttr:
      return "LightGrey";
    case Opcode::kOutput:
      return "PowderBlue";
    default:
      return nullptr;
  }
}

const char* functionColor(const std::string& target) {
  static const char* colors[] = {"CadetBlue1", "Coral",      "DarkOliveGreen1", "DarkSeaGreen1",
                                 "GhostWhite", "Khaki1",     "LavenderBlush1",  "LightSkyBlue",
                                 "MistyRose1", "MistyRose2", "PaleTurquoise2",  "PeachPuff1",
                                 "Salmon",     "Thistle1",   "Thistle3",        "Wheat1"};
  uint32_t hash = 2166136261u;  // FNV-1a: the same colour for a target on every machine
  for (unsigned char ch : target) hash = (hash ^ ch) * 16777619u;
  return colors[hash % (sizeof colors / sizeof colors[0])];
}

// A quoted DOT identifier or string.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// Text inside a record label: the record syntax's own characters escaped.
std::string recordText(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (std::string_view("{}|<>\"\\").find(ch) != std::string_view::npos) out += '\\';
    out += ch;
  }
  return out;
}

// A label built with its escapes ("\n", "\{") as a DOT string: only quotes need one more.
std::string quotedLabel(const std::string& label) {
  std::string out = "\"";
  for (size_t k = 0; k < label.size(); ++k) {
    if (label[k] == '"' && (k == 0 || label[k - 1] != '\\')) out += '\\';
    out += label[k];
  }
  return out + "\"";
}

std::string shapeOf(const Meta& meta) {
  if (!meta.shape) return "";
  std::string out = "[";
  for (size_t k = 0; k < meta.shape->size(); ++k) out += (k ? ", " : "") + (*meta.shape)[k];
  return out + "]";
}

// The module path a node belongs to: a call_module's parent module, a get_attr's owner; "" for
// the top level. Only paths that name modules count.
std::string clusterOf(const GraphModule& gm, const Node& node) {
  if (node.op() != Opcode::kCallModule && node.op() != Opcode::kGetAttr) return "";
  const std::string& target = node.target();
  size_t dot = target.rfind('.');
  if (dot == std::string::npos) return "";
  std::string parent = target.substr(0, dot);
  return gm.findModule(parent) ? parent : "";
}

}  // namespace

std::string printDot(const GraphModule& gm, const std::string& name, bool with_shapes) {
  const Graph& graph = gm.graph();
  // Nodes by cluster; clusters as a tree of module paths.
  std::map<std::string, std::vector<const Node*>> members;
  std::set<std::string> paths = {""};
  for (const Node* node : graph) {
    std::string path = clusterOf(gm, *node);
    members[path].push_back(node);
    for (std::string p = path; !p.empty();) {
      paths.insert(p);
      size_t dot = p.rfind('.');
      p = dot == std::string::npos ? "" : p.substr(0, dot);
    }
  }
  std::map<std::string, std::vector<std::string>> children;
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    size_t dot = path.rfind('.');
    children[dot == std::string::npos ? "" : path.substr(0, dot)].push_back(path);
  }

  std::string out = "digraph " + quoted(name) + " {\n";
  out += "  rankdir=TB;\n";
  out += "  node [shape=record, style=filled, fontname=\"Helvetica\", fontsize=10];\n";
  out += "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  auto emitNode = [&](const Node& node, const std::string& indent) {
    std::string target = node.target();
    if (node.op() == Opcode::kCallModule) {
      if (const Module* module = gm.findModule(target)) target += " (" + module->type() + ")";
    }
    std::string label = "{name=%" + recordText(node.name()) +
                        "|op_code=" + recordText(std::string(opcodeName(node.op()))) + "\\n";
    if (node.op() != Opcode::kOutput) label += "|target=" + recordText(target) + "\\n";
    if (with_shapes && node.meta.shape)
      label += "|" + recordText(shapeOf(node.meta) + " " + node.meta.dtype) + "\\n";
    label += "}";
    const char* color = opcodeColor(node.op());
    out += indent + quoted(node.name()) + " [label=" + quotedLabel(label) +
           ", fillcolor=" + quoted(color ? color : functionColor(node.target())) + "];\n";
  };
  // Depth-first over the module tree: a cluster holds its nodes and its children's clusters.
  std::function<void(const std::string&, const std::string&)> emitCluster =
      [&](const std::string& path, const std::string& indent) {
        for (const Node* node : members[path]) emitNode(*node, indent);
        for (const std::string& child : children[path]) {
          out += indent + "subgraph " + quoted("cluster_" + child) + " {\n";
          out += indent + "  label=" + quoted(child) + ";\n";
          out += indent + "  style=rounded;\n";
          emitCluster(child, indent + "  ");
          out += indent + "}\n";
        }
      };
  emitCluster("", "  ");
  for (const Node* node : graph) {
    std::set<const Node*> seen;  // one edge per input, however often it is read
    auto edge = [&](const Node* input) {
      if (!seen.insert(input).second) return;
      out += "  " + quoted(input->name()) + " -> " + quoted(node->name());
      if (with_shapes && input->meta.shape) out += " [label=" + quoted(shapeOf(input->meta)) + "]";
      out += ";\n";
    };
    for (const Argument& arg : node->args()) visitNodes(arg, edge);
    for (const auto& [key, value] : node->kwargs()) visitNodes(value, edge);
  }
  out += "}\n";
  return out;
}

}  // namespace fxc::ir
