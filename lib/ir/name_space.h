// torch.fx's _Namespace: turns candidates into unique Python identifiers.
#pragma once

#include <string>
#include <string_view>

#include "ir/flat_map.h"

namespace fxc::ir {

// torch.fx's _snake_case: "MaxPool" → "max_pool".
std::string snakeCase(std::string_view text);
// Is `name` a Python keyword, builtin, or one of torch.fx's custom builtins?
bool isReservedName(std::string_view name);

class NameSpace {
 public:
  // Sanitizes `candidate` to an identifier, avoids keywords and builtins, and counts up per base
  // name on clashes (add, add_1, ...). Amortized O(1): each base remembers the last number used.
  std::string createName(std::string_view candidate);
  bool contains(const std::string& name) const { return used_.count(name) != 0; }
  void reserve(size_t n) { used_.reserve(n); }

 private:
  FlatMap<std::string, bool> used_;
  FlatMap<std::string, long long> base_count_;
};

}  // namespace fxc::ir
