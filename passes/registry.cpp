#include "passes/registry.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "ir/name_space.h"

namespace fxc::passes {

bool PassResult::changed() const {
  for (const auto& [what, n] : counts) {
    if (n > 0) return true;
  }
  return false;
}

void PassResult::add(const std::string& what, int64_t n) {
  for (auto& [key, count] : counts) {
    if (key == what) {
      count += n;
      return;
    }
  }
  counts.emplace_back(what, n);
}

// The whole text, and nothing else, is the number: no leading space, no embedded NUL (C's
// parsers stop at one), no overflow (strtoll saturates, and std::stoll threw out_of_range past
// the check), a finite float.
std::optional<int64_t> parseInteger(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || end != text.c_str() + text.size()) return std::nullopt;
  return static_cast<int64_t>(value);
}

std::optional<double> parseNumber(const std::string& text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || end != text.c_str() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

int64_t Options::getInt(const std::string& key) const {
  auto value = parseInteger(get(key));
  if (!value) throw std::invalid_argument("option " + key + " is not an integer");
  return *value;
}

double Options::getFloat(const std::string& key) const {
  auto value = parseNumber(get(key));
  if (!value) throw std::invalid_argument("option " + key + " is not a number");
  return *value;
}

Registry& Registry::instance() {
  static Registry registry;
  return registry;
}

void Registry::add(PassInfo info) {
  std::string name = info.name;
  passes_.emplace(std::move(name), std::move(info));
}

const PassInfo* Registry::find(const std::string& name) const {
  auto it = passes_.find(name);
  return it == passes_.end() ? nullptr : &it->second;
}

std::vector<const PassInfo*> Registry::all() const {
  std::vector<const PassInfo*> out;
  for (const auto& [name, info] : passes_) out.push_back(&info);
  return out;
}

namespace {

bool valid(OptionKind kind, const std::string& value) {
  switch (kind) {
    case OptionKind::kString:
      return true;
    case OptionKind::kInt:
      return parseInteger(value).has_value();
    case OptionKind::kFloat:
      return parseNumber(value).has_value();
    case OptionKind::kBool:
      return value == "true" || value == "false" || value == "1" || value == "0";
  }
  return false;
}

const char* kindName(OptionKind kind) {
  switch (kind) {
    case OptionKind::kString:
      return "a string";
    case OptionKind::kInt:
      return "an integer";
    case OptionKind::kFloat:
      return "a number";
    case OptionKind::kBool:
      return "true or false";
  }
  return "";
}

}  // namespace

Expected<PassRequest> parsePassSpec(const std::string& spec) {
  size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  const PassInfo* pass = Registry::instance().find(name);
  if (!pass) {
    std::string names;
    std::vector<std::string> all;
    for (const PassInfo* p : Registry::instance().all()) {
      names += (names.empty() ? "" : ", ") + p->name;
      all.push_back(p->name);
    }
    std::string guess = ir::closestName(name, all);
    return Error{"unknown pass '" + name + "'" +
                 (guess.empty() ? "" : ": did you mean '" + guess + "'?") + " (passes: " + names +
                 ")"};
  }
  PassRequest request{pass, {}};
  for (const auto& option : pass->options)
    request.options.values()[option.name] = option.default_value;
  if (colon == std::string::npos) {
    if (pass->validate) {
      auto valid_options = pass->validate(request.options);
      if (!valid_options) return Error{valid_options.error()};
    }
    return request;
  }
  std::string rest = spec.substr(colon + 1);
  size_t start = 0;
  while (start <= rest.size()) {
    size_t comma = rest.find(',', start);
    std::string item =
        rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? rest.size() + 1 : comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq);
    const OptionSpec* option = nullptr;
    for (const auto& o : pass->options) {
      if (o.name == key) option = &o;
    }
    if (!option) {
      std::string keys;
      for (const auto& o : pass->options) keys += (keys.empty() ? "" : ", ") + o.name;
      std::vector<std::string> all;
      for (const auto& o : pass->options) all.push_back(o.name);
      std::string guess = ir::closestName(key, all);
      return Error{"pass " + name + " has no option '" + key + "'" +
                   (guess.empty() ? "" : ": did you mean '" + guess + "'?") + " (" +
                   (keys.empty() ? std::string("it takes none") : "options: " + keys) + ")"};
    }
    if (eq == std::string::npos)
      return Error{"pass " + name + ": option '" + key + "' needs =VALUE"};
    std::string value = item.substr(eq + 1);
    if (!valid(option->kind, value))
      return Error{"pass " + name + ": option '" + key + "' must be " + kindName(option->kind) +
                   ", not '" + value + "'"};
    request.options.values()[key] = value;
  }
  if (pass->validate) {
    auto valid_options = pass->validate(request.options);
    if (!valid_options) return Error{valid_options.error()};
  }
  return request;
}

}  // namespace fxc::passes
