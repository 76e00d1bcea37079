// Runtime values of the CPU executor: a dtype, a shape, and the elements. float32 values live in
// `f`; float64 values in `d` (computed in double by the kernels that accept them, refused by the
// others: never computed in float32 and relabelled); integer and bool values (int64/32/16/8,
// uint32/16/8, uint64 below 2^63, bool) in `i`, widened to int64.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::exec {

// A failure while running a node: unsupported op, bad shapes, bad input. The interpreter adds
// the node's name.
class ExecError : public ModelError {
 public:
  using ModelError::ModelError;
};

// float32 elements kept in a backend's own layout (oneDNN's channel-blocked formats) between
// kernels that understand it, so that a chain of convolutions does not convert at every step.
class NativeData {
 public:
  virtual ~NativeData() = default;
  // The elements in row-major order of the value's shape (integers as exact floats).
  virtual std::vector<float> plain() const = 0;
};

struct Value {
  ir::DType dtype = ir::DType::kFloat32;
  std::vector<int64_t> shape;
  std::vector<float> f;
  std::vector<int64_t> i;
  std::vector<double> d;
  // When set, the elements are here instead of in `f` (or in `i`: int8 and uint8). Kernels that do
  // not accept native data never see it: the interpreter calls makePlain() first.
  std::shared_ptr<const NativeData> native;
  void makePlain();

  int64_t numel() const;
  bool isFloat() const { return dtype == ir::DType::kFloat32; }
  bool isDouble() const { return dtype == ir::DType::kFloat64; }
  // Element k as a double (any dtype; plain values only).
  double at(size_t k) const {
    return isFloat() ? f[k] : isDouble() ? d[k] : static_cast<double>(i[k]);
  }
  // The number of elements held (plain values only).
  size_t held() const { return isFloat() ? f.size() : isDouble() ? d.size() : i.size(); }
  static Value floats(std::vector<int64_t> shape, std::vector<float> data);
  static Value doubles(std::vector<int64_t> shape, std::vector<double> data);
  static Value ints(std::vector<int64_t> shape, std::vector<int64_t> data,
                    ir::DType dtype = ir::DType::kInt64);
  // The elements as int64 (floats truncated; NaN or past int64: an ExecError): for shapes, axes,
  // indices.
  std::vector<int64_t> asInts() const;
};

std::string shapeText(const std::vector<int64_t>& shape);

// float16 (IEEE binary16 bits) as float32, exactly; and a float32 rounded to the nearest float16
// value (ties to even; beyond float16's range, infinity).
float halfToFloat(uint16_t bits);
float roundToFloat16(float value);
uint16_t floatToHalf(float value);  // the float16 bits of roundToFloat16 (a NaN: a quiet NaN)
// A float32 rounded to the nearest bfloat16 value (ties to even; NaN stays NaN).
float roundToBFloat16(float value);
// A double as the nearest float32 (beyond float32's range: infinity, never undefined behaviour).
float narrowToFloat(double value);

// The element count of a shape about to be allocated, checked: no negative dimension, no
// overflow, and no more bytes (as stored here: 4 per float, 8 per integer) than the machine's
// memory. Throws ExecError naming the shape.
int64_t checkedNumel(const std::vector<int64_t>& shape, ir::DType dtype = ir::DType::kFloat32);
// Lowers the bytes one value may take below the machine's memory (0: back to the machine's);
// process-wide, for the fuzzers, which must stay within their memory limit.
void setMemoryLimit(double bytes);

// A constant tensor of the module tree as a runtime value (copies; float32, ints, bool; a uint64
// above int64's range is refused).
Value fromTensor(const ir::Tensor& tensor);
// A runtime value as a constant tensor of its own dtype (float32, the integer types, bool),
// or nullptr for a dtype a tensor would not hold exactly.
std::shared_ptr<ir::Tensor> toTensor(const Value& value);

}  // namespace fxc::exec
