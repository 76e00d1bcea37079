// The pass registry: each pass registers itself in its own file (no central list of passes).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::passes {

enum class OptionKind { kString, kInt, kFloat, kBool };

struct OptionSpec {
  std::string name;
  OptionKind kind = OptionKind::kString;
  std::string default_value;
  std::string help;
};

// A decimal integer (int64) or a finite number that is the whole text; nullopt otherwise.
std::optional<int64_t> parseInteger(const std::string& text);
std::optional<double> parseNumber(const std::string& text);

// Option values as given (`--pass name:key=value,...`), checked against the specs, defaults
// filled in.
class Options {
 public:
  const std::string& get(const std::string& key) const { return values_.at(key); }
  int64_t getInt(const std::string& key) const;   // a value parseInteger accepts
  double getFloat(const std::string& key) const;  // a value parseNumber accepts
  bool getBool(const std::string& key) const { return get(key) == "true" || get(key) == "1"; }
  std::map<std::string, std::string>& values() { return values_; }
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// What a pass did: whether the graph changed, and counts by what they count ("fused": 20).
struct PassResult {
  std::vector<std::pair<std::string, int64_t>> counts;
  bool changed() const;
  void add(const std::string& what, int64_t n = 1);
};

struct PassInfo {
  std::string name;
  std::string summary;  // one line
  std::vector<OptionSpec> options;
  std::function<Expected<PassResult>(ir::GraphModule&, const Options&)> run;
  // Checks option values before any model is read (their errors are usage errors); optional.
  std::function<Expected<bool>(const Options&)> validate = nullptr;
  // Reads node shapes (meta.shape): the model is traced with ONNX shape inference.
  bool needs_shapes = false;
};

class Registry {
 public:
  static Registry& instance();
  void add(PassInfo info);
  const PassInfo* find(const std::string& name) const;
  // Sorted by name.
  std::vector<const PassInfo*> all() const;

 private:
  std::map<std::string, PassInfo> passes_;
};

// `static RegisterPass registration{{...}};` at the end of a pass's file.
struct RegisterPass {
  explicit RegisterPass(PassInfo info) { Registry::instance().add(std::move(info)); }
};

// "conv-bn" or "replace-op:from=Add,to=Mul" → the pass and its checked options. Unknown passes,
// unknown options and values of the wrong kind are errors that list what is valid.
struct PassRequest {
  const PassInfo* pass = nullptr;
  Options options;
};
Expected<PassRequest> parsePassSpec(const std::string& spec);

}  // namespace fxc::passes
