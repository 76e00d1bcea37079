#include "ir/name_space.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>

namespace fxc::ir {
namespace {

// Python's keyword.kwlist and dir(builtins) (3.11), and torch.fx's _custom_builtins.
const std::unordered_set<std::string_view>& reservedNames() {
  static const std::unordered_set<std::string_view> names = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
      "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if",
      "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
      "while", "with", "yield",
      // builtins
      "ArithmeticError", "AssertionError", "AttributeError", "BaseException", "BaseExceptionGroup",
      "BlockingIOError", "BrokenPipeError", "BufferError", "BytesWarning", "ChildProcessError",
      "ConnectionAbortedError", "ConnectionError", "ConnectionRefusedError", "ConnectionResetError",
      "DeprecationWarning", "EOFError", "Ellipsis", "EncodingWarning", "EnvironmentError",
      "Exception", "ExceptionGroup", "FileExistsError", "FileNotFoundError", "FloatingPointError",
      "FutureWarning", "GeneratorExit", "IOError", "ImportError", "ImportWarning",
      "IndentationError", "IndexError", "InterruptedError", "IsADirectoryError", "KeyError",
      "KeyboardInterrupt", "LookupError", "MemoryError", "ModuleNotFoundError", "NameError",
      "NotADirectoryError", "NotImplemented", "NotImplementedError", "OSError", "OverflowError",
      "PendingDeprecationWarning", "PermissionError", "ProcessLookupError", "RecursionError",
      "ReferenceError", "ResourceWarning", "RuntimeError", "RuntimeWarning", "StopAsyncIteration",
      "StopIteration", "SyntaxError", "SyntaxWarning", "SystemError", "SystemExit", "TabError",
      "TimeoutError", "TypeError", "UnboundLocalError", "UnicodeDecodeError", "UnicodeEncodeError",
      "UnicodeError", "UnicodeTranslateError", "UnicodeWarning", "UserWarning", "ValueError",
      "Warning", "ZeroDivisionError", "__build_class__", "__debug__", "__doc__", "__import__",
      "__loader__", "__name__", "__package__", "__spec__", "abs", "aiter", "all", "anext", "any",
      "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod",
      "compile", "complex", "copyright", "credits", "delattr", "dict", "dir", "divmod", "enumerate",
      "eval", "exec", "exit", "filter", "float", "format", "frozenset", "getattr", "globals",
      "hasattr", "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter",
      "len", "license", "list", "locals", "map", "max", "memoryview", "min", "next", "object",
      "oct", "open", "ord", "pow", "print", "property", "quit", "range", "repr", "reversed",
      "round", "set", "setattr", "slice", "sorted", "staticmethod", "str", "sum", "super", "tuple",
      "type", "vars", "zip",
      // torch.fx custom builtins
      "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"};
  return names;
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::string closestName(std::string_view word, const std::vector<std::string>& candidates) {
  auto distance = [](std::string_view a, std::string_view b) {  // Levenshtein
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diagonal = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  std::string best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (const auto& candidate : candidates) {
    size_t d = distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string snakeCase(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 4);
  bool prev_lower = false;
  for (char c : text) {
    bool upper = std::isupper(static_cast<unsigned char>(c));
    if (prev_lower && upper) out += '_';
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    prev_lower = std::islower(static_cast<unsigned char>(c));
  }
  return out;
}

bool isReservedName(std::string_view name) { return reservedNames().count(name) != 0; }

std::string NameSpace::createName(std::string_view raw) {
  // re.sub('[^0-9a-zA-Z_]+', '_', candidate): a run of illegal characters becomes one '_'.
  std::string candidate;
  candidate.reserve(raw.size() + 4);
  for (size_t i = 0; i < raw.size();) {
    if (isIdentChar(raw[i])) {
      candidate += raw[i++];
    } else {
      candidate += '_';
      while (i < raw.size() && !isIdentChar(raw[i])) ++i;
    }
  }
  if (candidate.empty()) candidate = "_unnamed";
  if (std::isdigit(static_cast<unsigned char>(candidate[0]))) candidate.insert(0, "_");

  // re.match(r"(.*)_(\d+)$"): split a numeric suffix off the base.
  std::string base = candidate;
  long long num = 0;
  bool has_num = false;
  size_t digits_begin = candidate.size();
  while (digits_begin > 0 && std::isdigit(static_cast<unsigned char>(candidate[digits_begin - 1])))
    --digits_begin;
  if (digits_begin < candidate.size() && digits_begin >= 1 && candidate[digits_begin - 1] == '_' &&
      candidate.size() - digits_begin < 18) {
    base = candidate.substr(0, digits_begin - 1);
    num = std::stoll(candidate.substr(digits_begin));
    has_num = true;
    candidate = base + "_" + std::to_string(num);
  }
  if (!has_num || num == 0) {
    const long long* count = base_count_.find(base);
    num = count ? *count : 0;
  }
  while (contains(candidate) || isReservedName(candidate)) {
    ++num;
    candidate = base + "_" + std::to_string(num);
  }
  used_[candidate] = true;
  if (journaling_) {
    const long long* previous = base_count_.find(base);
    journal_.push_back(JournalEntry{candidate, base, previous ? *previous : 0});
  }
  base_count_[std::move(base)] = num;
  return candidate;
}

void NameSpace::startJournal() {
  journal_.clear();
  journaling_ = true;
}

void NameSpace::rollbackJournal() {
  for (auto it = journal_.rbegin(); it != journal_.rend(); ++it) {
    used_[it->name] = false;
    base_count_[it->base] = it->previous_count;
  }
  journal_.clear();
}

void NameSpace::stopJournal() {
  journal_.clear();
  journaling_ = false;
}

}  // namespace fxc::ir
