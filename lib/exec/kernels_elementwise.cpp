// Elementwise kernels: activations (functional and module forms) and binary ops with numpy
// broadcasting.
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>

#include "exec/kernels_internal.h"

namespace fxc::exec {

void add(KernelTable& table, std::initializer_list<const char*> keys, const Kernel& kernel) {
  for (const char* key : keys) table[key] = kernel;
}

size_t normalizeAxis(int64_t axis, size_t rank) {
  int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    throw ExecError("axis " + std::to_string(axis) + " is out of range for rank " +
                    std::to_string(rank));
  return static_cast<size_t>(axis < 0 ? axis + r : axis);
}

std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

const Value& requireFloat(const Value& value, const char* what) {
  if (!value.isFloat())
    throw ExecError("unsupported: " + std::string(what) + " of type " +
                    std::string(ir::dtypeName(value.dtype)) + " (float32 only)");
  return value;
}

bool heldAsInteger(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kInt64:
    case ir::DType::kInt32:
    case ir::DType::kInt16:
    case ir::DType::kInt8:
    case ir::DType::kUInt64:
    case ir::DType::kUInt32:
    case ir::DType::kUInt16:
    case ir::DType::kUInt8:
    case ir::DType::kBool:
      return true;
    default:
      return false;
  }
}

int64_t wrapTo(int64_t value, ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kInt64:
      return value;
    case ir::DType::kInt32:
      return static_cast<int32_t>(value);
    case ir::DType::kInt16:
      return static_cast<int16_t>(value);
    case ir::DType::kInt8:
      return static_cast<int8_t>(value);
    case ir::DType::kUInt32:
      return static_cast<uint32_t>(value);
    case ir::DType::kUInt16:
      return static_cast<uint16_t>(value);
    case ir::DType::kUInt8:
      return static_cast<uint8_t>(value);
    case ir::DType::kBool:
      return value != 0;
    case ir::DType::kUInt64:
      if (value < 0)
        throw ExecError("unsupported: a uint64 result above int64's range (" +
                        std::to_string(static_cast<uint64_t>(value)) + ")");
      return value;
    default:
      throw ExecError("unsupported: integer values of type " + std::string(ir::dtypeName(dtype)));
  }
}

std::vector<int64_t> broadcastShape(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t k = 0; k < rank; ++k) {
    int64_t da = k + a.size() >= rank ? a[k + a.size() - rank] : 1;
    int64_t db = k + b.size() >= rank ? b[k + b.size() - rank] : 1;
    if (da != db && da != 1 && db != 1)
      throw ExecError("shapes " + shapeText(a) + " and " + shapeText(b) + " do not broadcast");
    out[k] = da == 1 ? db : da;
  }
  return out;
}

std::vector<int64_t> broadcastStrides(const std::vector<int64_t>& shape,
                                      const std::vector<int64_t>& out) {
  std::vector<int64_t> strides(out.size(), 0), own = stridesOf(shape);
  for (size_t k = 0; k < shape.size(); ++k) {
    size_t o = k + out.size() - shape.size();
    strides[o] = shape[k] == 1 ? 0 : own[k];
  }
  return strides;
}

