#include "ir/printers.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "ir/torch_call.h"

namespace fxc::ir {
namespace {

std::string shapeText(const Meta& meta) {
  if (!meta.shape) return "";
  std::string out = "[";
  for (size_t i = 0; i < meta.shape->size(); ++i) out += (i ? ", " : "") + (*meta.shape)[i];
  return out + "]";
}

nlohmann::json argumentJson(const Argument& arg) {
  switch (arg.kind()) {
    case Argument::Kind::kNone:
      return nullptr;
    case Argument::Kind::kBool:
      return arg.toBool();
    case Argument::Kind::kInt:
      return arg.toInt();
    case Argument::Kind::kFloat:
      return arg.toFloat();
    case Argument::Kind::kString:
      return arg.toString();
    case Argument::Kind::kNode:
      return {{"node", arg.toNode()->name()}};
    case Argument::Kind::kTuple:
    case Argument::Kind::kList: {
      nlohmann::json items = nlohmann::json::array();
      for (const Argument& item : arg.items()) items.push_back(argumentJson(item));
      if (arg.kind() == Argument::Kind::kList) return items;
      return {{"tuple", items}};
    }
  }
  return nullptr;
}

nlohmann::json kwargsJson(const Kwargs& kwargs) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : kwargs) out[key] = argumentJson(value);
  return out;
}

}  // namespace

std::string printTabular(const Graph& graph, bool with_shapes) {
  std::vector<std::string> headers = {"opcode", "name", "target", "args", "kwargs"};
  if (with_shapes) {
    headers.push_back("shape");
    headers.push_back("dtype");
  }
  std::vector<std::vector<std::string>> rows;
  rows.reserve(graph.size());
  for (const Node* node : graph) {
    auto call = torchCall(*node);  // PyTorch's signature, as torch.fx records the call
    std::vector<std::string> row = {std::string(opcodeName(node->op())), node->name(),
                                    node->target(), pyRepr(call ? call->args : node->args()),
                                    pyRepr(call ? call->kwargs : node->kwargs())};
    if (with_shapes) {
      row.push_back(shapeText(node->meta));
      row.push_back(node->meta.dtype);
    }
    rows.push_back(std::move(row));
  }
  // tabulate pads a header by two and never narrows a column below its widest cell.
  std::vector<size_t> widths;
  for (const auto& header : headers) widths.push_back(header.size() + 2);
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  size_t line_width = 0;
  for (size_t w : widths) line_width += w + 2;
  std::string out;
  out.reserve((rows.size() + 2) * line_width);
  auto emit = [&](const std::vector<std::string>& cells) {
    size_t start = out.size();
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c) out.append(2, ' ');
      out += cells[c];
      out.append(widths[c] - cells[c].size(), ' ');
    }
    size_t end = out.find_last_not_of(' ');
    out.resize(end == std::string::npos || end < start ? start : end + 1);
    out += '\n';
  };
  emit(headers);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.emplace_back(w, '-');
  emit(rule);
  for (const auto& row : rows) emit(row);
  return out;
}

nlohmann::json toJson(const GraphModule& module) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const Node* node : module.graph()) {
    nlohmann::json args = nlohmann::json::array();
    for (const Argument& arg : node->args()) args.push_back(argumentJson(arg));
    nlohmann::json users = nlohmann::json::array();
    for (const Node* user : node->users()) users.push_back(user->name());
    nlohmann::json entry = {{"op", opcodeName(node->op())},
                            {"name", node->name()},
                            {"target", node->target()},
                            {"args", args},
                            {"kwargs", kwargsJson(node->kwargs())},
                            {"users", users}};
    if (node->meta.shape) {
      // Numbers where the dimension is known, the symbol's name where it is not.
      nlohmann::json dims = nlohmann::json::array();
      for (const std::string& d : *node->meta.shape) {
        bool known = !isSymbolicDim(d);
        dims.push_back(known ? nlohmann::json(std::stoll(d)) : nlohmann::json(d));
      }
      entry["shape"] = dims;
    }
    if (!node->meta.dtype.empty()) entry["dtype"] = node->meta.dtype;
    nodes.push_back(std::move(entry));
  }
  nlohmann::json modules = nlohmann::json::array();
  for (const auto& [path, submodule] : module.namedModules()) {
    nlohmann::json tensors = nlohmann::json::object();
    for (const auto& [name, tensor] : submodule->tensors()) {
      tensors[name] = {{"dtype", dtypeName(tensor->dtype)}, {"shape", tensor->dims}};
    }
    modules.push_back({{"path", path},
                       {"type", submodule->type()},
                       {"attributes", kwargsJson(submodule->attributes())},
                       {"tensors", tensors}});
  }
  nlohmann::json root_tensors = nlohmann::json::object();
  for (const auto& [name, tensor] : module.root().tensors()) {
    root_tensors[name] = {{"dtype", dtypeName(tensor->dtype)}, {"shape", tensor->dims}};
  }
  return {{"nodes", nodes},
          {"modules", modules},
          {"constants", root_tensors},
          {"code", pythonCode(module.graph())}};
}

}  // namespace fxc::ir
