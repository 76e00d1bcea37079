#include "ir/matcher.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_set>

namespace fxc::ir {
namespace {

template <typename T>
void appendAll(const Tensor& tensor, std::vector<double>& out) {
  for (size_t i = 0; i < out.size(); ++i) {
    T v;
    std::memcpy(&v, tensor.bytes() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(v);
  }
}

double halfToDouble(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

}  // namespace

std::optional<std::vector<double>> tensorValues(const Tensor& tensor) {
  size_t size = dtypeSize(tensor.dtype);
  int64_t count = tensor.numel();
  if (size == 0 || count < 0 || tensor.byteSize() != static_cast<size_t>(count) * size)
    return std::nullopt;
  std::vector<double> out(static_cast<size_t>(count));
  switch (tensor.dtype) {
    case DType::kFloat32:
      appendAll<float>(tensor, out);
      break;
    case DType::kFloat64:
      appendAll<double>(tensor, out);
      break;
    case DType::kInt64:
      appendAll<int64_t>(tensor, out);
      break;
    case DType::kInt32:
      appendAll<int32_t>(tensor, out);
      break;
    case DType::kInt8:
      appendAll<int8_t>(tensor, out);
      break;
    case DType::kUInt8:
      appendAll<uint8_t>(tensor, out);
      break;
    case DType::kFloat16:
      for (size_t i = 0; i < out.size(); ++i) {
        uint16_t h;
        std::memcpy(&h, tensor.bytes() + i * 2, 2);
        out[i] = halfToDouble(h);
      }
      break;
    default:
      return std::nullopt;
  }
  return out;
}

NodeCheck kwargsAre(std::vector<std::pair<std::string, ArgumentCheck>> allowed,
                    std::vector<std::pair<std::string, Argument>> defaults) {
  return [allowed, defaults](const GraphModule&, const Node& node) {
    for (const auto& [key, value] : node.kwargs()) {
      bool known = false;
      for (const auto& [name, check] : allowed) {
        if (name == key) known = check(value);
      }
      if (!known) return false;
    }
    // An attribute left out has its default, which must pass its check too.
    for (const auto& [key, value] : defaults) {
      if (node.kwarg(key)) continue;
      for (const auto& [name, check] : allowed) {
        if (name == key && !check(value)) return false;
      }
    }
    return true;
  };
}

ArgumentCheck intIs(int64_t expected) {
  return [expected](const Argument& a) {
    return a.kind() == Argument::Kind::kInt && a.toInt() == expected;
  };
}

ArgumentCheck anyIntList() {
  return [](const Argument& a) {
    if (a.kind() != Argument::Kind::kList) return false;
    for (const auto& item : a.items()) {
      if (item.kind() != Argument::Kind::kInt) return false;
    }
    return true;
  };
}

std::vector<int64_t> intList(const Argument* list) {
  std::vector<int64_t> out;
  if (list) {
    for (const auto& item : list->items()) out.push_back(item.toInt());
  }
  return out;
}

std::shared_ptr<Tensor> constantOf(const GraphModule& gm, const Node& node) {
  return node.op() == Opcode::kGetAttr ? gm.findTensor(node.target()) : nullptr;
}

int Pattern::input(std::string name) {
  for (size_t i = 0; i < elements_.size(); ++i) {
    if (elements_[i].kind == Element::Kind::kInput && elements_[i].name == name)
      return static_cast<int>(i);
  }
  elements_.push_back(Element{Element::Kind::kInput, std::move(name), {}, {}, {}, nullptr});
  return static_cast<int>(elements_.size() - 1);
}

int Pattern::constant(std::string name, ConstantCheck check) {
  elements_.push_back(
      Element{Element::Kind::kConstant, std::move(name), {}, {}, {}, std::move(check)});
  return static_cast<int>(elements_.size() - 1);
}

int Pattern::op(std::string target, std::vector<int> args, OpOptions options) {
  elements_.push_back(Element{Element::Kind::kFunction,
                              std::move(target),
                              {},
                              std::move(args),
                              std::move(options),
                              nullptr});
  return static_cast<int>(elements_.size() - 1);
}

int Pattern::module(std::string type, std::vector<int> args, OpOptions options) {
  return module(std::vector<std::string>{std::move(type)}, std::move(args), std::move(options));
}

int Pattern::module(std::vector<std::string> types, std::vector<int> args, OpOptions options) {
  elements_.push_back(Element{Element::Kind::kModule, "", std::move(types), std::move(args),
                              std::move(options), nullptr});
  return static_cast<int>(elements_.size() - 1);
}

Pattern::ConstantCheck Pattern::scalar(double value, double tolerance) {
  return [value, tolerance](const Tensor& tensor) {
    if (tensor.dtype != DType::kFloat32 && tensor.dtype != DType::kFloat64 &&
        tensor.dtype != DType::kFloat16)
      return false;
    // Rank 0: a [1, 1, 1] of one element broadcasts the result to rank 3.
    auto values = tensorValues(tensor);
    if (!values || values->size() != 1 || !tensor.dims.empty()) return false;
    return std::fabs((*values)[0] - value) <= tolerance * std::max(1.0, std::fabs(value));
  };
}

Pattern::ConstantCheck Pattern::anyScalar() {
  return [](const Tensor& tensor) {
    auto values = tensorValues(tensor);
    return (tensor.dtype == DType::kFloat32 || tensor.dtype == DType::kFloat64 ||
            tensor.dtype == DType::kFloat16) &&
           values && values->size() == 1 && tensor.dims.empty() && std::isfinite((*values)[0]);
  };
}

Node* Match::input(const std::string& name) const {
  for (const auto& [key, node] : inputs) {
    if (key == name) return node;
  }
  return nullptr;
}

Node* Match::node(const std::string& label) const {
  for (const auto& [key, node] : labelled) {
    if (key == label) return node;
  }
  return nullptr;
}

std::shared_ptr<Tensor> Match::constant(const std::string& name) const {
  for (const auto& [key, tensor] : constants) {
    if (key == name) return tensor;
  }
  return nullptr;
}

namespace {

class Matcher {
 public:
  Matcher(const GraphModule& gm, const Pattern& pattern)
      : gm_(gm), elements_(pattern.elements()), bound_(elements_.size(), nullptr) {}

  bool match(int e, Node* node) {
    const Pattern::Element& element = elements_[static_cast<size_t>(e)];
    Node*& bound = bound_[static_cast<size_t>(e)];
    if (bound) return fail(bound == node, "a value the pattern uses twice is two values here");
    using Kind = Pattern::Element::Kind;
    switch (element.kind) {
      case Kind::kInput:
        bound = node;
        return true;
      case Kind::kConstant: {
        auto tensor = constantOf(gm_, *node);
        if (!tensor) return fail(false, "'" + element.name + "' is not a constant");
        if (element.check && !element.check(*tensor))
          return fail(false, "constant '" + element.name + "' (" + node->target() +
                                 ") does not hold what the pattern needs");
        bound = node;
        return true;
      }
      case Kind::kFunction:
        if (node->op() != Opcode::kCallFunction || node->target() != element.name)
          return fail(false, node->name() + " is not " + element.name);
        break;
      case Kind::kModule: {
        const Module* module =
            node->op() == Opcode::kCallModule ? gm_.findModule(node->target()) : nullptr;
        if (!module || std::find(element.types.begin(), element.types.end(), module->type()) ==
                           element.types.end()) {
          std::string types = element.types.front();
          for (size_t k = 1; k < element.types.size(); ++k)
            types += (k + 1 == element.types.size() ? " or " : ", ") + element.types[k];
          return fail(false, node->name() + " is not a " + types + " module");
        }
        break;
      }
    }
    if (node->args().size() != element.args.size())
      return fail(false, node->name() + " has another number of arguments");
    for (const Argument& arg : node->args()) {
      if (!arg.isNode()) return fail(false, node->name() + " has an argument that is no value");
    }
    if (element.options.check) {
      if (!element.options.check(gm_, *node))
        return fail(false, node->name() + ": its attributes are not the pattern's");
    } else if (!node->kwargs().empty()) {
      return fail(false, node->name() + " has attributes the pattern does not know");
    }
    bound = node;
    auto args = [&](size_t k) { return node->args()[k].toNode(); };
    if (!element.options.commutative || element.args.size() != 2) {
      for (size_t k = 0; k < element.args.size(); ++k) {
        if (!match(element.args[k], args(k))) return false;
      }
      return true;
    }
    std::vector<Node*> saved = bound_;
    if (match(element.args[0], args(0)) && match(element.args[1], args(1))) return true;
    std::string first_why = why_;
    bound_ = saved;
    if (match(element.args[0], args(1)) && match(element.args[1], args(0))) return true;
    why_ = first_why + "; swapped: " + why_;
    return false;
  }

  std::optional<Match> finish(int output) {
    Match result;
    result.output = bound_[static_cast<size_t>(output)];
    result.bound = bound_;
    std::unordered_set<const Node*> inside;
    using Kind = Pattern::Element::Kind;
    for (size_t e = 0; e < elements_.size(); ++e) {
      Node* node = bound_[e];
      if (!node) {
        why_ = "a pattern element is not reachable from its output";
        return std::nullopt;
      }
      switch (elements_[e].kind) {
        case Kind::kInput:
          result.inputs.emplace_back(elements_[e].name, node);
          break;
        case Kind::kConstant:
          result.constants.emplace_back(elements_[e].name, constantOf(gm_, *node));
          if (std::find(result.constant_nodes.begin(), result.constant_nodes.end(), node) ==
              result.constant_nodes.end())
            result.constant_nodes.push_back(node);
          break;
        default:
          if (!inside.insert(node).second) {
            why_ = node->name() + " would be two nodes of the pattern";
            return std::nullopt;
          }
          result.nodes.push_back(node);
      }
    }
    for (const auto& [name, node] : result.inputs) {
      if (inside.count(node)) {
        why_ = "input '" + name + "' would be " + node->name() + ", one of the pattern's ops";
        return std::nullopt;
      }
    }
    for (Node* node : result.nodes) {
      if (node == result.output) continue;
      for (const Node* user : node->users()) {
        if (!inside.count(user)) {
          why_ = node->name() + " is used outside the pattern, by " + user->name();
          return std::nullopt;
        }
      }
    }
    // Graph order: the list walks from the output back, so sort by position.
    std::unordered_set<const Node*> pending(inside.begin(), inside.end());
    std::vector<Node*> ordered;
    for (Node* node = result.output; node && !pending.empty(); node = node->prev()) {
      if (pending.erase(node)) ordered.push_back(node);
    }
    std::reverse(ordered.begin(), ordered.end());
    result.nodes = std::move(ordered);
    return result;
  }

  const std::string& why() const { return why_; }

 private:
  bool fail(bool ok, const std::string& why) {
    if (!ok) why_ = why;
    return ok;
  }

  const GraphModule& gm_;
  const std::vector<Pattern::Element>& elements_;
  std::vector<Node*> bound_;
  std::string why_;
};

}  // namespace

std::optional<Match> matchAt(const GraphModule& gm, const Pattern& pattern, Node* anchor,
                             std::string* why) {
  Matcher matcher(gm, pattern);
  std::optional<Match> result;
  if (pattern.output() >= 0 && anchor && matcher.match(pattern.output(), anchor))
    result = matcher.finish(pattern.output());
  if (result) {
    for (const auto& [label, element] : pattern.labels())
      result->labelled.emplace_back(label, result->at(element));
  }
  if (!result && why) *why = matcher.why().empty() ? "no pattern output" : matcher.why();
  return result;
}

}  // namespace fxc::ir
