#include "ir/argument.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "ir/expected.h"
#include "ir/node.h"

namespace fxc::ir {

namespace {
const char* kindName(Argument::Kind kind) {
  switch (kind) {
    case Argument::Kind::kNone:
      return "None";
    case Argument::Kind::kBool:
      return "a bool";
    case Argument::Kind::kInt:
      return "an int";
    case Argument::Kind::kFloat:
      return "a float";
    case Argument::Kind::kString:
      return "a str";
    case Argument::Kind::kNode:
      return "a node";
    case Argument::Kind::kTuple:
      return "a tuple";
    case Argument::Kind::kList:
      return "a list";
  }
  return "?";
}
}  // namespace

void Argument::wrongKind(Kind wanted) const {
  throw InternalError("argument " + pyRepr(*this) + " is " + kindName(kind_) + ", not " +
                      kindName(wanted));
}

void Argument::forEachNode(const std::function<void(Node*)>& fn) const {
  if (kind_ == Kind::kNode) {
    fn(scalar_.node);
  } else if (isSequence()) {
    for (const Argument& item : items_) item.forEachNode(fn);
  }
}

Argument Argument::mapNodes(const std::function<Node*(Node*)>& fn) const {
  if (kind_ == Kind::kNode) return Argument(fn(scalar_.node));
  if (!isSequence()) return *this;
  std::vector<Argument> mapped;
  mapped.reserve(items_.size());
  for (const Argument& item : items_) mapped.push_back(item.mapNodes(fn));
  return Argument(kind_, std::move(mapped));
}

std::string pyFloatRepr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  std::string text(buf, result.ptr);  // "-1.2345e+05": shortest round-trip digits
  bool negative = text[0] == '-';
  size_t epos = text.find('e');
  std::string mantissa = text.substr(negative ? 1 : 0, epos - (negative ? 1 : 0));
  int exponent = std::atoi(text.c_str() + epos + 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  std::string out = negative ? "-" : "";
  if (exponent >= -5 + 1 && exponent < 16) {  // Python: fixed when -4 <= exponent < 16
    if (exponent < 0) {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    } else if (static_cast<size_t>(exponent + 1) >= digits.size()) {
      out += digits + std::string(static_cast<size_t>(exponent + 1) - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, static_cast<size_t>(exponent + 1)) + "." +
             digits.substr(static_cast<size_t>(exponent + 1));
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char exp_text[16];
  std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out + exp_text;
}

std::string pyStringRepr(const std::string& value) {
  bool has_single = value.find('\'') != std::string::npos;
  bool has_double = value.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else {
      out += static_cast<char>(c);  // UTF-8 passes through, as Python prints printable text
    }
  }
  out += quote;
  return out;
}

namespace {

// One printer for both views: torch.fx's repr() (tabular, code) and _format_arg (str(graph))
// differ only in how a node and a string are spelled.
struct Style {
  bool graph_view;
  std::string node(const Node* n) const { return graph_view ? "%" + n->name() : n->name(); }
  std::string string(const std::string& s) const { return graph_view ? s : pyStringRepr(s); }
};

std::string format(const Argument& arg, const Style& style);

std::string formatSequence(const std::vector<Argument>& items, bool tuple, const Style& style) {
  std::string out = tuple ? "(" : "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += format(items[i], style);
  }
  if (tuple && items.size() == 1) out += ",";
  out += tuple ? ")" : "]";
  return out;
}

std::string formatDict(const Kwargs& kwargs, const Style& style) {
  std::string out = "{";
  for (size_t i = 0; i < kwargs.size(); ++i) {
    if (i) out += ", ";
    out += style.string(kwargs[i].first) + ": " + format(kwargs[i].second, style);
  }
  return out + "}";
}

std::string format(const Argument& arg, const Style& style) {
  switch (arg.kind()) {
    case Argument::Kind::kNone:
      return "None";
    case Argument::Kind::kBool:
      return arg.toBool() ? "True" : "False";
    case Argument::Kind::kInt:
      return std::to_string(arg.toInt());
    case Argument::Kind::kFloat:
      return pyFloatRepr(arg.toFloat());
    case Argument::Kind::kString:
      return style.string(arg.toString());
    case Argument::Kind::kNode:
      return style.node(arg.toNode());
    case Argument::Kind::kTuple:
      return formatSequence(arg.items(), true, style);
    case Argument::Kind::kList:
      return formatSequence(arg.items(), false, style);
  }
  return "";
}

constexpr Style kReprStyle{false};
constexpr Style kGraphStyle{true};

}  // namespace

std::string pyRepr(const Argument& arg) { return format(arg, kReprStyle); }
std::string pyRepr(const std::vector<Argument>& args) {
  return formatSequence(args, true, kReprStyle);
}
std::string pyRepr(const Kwargs& kwargs) { return formatDict(kwargs, kReprStyle); }
std::string fxFormat(const Argument& arg) { return format(arg, kGraphStyle); }
std::string fxFormat(const std::vector<Argument>& args) {
  return formatSequence(args, true, kGraphStyle);
}
std::string fxFormat(const Kwargs& kwargs) { return formatDict(kwargs, kGraphStyle); }

}  // namespace fxc::ir