namespace {

template <typename F>
Kernel unary(F fn) {
  return [fn](const KernelContext& c) {
    const Value& x = requireFloat(c.input(0), "the input");
    Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
    for (size_t k = 0; k < x.f.size(); ++k) y.f[k] = fn(x.f[k], c);
    return outputs(std::move(y));
  };
}

// -x with two's-complement wrap-around (the minimum stays itself, as in numpy), never overflow.
int64_t negate(int64_t x) { return static_cast<int64_t>(0 - static_cast<uint64_t>(x)); }

// x + y, x - y, x · y and x / y with the same wrap-around (numpy's and ONNX Runtime's int64: a
// signed overflow is undefined in C++; the quantization fuzzer multiplied past int64).
int64_t wrappingAdd(int64_t x, int64_t y) {
  return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
}
int64_t wrappingSub(int64_t x, int64_t y) {
  return static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
}
int64_t wrappingMul(int64_t x, int64_t y) {
  return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
}
int64_t wrappingDiv(int64_t x, int64_t y) {  // y != 0; the minimum over -1 is the minimum
  return y == -1 ? negate(x) : x / y;
}

// A unary op defined on floats and integers (Neg, Abs, Sign): integers keep their type, the
// result wrapped to its width (int8 -(-128) is -128, as numpy gives).
template <typename FF, typename FI>
Kernel numericUnary(FF float_fn, FI int_fn) {
  return [float_fn, int_fn](const KernelContext& c) {
    const Value& x = c.input(0);
    if (x.isFloat()) {
      Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
      for (size_t k = 0; k < x.f.size(); ++k) y.f[k] = float_fn(x.f[k]);
      return outputs(std::move(y));
    }
    if (x.dtype == ir::DType::kBool)
      throw ExecError("unsupported: the input of type bool (numbers only)");
    Value y = Value::ints(x.shape, std::vector<int64_t>(x.i.size()), x.dtype);
    for (size_t k = 0; k < x.i.size(); ++k) y.i[k] = wrapTo(int_fn(x.i[k]), x.dtype);
    return outputs(std::move(y));
  };
}

// out[o] = fn(x[i], y[j]) over the broadcast of x and y; a plain loop when the shapes are equal.
template <typename T, typename F>
std::vector<T> combineElements(const Value& a, const Value& b, const std::vector<T>& x,
                               const std::vector<T>& y, F fn, std::vector<int64_t>& shape) {
  std::vector<T> out;
  // Floating-point loops of many elements run on the thread pool (their fn cannot throw; the
  // integer ones can: division by zero).
  constexpr bool kParallel = std::is_floating_point_v<T>;
  const bool parallel = kParallel && x.size() + y.size() > static_cast<size_t>(kParallelElements);
  if (a.shape == b.shape) {
    shape = a.shape;
    out.resize(x.size());
    forEachIndex(parallel, static_cast<int64_t>(out.size()),
                 [&](int64_t k) { out[k] = fn(x[k], y[k]); });
    return out;
  }
  std::vector<int64_t> full = broadcastShape(a.shape, b.shape);
  out.resize(static_cast<size_t>(checkedNumel(full, a.dtype)));
  // `part`'s shape at the full rank (leading 1s), or nullopt where `whole` is not of the full
  // shape: the two forms below need one operand whole.
  auto aligned = [&](const Value& whole, const Value& part) -> std::optional<std::vector<int64_t>> {
    if (whole.shape != full || part.shape.size() > full.size()) return std::nullopt;
    std::vector<int64_t> p(full.size() - part.shape.size(), 1);
    p.insert(p.end(), part.shape.begin(), part.shape.end());
    return p;
  };
  // One operand of the full shape and the other constant along the trailing dimensions from
  // some point (x · s with s [N, C, 1, 1]; a scalar): block by block, no index arithmetic.
  auto blocked = [&](const Value& whole, const Value& part, bool part_second) {
    std::optional<std::vector<int64_t>> padded = aligned(whole, part);
    if (!padded) return false;
    const std::vector<int64_t>& p = *padded;
    size_t split = full.size();
    while (split > 0 && p[split - 1] == 1) --split;
    for (size_t d = 0; d < split; ++d) {
      if (p[d] != full[d]) return false;
    }
    const std::vector<T>& w = part_second ? x : y;
    const std::vector<T>& v = part_second ? y : x;
    size_t blocks = v.size(), block = blocks ? out.size() / blocks : 0;
    forEachIndex(parallel && blocks > 1, static_cast<int64_t>(blocks), [&](int64_t i) {
      T c = v[i];
      const T* in = w.data() + i * block;
      T* to = out.data() + i * block;
      if (part_second) {
        for (size_t k = 0; k < block; ++k) to[k] = fn(in[k], c);
      } else {
        for (size_t k = 0; k < block; ++k) to[k] = fn(c, in[k]);
      }
    });
    shape = full;
    return true;
  };
  // Or one operand constant along the leading dimensions up to some point (x + b with b [C]
  // for x [N, L, C]; an attention bias [1, H, L, L]): the other repeats it, row by row.
  auto repeated = [&](const Value& whole, const Value& part, bool part_second) {
    std::optional<std::vector<int64_t>> padded = aligned(whole, part);
    if (!padded) return false;
    const std::vector<int64_t>& p = *padded;
    size_t split = 0;
    while (split < full.size() && p[split] == 1) ++split;
    for (size_t d = split; d < full.size(); ++d) {
      if (p[d] != full[d]) return false;
    }
    const std::vector<T>& w = part_second ? x : y;
    const std::vector<T>& v = part_second ? y : x;
    size_t row = v.size(), rows = row ? out.size() / row : 0;
    forEachIndex(parallel && rows > 1, static_cast<int64_t>(rows), [&](int64_t i) {
      const T* in = w.data() + i * row;
      T* to = out.data() + i * row;
      if (part_second) {
        for (size_t k = 0; k < row; ++k) to[k] = fn(in[k], v[k]);
      } else {
        for (size_t k = 0; k < row; ++k) to[k] = fn(v[k], in[k]);
      }
    });
    shape = full;
    return true;
  };
  if (!out.empty() && (blocked(a, b, true) || blocked(b, a, false) || repeated(a, b, true) ||
                       repeated(b, a, false)))
    return out;
  shape = forEachBroadcast(a, b, [&](int64_t o, int64_t i, int64_t j) {
    out[static_cast<size_t>(o)] = fn(x[static_cast<size_t>(i)], y[static_cast<size_t>(j)]);
  });
  return out;
}

// Before opset 7, binary ops broadcast only with broadcast=1, and then B alone: its dimensions
// match A's from `axis` on (by default A's last ones), which is numpy's broadcasting once B gains
// unit dimensions around them. That B, when the attributes are there (nullopt: use B as it is).
std::optional<Value> legacyOperand(const KernelContext& c, const Value& a, const Value& b) {
  if (!c.attribute("broadcast") && !c.attribute("axis")) return std::nullopt;
  if (c.intAttribute("broadcast", 0) == 0) {
    if (a.shape != b.shape)
      throw ExecError("shapes " + shapeText(a.shape) + " and " + shapeText(b.shape) +
                      " differ without broadcast=1 (opset < 7)");
    return std::nullopt;
  }
  int64_t rank_a = static_cast<int64_t>(a.shape.size()),
          rank_b = static_cast<int64_t>(b.shape.size());
  int64_t axis = c.intAttribute("axis", rank_a - rank_b);
  Value aligned = b;
  aligned.shape.assign(static_cast<size_t>(std::max<int64_t>(axis, 0)), 1);
  aligned.shape.insert(aligned.shape.end(), b.shape.begin(), b.shape.end());
  aligned.shape.resize(static_cast<size_t>(std::max(rank_a, rank_b)), 1);
  bool fits = axis >= 0 && axis + rank_b <= rank_a;
  for (size_t d = 0; fits && d < aligned.shape.size(); ++d)
    fits = aligned.shape[d] == 1 || aligned.shape[d] == a.shape[d];
  if (!fits)
    throw ExecError("B " + shapeText(b.shape) + " does not broadcast to A " + shapeText(a.shape) +
                    " at axis " + std::to_string(axis) + " (opset < 7)");
  return aligned;
}

// The double function of an op that has none: float64 operands are refused, never computed in
// float32.
struct NoDouble {};

// a ∘ b with broadcasting, both float32, both float64 (when the op has a double function) or
// both integer.
template <typename FF, typename FI, typename FD = NoDouble>
Value combine(const Value& a, const Value& b, FF float_fn, FI int_fn, FD double_fn = {}) {
  Value y;
  y.dtype = a.dtype;
  if (a.isDouble() || b.isDouble()) {
    if constexpr (std::is_same_v<FD, NoDouble>) {
      throw ExecError("unsupported: float64 operands");
    } else {
      if (!a.isDouble() || !b.isDouble())
        throw ExecError("unsupported: operands of different types");
      y.d = combineElements(a, b, a.d, b.d, double_fn, y.shape);
      return y;
    }
  }
  if (a.isFloat() != b.isFloat()) throw ExecError("unsupported: operands of different types");
  if (a.isFloat()) {
    y.f = combineElements(a, b, a.f, b.f, float_fn, y.shape);
  } else {
    y.i = combineElements(a, b, a.i, b.i, int_fn, y.shape);
    for (int64_t& v : y.i) v = wrapTo(v, y.dtype);
  }
  return y;
}

template <typename FF, typename FI, typename FD = NoDouble>
Kernel binary(FF float_fn, FI int_fn, FD double_fn = {}) {
  return [float_fn, int_fn, double_fn](const KernelContext& c) {
    if (c.inputCount() != 2)
      throw ExecError("unsupported: " + std::to_string(c.inputCount()) + " operands");
    std::optional<Value> legacy = legacyOperand(c, c.input(0), c.input(1));
    return outputs(combine(c.input(0), legacy ? *legacy : c.input(1), float_fn, int_fn, double_fn));
  };
}

// Sum, Mean, Min, Max of one or more operands, broadcast together.
template <typename FF, typename FI, typename FD>
Kernel variadic(FF float_fn, FI int_fn, FD double_fn, bool mean) {
  return [float_fn, int_fn, double_fn, mean](const KernelContext& c) {
    if (c.inputCount() == 0) throw ExecError("no operands");
    if (c.attribute("broadcast") || c.attribute("axis") || c.attribute("consumed_inputs"))
      throw ExecError("unsupported: opset-6 broadcasting");
    Value acc = c.input(0);
    for (size_t k = 1; k < c.inputCount(); ++k)
      acc = combine(acc, c.input(k), float_fn, int_fn, double_fn);
    if (mean && acc.isDouble()) {
      for (double& v : acc.d) v /= static_cast<double>(c.inputCount());
    } else if (mean) {
      requireFloat(acc, "Mean's operands");
      for (float& v : acc.f) v /= static_cast<float>(c.inputCount());
    }
    return outputs(std::move(acc));
  };
}

template <typename F>
Kernel compare(F fn) {
  return [fn](const KernelContext& c) {
    const Value& a = c.input(0);
    std::optional<Value> legacy = legacyOperand(c, a, c.input(1));
    const Value& b = legacy ? *legacy : c.input(1);
    std::vector<int64_t> out;
    std::vector<int64_t> shape = forEachBroadcast(a, b, [&](int64_t, int64_t i, int64_t j) {
      if (heldAsInteger(a.dtype) && heldAsInteger(b.dtype)) {  // exactly, beyond double's 2^53
        out.push_back(fn(a.i[i], b.i[j]) ? 1 : 0);
        return;
      }
      out.push_back(fn(a.at(static_cast<size_t>(i)), b.at(static_cast<size_t>(j))) ? 1 : 0);
    });
    return outputs(Value::ints(shape, std::move(out), ir::DType::kBool));
  };
}

// Clip of integers (opset 12+): bounds are inputs of the input's type, absent ones unbounded.
std::vector<Value> clampIntegers(const KernelContext& c) {
  const Value& x = c.input(0);
  if (x.dtype == ir::DType::kBool) throw ExecError("unsupported: Clip of bool");
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (size_t k : {1, 2}) {
    const Value* bound = c.optionalInput(k);
    if (!bound || bound->numel() == 0) continue;
    if (bound->dtype != x.dtype) throw ExecError("Clip's bounds differ in type from its input");
    (k == 1 ? lo : hi) = bound->i.at(0);
  }
  if (c.attribute("min") || c.attribute("max"))
    throw ExecError("unsupported: Clip of integers with min/max attributes");
  Value y = x;
  for (int64_t& v : y.i) v = std::min(hi, std::max(lo, v));
  return outputs(std::move(y));
}

// Pow: the result has the base's type; since opset 12 the exponent's type may differ. Computed
// in double; an integer result is truncated (numpy's astype), and refused beyond 2^53, where
// double would round it.
std::vector<Value> power(const KernelContext& c) {
  const Value& base = c.input(0);
  std::optional<Value> legacy = legacyOperand(c, base, c.input(1));
  const Value& exponent = legacy ? *legacy : c.input(1);
  for (const Value* v : {&base, &exponent}) {
    if (v->dtype == ir::DType::kBool) throw ExecError("unsupported: Pow of bool");
  }
  if (base.isFloat() && exponent.isFloat() && exponent.f.size() == 1 && exponent.shape.empty()) {
    // A float32 base to a scalar float32 power: the same values without broadcasting; x² as x·x,
    // the one rounding of the exact square either way.
    double e = exponent.f[0];
    Value y = Value::floats(base.shape, std::vector<float>(base.f.size()));
    for (size_t k = 0; k < y.f.size(); ++k) {
      float x = base.f[k];
      y.f[k] = e == 2.0 ? x * x : static_cast<float>(std::pow(static_cast<double>(x), e));
    }
    return outputs(std::move(y));
  }
  auto at = [](const Value& v, int64_t k) {
    return v.isFloat() ? static_cast<double>(v.f[static_cast<size_t>(k)])
                       : static_cast<double>(v.i[static_cast<size_t>(k)]);
  };
  Value y;
  y.dtype = base.dtype;
  checkedNumel(broadcastShape(base.shape, exponent.shape), base.dtype);
  y.shape = forEachBroadcast(base, exponent, [&](int64_t, int64_t i, int64_t j) {
    if (!base.isFloat() && !exponent.isFloat() && at(exponent, j) < 0)
      throw ExecError("unsupported: an integer to a negative integer power");
    double r = std::pow(at(base, i), at(exponent, j));
    if (base.isFloat()) {
      y.f.push_back(static_cast<float>(r));
      return;
    }
    if (!(std::fabs(r) <= 9007199254740992.0))
      throw ExecError("unsupported: an integer Pow result beyond 2^53");
    y.i.push_back(wrapTo(static_cast<int64_t>(r), base.dtype));
  });
  return outputs(std::move(y));
}

// BitShift of unsigned integers; a shift by the type's width or more gives 0.
std::vector<Value> bitShift(const KernelContext& c) {
  const Value& x = c.input(0);
  const Value& amount = c.input(1);
  int bits = 0;
  switch (x.dtype) {
    case ir::DType::kUInt8:
      bits = 8;
      break;
    case ir::DType::kUInt16:
      bits = 16;
      break;
    case ir::DType::kUInt32:
      bits = 32;
      break;
    case ir::DType::kUInt64:
      bits = 64;
      break;
    default:
      throw ExecError("unsupported: BitShift of " + std::string(ir::dtypeName(x.dtype)) +
                      " (unsigned integers only)");
  }
  if (amount.dtype != x.dtype) throw ExecError("BitShift's operands differ in type");
  std::string direction = c.stringAttribute("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    throw ExecError("BitShift direction must be LEFT or RIGHT, not '" + direction + "'");
  bool left = direction == "LEFT";
  Value y = combine(
      x, amount, [](float, float) { return 0.0f; },
      [left, bits](int64_t v, int64_t by) -> int64_t {
        if (by >= bits) return 0;
        uint64_t u = static_cast<uint64_t>(v);
        return static_cast<int64_t>(left ? u << by : u >> by);
      });
  return outputs(std::move(y));
}

// clamp(αx + β, 0, 1) as the clamp kernel computes it: a NaN gives the lower bound, 0, as ReLU's
// and Clip's do and as oneDNN's clip does when conv-act fuses the activation (min(1, NaN) first
// gave 1).
float hardSigmoid(float x, float alpha, float beta) {
  return std::min(1.0f, std::max(0.0f, alpha * x + beta));
}

}  // namespace

std::pair<float, float> clipBounds(const KernelContext& c) {
  float lo = c.floatAttribute("min", -INFINITY), hi = c.floatAttribute("max", INFINITY);
  const Value* min = c.optionalInput(1) ? c.optionalInput(1) : c.tensor("min");
  const Value* max = c.optionalInput(2) ? c.optionalInput(2) : c.tensor("max");
  if (min && !min->f.empty()) lo = min->f[0];
  if (max && !max->f.empty()) hi = max->f[0];
  return {lo, hi};
}

void addElementwiseKernels(KernelTable& t) {
  using C = const KernelContext&;
  add(t, {"torch.relu", "module:ReLU"}, unary([](float x, C) { return x > 0 ? x : 0.0f; }));
  add(t, {"torch.sigmoid", "module:Sigmoid"},
      unary([](float x, C) { return 1.0f / (1.0f + std::exp(-x)); }));
  add(t, {"torch.tanh", "module:Tanh"}, unary([](float x, C) { return std::tanh(x); }));
  add(t, {"torch.exp"}, unary([](float x, C) { return std::exp(x); }));
  add(t, {"torch.log"}, unary([](float x, C) { return std::log(x); }));
  add(t, {"torch.sqrt"}, unary([](float x, C) { return std::sqrt(x); }));
  add(t, {"torch.erf"}, unary([](float x, C) { return std::erf(x); }));
  add(t, {"torch.abs"},
      numericUnary([](float x) { return std::fabs(x); },
                   [](int64_t x) { return x < 0 ? negate(x) : x; }));
  add(t, {"operator.neg"}, numericUnary([](float x) { return -x; }, negate));
  add(t, {"torch.reciprocal"}, unary([](float x, C) { return 1.0f / x; }));
  add(t, {"torch.floor"}, unary([](float x, C) { return std::floor(x); }));
  add(t, {"torch.ceil"}, unary([](float x, C) { return std::ceil(x); }));
  add(t, {"torch.sin"}, unary([](float x, C) { return std::sin(x); }));
  add(t, {"torch.tan"}, unary([](float x, C) { return std::tan(x); }));
  add(t, {"torch.asin"}, unary([](float x, C) { return std::asin(x); }));
  add(t, {"torch.acos"}, unary([](float x, C) { return std::acos(x); }));
  add(t, {"torch.atan"}, unary([](float x, C) { return std::atan(x); }));
  add(t, {"torch.sinh"}, unary([](float x, C) { return std::sinh(x); }));
  add(t, {"torch.cosh"}, unary([](float x, C) { return std::cosh(x); }));
  add(t, {"torch.asinh"}, unary([](float x, C) { return std::asinh(x); }));
  add(t, {"torch.acosh"}, unary([](float x, C) { return std::acosh(x); }));
  add(t, {"torch.atanh"}, unary([](float x, C) { return std::atanh(x); }));
  add(t, {"torch.round"}, unary([](float x, C) { return std::nearbyint(x); }));  // half to even
  add(t, {"torch.cos"}, unary([](float x, C) { return std::cos(x); }));
  add(t, {"torch.nn.functional.leaky_relu", "module:LeakyReLU"},
      unary([](float x, C c) { return x >= 0 ? x : x * c.floatAttribute("alpha", 0.01f); }));
  add(t, {"torch.nn.functional.elu", "module:ELU"}, unary([](float x, C c) {
        return x >= 0 ? x : c.floatAttribute("alpha", 1.0f) * (std::exp(x) - 1.0f);
      }));
  add(t, {"torch.nn.functional.softplus", "module:Softplus"},
      unary([](float x, C) { return softplus(x); }));
  add(t, {"torch.nn.functional.hardsigmoid", "module:Hardsigmoid"}, unary([](float x, C c) {
        return hardSigmoid(x, c.floatAttribute("alpha", 0.2f), c.floatAttribute("beta", 0.5f));
      }));
  add(t, {"torch.nn.functional.hardswish", "module:Hardswish"},
      unary([](float x, C) { return x * hardSigmoid(x, 1.0f / 6, 0.5f); }));
  add(t, {"module:SiLU"}, unary([](float x, C) { return x / (1.0f + std::exp(-x)); }));
  add(t, {"torch.nn.functional.gelu", "module:GELU"}, [](const KernelContext& c) {
    std::string approximate = c.stringAttribute("approximate", "none");
    if (approximate == "tanh")
      return unary([](float x, C) {
        return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
      })(c);
    if (approximate != "none") throw ExecError("unsupported: approximate=" + approximate);
    return unary([](float x, C) { return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f))); })(c);
  });
  add(t, {"module:Mish"}, unary([](float x, C) { return x * std::tanh(softplus(x)); }));
  add(t, {"torch.clamp", "module:Hardtanh"}, [](const KernelContext& c) {
    if (!c.input(0).isFloat()) return clampIntegers(c);
    const Value& x = c.input(0);
    auto [lo, hi] = clipBounds(c);
    Value y = Value::floats(x.shape, std::vector<float>(x.f.size()));
    for (size_t k = 0; k < x.f.size(); ++k) y.f[k] = std::min(hi, std::max(lo, x.f[k]));
    return outputs(std::move(y));
  });
  auto plus = [](auto x, auto y) { return x + y; };
  // Max and Min: a NaN operand is the answer (nanMax; std::max kept the first operand: Max(1,
  // NaN) was 1, Max(NaN, 1) NaN).
  auto larger = [](auto x, auto y) { return nanMax(x, y); };
  auto smaller = [](auto x, auto y) { return nanMin(x, y); };
  add(t, {"operator.add", "torch.add"},
      binary([](float a, float b) { return a + b; }, wrappingAdd,
             [](double a, double b) { return a + b; }));
  add(t, {"operator.sub", "torch.sub"},
      binary([](float a, float b) { return a - b; }, wrappingSub,
             [](double a, double b) { return a - b; }));
  add(t, {"operator.mul", "torch.mul"},
      binary([](float a, float b) { return a * b; }, wrappingMul,
             [](double a, double b) { return a * b; }));
  add(t, {"operator.truediv", "torch.div"},
      binary([](float a, float b) { return a / b; },
             [](int64_t a, int64_t b) {
               if (b == 0) throw ExecError("integer division by zero");
               return wrappingDiv(a, b);
             },
             [](double a, double b) { return a / b; }));
  add(t, {"operator.pow"}, power);
  add(t, {"torch.maximum"},
      variadic([=](float x, float y) { return larger(x, y); },
               [=](int64_t x, int64_t y) { return larger(x, y); },
               [=](double x, double y) { return larger(x, y); }, false));
  add(t, {"torch.minimum"},
      variadic([=](float x, float y) { return smaller(x, y); },
               [=](int64_t x, int64_t y) { return smaller(x, y); },
               [=](double x, double y) { return smaller(x, y); }, false));
  add(t, {"onnx.Sum"},
      variadic([=](float x, float y) { return plus(x, y); }, wrappingAdd,
               [=](double x, double y) { return plus(x, y); }, false));
  add(t, {"onnx.Mean"},
      variadic([=](float x, float y) { return plus(x, y); }, wrappingAdd,
               [=](double x, double y) { return plus(x, y); }, true));
  add(t, {"onnx.Mod"}, [](const KernelContext& c) {
    bool fmod = c.intAttribute("fmod", 0) != 0;
    const Value& a = c.input(0);
    if ((a.isFloat() || a.isDouble()) && !fmod) throw ExecError("Mod of floats needs fmod=1");
    return outputs(combine(
        a, c.input(1), [](float x, float y) { return std::fmod(x, y); },
        [fmod](int64_t x, int64_t y) {
          if (y == 0) throw ExecError("integer modulo by zero");
          int64_t r = y == -1 ? 0 : x % y;                      // the minimum % -1 overflows
          if (!fmod && r != 0 && ((r < 0) != (y < 0))) r += y;  // Python's sign: the divisor's
          return r;
        },
        [](double x, double y) { return std::fmod(x, y); }));
  });
  add(t, {"torch.sign"},
      numericUnary([](float x) { return x != x ? x : static_cast<float>((x > 0) - (x < 0)); },
                   [](int64_t x) -> int64_t { return (x > 0) - (x < 0); }));
  add(t, {"torch.nn.functional.selu", "module:SELU"}, unary([](float x, C c) {
        float alpha = c.floatAttribute("alpha", 1.67326319217681884765625f),
              gamma = c.floatAttribute("gamma", 1.05070102214813232421875f);
        return x > 0 ? gamma * x : gamma * (alpha * std::exp(x) - alpha);
      }));
  add(t, {"torch.nn.functional.softsign", "module:Softsign"},
      unary([](float x, C) { return x / (1.0f + std::fabs(x)); }));
  add(t, {"torch.nn.functional.celu", "module:CELU"}, unary([](float x, C c) {
        float alpha = c.floatAttribute("alpha", 1.0f);
        if (std::isnan(x)) return x;  // max(0, NaN) and min(0, NaN) were 0: a NaN is NaN
        return std::max(0.0f, x) + std::min(0.0f, alpha * (std::exp(x / alpha) - 1.0f));
      }));
  add(t, {"onnx.ThresholdedRelu"},
      unary([](float x, C c) { return x > c.floatAttribute("alpha", 1.0f) ? x : 0.0f; }));
  add(t, {"torch.nn.functional.prelu", "module:PReLU"}, [](const KernelContext& c) {
    const Value* slope = c.tensor("weight") ? c.tensor("weight") : c.optionalInput(1);
    if (!slope) throw ExecError("PRelu has no slope");
    const Value& x = requireFloat(c.input(0), "the input");
    Value per_channel = requireFloat(*slope, "the slope");
    // Before opset 7 a [C] slope applied per channel; numpy broadcasting rejects that shape, so
    // reading it per channel changes no model that broadcasts.
    if (per_channel.shape.size() == 1 && x.shape.size() > 2 && per_channel.shape[0] == x.shape[1] &&
        x.shape.back() != per_channel.shape[0]) {
      per_channel.shape.resize(x.shape.size() - 1, 1);
    }
    return outputs(combine(
        x, per_channel, [](float v, float s) { return v >= 0 ? v : v * s; },
        [](int64_t v, int64_t) { return v; }));
  });
  add(t, {"torch.logical_not"}, [](const KernelContext& c) {
    Value y = Value::ints(c.input(0).shape, c.input(0).asInts(), ir::DType::kBool);
    for (int64_t& v : y.i) v = v == 0;
    return outputs(std::move(y));
  });
  auto logic = [](auto fn) {
    return [fn](const KernelContext& c) {
      if (c.input(0).dtype != ir::DType::kBool || c.input(1).dtype != ir::DType::kBool)
        throw ExecError("unsupported: logical ops on non-bool operands");
      std::optional<Value> legacy = legacyOperand(c, c.input(0), c.input(1));
      Value y = combine(
          c.input(0), legacy ? *legacy : c.input(1), [](float, float) { return 0.0f; }, fn);
      y.dtype = ir::DType::kBool;
      return outputs(std::move(y));
    };
  };
  add(t, {"operator.and_"}, logic([](int64_t a, int64_t b) -> int64_t { return a && b; }));
  add(t, {"operator.or_"}, logic([](int64_t a, int64_t b) -> int64_t { return a || b; }));
  add(t, {"operator.xor"},
      logic([](int64_t a, int64_t b) -> int64_t { return (a != 0) != (b != 0); }));
  add(t, {"onnx.BitShift"}, bitShift);
  add(t, {"torch.isinf"}, [](const KernelContext& c) {
    const Value& x = requireFloat(c.input(0), "the input");
    bool positive = c.intAttribute("detect_positive", 1) != 0,
         negative = c.intAttribute("detect_negative", 1) != 0;
    Value y = Value::ints(x.shape, std::vector<int64_t>(x.f.size()), ir::DType::kBool);
    for (size_t k = 0; k < x.f.size(); ++k)
      y.i[k] = std::isinf(x.f[k]) && (x.f[k] > 0 ? positive : negative);
    return outputs(std::move(y));
  });
  add(t, {"torch.isnan"}, [](const KernelContext& c) {
    const Value& x = requireFloat(c.input(0), "the input");
    Value y = Value::ints(x.shape, std::vector<int64_t>(x.f.size()), ir::DType::kBool);
    for (size_t k = 0; k < x.f.size(); ++k) y.i[k] = std::isnan(x.f[k]);
    return outputs(std::move(y));
  });
  add(t, {"onnx.Shrink"}, unary([](float x, C c) {
        float lambd = c.floatAttribute("lambd", 0.5f), bias = c.floatAttribute("bias", 0.0f);
        return x < -lambd ? x + bias : x > lambd ? x - bias : 0.0f;
      }));
  add(t, {"operator.eq"}, compare([](auto a, auto b) { return a == b; }));
  add(t, {"operator.lt"}, compare([](auto a, auto b) { return a < b; }));
  add(t, {"operator.gt"}, compare([](auto a, auto b) { return a > b; }));
  add(t, {"operator.le"}, compare([](auto a, auto b) { return a <= b; }));
  add(t, {"operator.ge"}, compare([](auto a, auto b) { return a >= b; }));
}

}  // namespace fxc::exec
