// torch.fx's CodeGen._gen_python_code, emitting the same text for the same graph.
#include <algorithm>
#include <cctype>
#include <string_view>
#include <unordered_map>

#include "ir/flat_map.h"
#include "ir/printers.h"
#include "ir/torch_call.h"

namespace fxc::ir {
namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && !(c & 0x80)) return false;
  }
  return true;
}

}  // namespace

// torch.fx's _format_target: "layer1.0.conv1" on self → getattr(self.layer1, "0").conv1
std::string formatTarget(std::string base, std::string_view target) {
  while (true) {
    size_t dot = target.find('.');
    std::string_view atom = target.substr(0, dot);
    if (isIdentifier(atom)) {
      base += ".";
      base += atom;
    } else {
      base = "getattr(" + base + ", \"" + std::string(atom) + "\")";
    }
    if (dot == std::string_view::npos) return base;
    target.remove_prefix(dot + 1);
  }
}

namespace {

std::string formatArgs(const std::vector<Argument>& args, size_t skip, const Kwargs& kwargs) {
  std::string out;
  for (size_t i = skip; i < args.size(); ++i) {
    if (!out.empty()) out += ", ";
    out += pyRepr(args[i]);
  }
  for (const auto& [key, value] : kwargs) {
    if (!out.empty()) out += ", ";
    out += key + " = " + pyRepr(value);
  }
  return out;
}

// torch.fx's magic_methods: operator targets printed as Python operators.
const char* magicFormat(std::string_view target) {
  static const std::unordered_map<std::string_view, const char*> table = {
      {"operator.add", "{} + {}"},     {"operator.sub", "{} - {}"},
      {"operator.mul", "{} * {}"},     {"operator.floordiv", "{} // {}"},
      {"operator.truediv", "{} / {}"}, {"operator.mod", "{} % {}"},
      {"operator.pow", "{} ** {}"},    {"operator.lshift", "{} << {}"},
      {"operator.rshift", "{} >> {}"}, {"operator.and_", "{} & {}"},
      {"operator.or_", "{} | {}"},     {"operator.xor", "{} ^ {}"},
      {"operator.getitem", "{}[{}]"},  {"operator.matmul", "{} @ {}"},
      {"operator.eq", "{} == {}"},     {"operator.ne", "{} != {}"},
      {"operator.lt", "{} < {}"},      {"operator.gt", "{} > {}"},
      {"operator.le", "{} <= {}"},     {"operator.ge", "{} >= {}"},
      {"operator.pos", "+{}"},         {"operator.neg", "-{}"},
      {"operator.invert", "~{}"}};
  auto it = table.find(target);
  return it == table.end() ? nullptr : it->second;
}

// Fills "{}" holes with the args; nullptr when the arity does not match.
std::optional<std::string> applyMagic(const char* format, const std::vector<Argument>& args) {
  std::string out;
  size_t next = 0;
  for (const char* p = format; *p; ++p) {
    if (p[0] == '{' && p[1] == '}') {
      if (next >= args.size()) return std::nullopt;
      out += pyRepr(args[next++]);
      ++p;
    } else {
      out += *p;
    }
  }
  if (next != args.size()) return std::nullopt;
  return out;
}

std::string emitExpression(const Node& node) {
  const auto& args = node.args();
  switch (node.op()) {
    case Opcode::kCallMethod:
      return formatTarget(pyRepr(args.at(0)), node.target()) + "(" +
             formatArgs(args, 1, node.kwargs()) + ")";
    case Opcode::kCallFunction: {
      if (auto call = torchCall(node))
        return node.target() + "(" + formatArgs(call->args, 0, call->kwargs) + ")";
      if (node.kwargs().empty()) {
        if (const char* magic = magicFormat(node.target())) {
          if (auto text = applyMagic(magic, args)) return *text;
        }
        if (node.target() == "builtins.getattr" && args.size() == 2 &&
            args[1].kind() == Argument::Kind::kString && isIdentifier(args[1].toString())) {
          return formatTarget(pyRepr(args[0]), args[1].toString());
        }
      }
      return node.target() + "(" + formatArgs(args, 0, node.kwargs()) + ")";
    }
    case Opcode::kCallModule:
      return formatTarget("self", node.target()) + "(" + formatArgs(args, 0, node.kwargs()) + ")";
    case Opcode::kGetAttr:
      return formatTarget("self", node.target());
    default:
      return "";
  }
}

}  // namespace

// What torch.fx annotates: every ONNX input and a single output are tensors.
bool isTensor(const Node& node) { return !node.meta.dtype.empty() || node.meta.shape.has_value(); }

std::string pythonCode(const Graph& graph, const CodeOptions& options) {
  // Each value is freed on the line of its last user (torch.fx walks backwards to find it).
  FlatMap<const Node*, const Node*> last_user;
  last_user.reserve(graph.size());
  for (const Node* node : graph) {
    auto note = [&](Node* input) { last_user[input] = node; };
    for (const Argument& arg : node->args()) visitNodes(arg, note);
    for (const auto& [key, arg] : node->kwargs()) visitNodes(arg, note);
  }

  std::string params = "self";
  std::string returns;
  std::string body;
  body.reserve(graph.size() * 64);
  std::vector<const Node*> freed;
  for (const Node* node : graph) {
    if (node->op() == Opcode::kPlaceholder) {
      params += ", " + node->target();
      if (isTensor(*node)) params += " : torch.Tensor";
      if (node->target() != node->name())
        body += "    " + node->name() + " = " + node->target() + "\n";
      continue;
    }
    if (node->op() == Opcode::kOutput) {
      if (node->args().size() == 1 && node->args()[0].isNode() &&
          isTensor(*node->args()[0].toNode()))
        returns = " -> torch.Tensor";
      body += "    return ";
      body += node->args().empty() ? std::string("None") : pyRepr(node->args()[0]);
      body += '\n';
      continue;
    }
    body += "    ";
    body += node->name();
    body += " = ";
    std::optional<std::string> custom;
    if (options.expression) custom = options.expression(*node);
    body += custom ? *custom : emitExpression(*node);
    // Freed in the order torch.fx lists them: args then kwargs, first occurrence.
    freed.clear();
    auto collect = [&](Node* input) {
      const Node* const* last = last_user.find(input);
      if (last && *last == node && std::find(freed.begin(), freed.end(), input) == freed.end())
        freed.push_back(input);
    };
    for (const Argument& arg : node->args()) visitNodes(arg, collect);
    for (const auto& [key, arg] : node->kwargs()) visitNodes(arg, collect);
    if (!freed.empty()) {
      body += ";  ";
      for (const Node* value : freed) {
        body += value->name();
        body += " = ";
      }
      body += "None";
    }
    body += '\n';
  }
  if (body.empty()) body = "    pass\n";
  std::string code = "def forward(" + params + ")" + returns + ":\n" + body;
  // GraphModule.code as torch.fx writes it: three blank lines before, an indented empty line after.
  return options.torch_fx_layout ? "\n\n\n" + code + "    " : code;
}

}  // namespace fxc::ir
