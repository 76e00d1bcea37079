// Inputs and outputs of a run: .npy files, seeded random inputs, output summaries.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "exec/value.h"
#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::exec {

// What a .npy file held before it became a Value: its dtype as NumPy names it ("float64", ...),
// and whether it was Fortran-ordered (the Value is always C order).
struct NpyInfo {
  std::string dtype;
  bool fortran_order = false;
};
// Reads a NumPy .npy file (float32/64, float16, int8/16/32/64, uint8/16/32, bool; C or Fortran
// order) into float32 (float16 exactly), float64 or integer elements.
Expected<Value> readNpy(const std::string& path, NpyInfo* info = nullptr);
// The same from the file's bytes; `path` names it in errors.
Expected<Value> parseNpy(const std::string& bytes, const std::string& path,
                         NpyInfo* info = nullptr);
// A float64 value as float32 when every element converts exactly (NaN and infinities do); false,
// the value unchanged, when one would round. A float32 value is left as it is (true).
bool float32Exactly(Value& value);
// Serializes a value as .npy: float32 (with `as_float16`, float16: what a model declares float16
// and fxc computes in float32), float64, or its integer type (int8 ... int64, uint8/16/32, bool).
std::string npyBytes(const Value& value, bool as_float16 = false);

// One seeded random value per placeholder, of its declared shape and dtype (normal floats, zero
// integers). `shapes` overrides or completes a shape (symbolic dims need it); `batch` > 0
// replaces the first declared dimension of every input.
Expected<std::vector<Value>> randomInputs(const ir::GraphModule& gm, uint64_t seed,
                                          const std::map<std::string, std::vector<int64_t>>& shapes,
                                          int64_t batch = 0);

// Calibration samples, each one value per placeholder: "random:N" (N seeded random inputs, seeds
// seed .. seed+N-1) or a directory of .npy files for a single-input model (sorted by name; each
// one sample of the input's shape, or a batch of them along the first axis).
Expected<std::vector<std::vector<Value>>> calibrationInputs(
    const ir::GraphModule& gm, const std::string& spec, uint64_t seed,
    const std::map<std::string, std::vector<int64_t>>& shapes = {}, int64_t batch = 0);

// "float32 [1, 1000]  min -3.2  mean 0.0123  max 4.5" (`dtype`, when given, names the type)
std::string summary(const Value& value, std::string_view dtype = {});
// min, mean and max of the elements (what summary() prints); count 0 for an empty value.
struct ValueStats {
  size_t count = 0;
  double min = 0, mean = 0, max = 0;
};
ValueStats statsOf(const Value& value);

// The largest absolute and relative differences of `got` from `want`, and whether every element
// is within atol + rtol·|want|. Shapes or types that differ are never within.
struct Difference {
  double max_abs = 0;
  double max_rel = 0;
  bool within = true;
};
Difference compareValues(const Value& got, const Value& want, double atol, double rtol);

}  // namespace fxc::exec
