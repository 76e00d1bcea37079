// torch.fx's _Namespace: turns candidates into unique Python identifiers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ir/flat_map.h"

namespace fxc::ir {

// torch.fx's _snake_case: "MaxPool" → "max_pool".
std::string snakeCase(std::string_view text);
// The candidate a mistyped `word` most likely meant: the nearest by edit distance, when it is at
// most a third of the word's length away (at least 1); else "". For "did you mean ...?".
std::string closestName(std::string_view word, const std::vector<std::string>& candidates);
// Is `name` a Python keyword, builtin, or one of torch.fx's custom builtins?
bool isReservedName(std::string_view name);

class NameSpace {
 public:
  // Sanitizes `candidate` to an identifier, avoids keywords and builtins, and counts up per base
  // name on clashes (add, add_1, ...). Amortized O(1): each base remembers the last number used.
  std::string createName(std::string_view candidate);
  bool contains(const std::string& name) const {
    const bool* used = used_.find(name);
    return used && *used;
  }
  void reserve(size_t n) { used_.reserve(n); }

  // Names made between startJournal() and rollbackJournal() are forgotten by the rollback, as
  // if never made (counters included): how trace names a group of ops it then replaces by one
  // module call exactly as torch.fx, which never saw the ops, names the rest.
  void startJournal();
  void rollbackJournal();
  void stopJournal();

 private:
  FlatMap<std::string, bool> used_;  // false: made, then rolled back
  FlatMap<std::string, long long> base_count_;
  struct JournalEntry {
    std::string name, base;
    long long previous_count;
  };
  bool journaling_ = false;
  std::vector<JournalEntry> journal_;
};

}  // namespace fxc::ir
