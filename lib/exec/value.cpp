#include "exec/value.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace fxc::exec {

int64_t Value::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Value Value::floats(std::vector<int64_t> shape, std::vector<float> data) {
  Value v;
  v.shape = std::move(shape);
  v.f = std::move(data);
  return v;
}

Value Value::doubles(std::vector<int64_t> shape, std::vector<double> data) {
  Value v;
  v.dtype = ir::DType::kFloat64;
  v.shape = std::move(shape);
  v.d = std::move(data);
  return v;
}

Value Value::ints(std::vector<int64_t> shape, std::vector<int64_t> data, ir::DType dtype) {
  Value v;
  v.dtype = dtype;
  v.shape = std::move(shape);
  v.i = std::move(data);
  return v;
}

void Value::makePlain() {
  if (!native) return;
  std::vector<float> elements = native->plain();
  if (isFloat()) {
    f = std::move(elements);
  } else {  // integer elements (int8/uint8 activations), exact in float
    i.assign(elements.begin(), elements.end());
  }
  native.reset();
}

std::vector<int64_t> Value::asInts() const {
  if (!isFloat() && !isDouble()) return i;
  std::vector<int64_t> out(held());
  for (size_t k = 0; k < out.size(); ++k) {
    double v = at(k);
    // Past int64 (or NaN) the conversion is undefined: a float tensor read as indices or a shape.
    if (!(v > -0x1p63 && v < 0x1p63)) {
      char text[32];
      std::snprintf(text, sizeof text, "%g", v);
      throw ExecError(std::string("the value ") + text + " is no integer within int64");
    }
    out[k] = static_cast<int64_t>(v);
  }
  return out;
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400u)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float roundToFloat16(float value) {
  return std::isnan(value) ? value : halfToFloat(floatToHalf(value));
}

uint16_t floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, 4);
  uint32_t sign = (x >> 16) & 0x8000u, magnitude = x & 0x7fffffffu;
  uint16_t h;
  if (magnitude > 0x7f800000u) {
    h = static_cast<uint16_t>(sign | 0x7e00u);  // NaN, quiet
  } else if (magnitude >= 0x477ff000u) {        // from 65520 up (and inf): beyond float16, inf
    h = static_cast<uint16_t>(sign | 0x7c00u);
  } else if (magnitude < 0x38800000u) {  // below 2^-14: a multiple of float16's 2^-24, or 0
    float scaled;
    std::memcpy(&scaled, &magnitude, 4);
    h = static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled * 16777216.0f)));
  } else {  // rebias the exponent; round the 13 dropped mantissa bits to nearest, ties to even
    uint32_t rebiased = magnitude - 0x38000000u;
    h = static_cast<uint16_t>(sign | ((rebiased + 0x0fffu + ((rebiased >> 13) & 1u)) >> 13));
  }
  return h;
}

float roundToBFloat16(float value) {
  if (std::isnan(value)) return value;
  uint32_t x;
  std::memcpy(&x, &value, 4);
  x = (x + 0x7fffu + ((x >> 16) & 1u)) & 0xffff0000u;  // carries into the exponent: up to inf
  float out;
  std::memcpy(&out, &x, 4);
  return out;
}

float narrowToFloat(double value) {
  if (std::fabs(value) > 3.4028234663852886e38) return std::copysign(INFINITY, value);
  return static_cast<float>(value);
}

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + "]";
}

namespace {
double memory_limit = 0;  // setMemoryLimit: 0 for the machine's memory
}  // namespace

void setMemoryLimit(double bytes) { memory_limit = bytes; }

int64_t checkedNumel(const std::vector<int64_t>& shape, ir::DType dtype) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw ExecError("shape " + shapeText(shape) + " has a negative dimension");
    if (__builtin_mul_overflow(n, d, &n))
      throw ExecError("shape " + shapeText(shape) + " has more elements than 64 bits can count");
  }
  static const double machine =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  double limit =
      memory_limit > 0 && (machine <= 0 || memory_limit < machine) ? memory_limit : machine;
  double bytes = static_cast<double>(n) * (dtype == ir::DType::kFloat32 ? 4.0 : 8.0);
  if (limit > 0 && bytes > limit) {
    char text[128];
    std::snprintf(text, sizeof text, " needs %.1f GB, more than %s %.1f GB", bytes / 1e9,
                  limit == machine ? "this machine's" : "the limit of", limit / 1e9);
    throw ExecError("shape " + shapeText(shape) + " of " + std::string(ir::dtypeName(dtype)) +
                    text);
  }
  return n;
}

namespace {
template <typename T>
std::vector<T> elements(const ir::Tensor& tensor) {
  std::vector<T> out(static_cast<size_t>(tensor.numel()));
  if (tensor.byteSize() != out.size() * sizeof(T))
    throw ExecError("constant of " + shapeText(tensor.dims) + " has the wrong number of bytes");
  if (!out.empty()) std::memcpy(out.data(), tensor.bytes(), tensor.byteSize());
  return out;
}
}  // namespace

Value fromTensor(const ir::Tensor& tensor) {
  Value v;
  v.shape = tensor.dims;
  v.dtype = tensor.dtype;
  switch (tensor.dtype) {
    case ir::DType::kFloat32:
      v.f = elements<float>(tensor);
      break;
    case ir::DType::kFloat64:
      v.d = elements<double>(tensor);
      break;
    case ir::DType::kInt64:
      v.i = elements<int64_t>(tensor);
      break;
    case ir::DType::kInt32: {
      auto d = elements<int32_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kBool:
    case ir::DType::kUInt8: {
      auto d = elements<uint8_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kInt8: {
      auto d = elements<int8_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kInt16: {
      auto d = elements<int16_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kUInt16: {
      auto d = elements<uint16_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kUInt32: {
      auto d = elements<uint32_t>(tensor);
      v.i.assign(d.begin(), d.end());
      break;
    }
    case ir::DType::kUInt64: {  // held as int64: only values below 2^63
      auto d = elements<uint64_t>(tensor);
      for (uint64_t e : d) {
        if (e > static_cast<uint64_t>(INT64_MAX))
          throw ExecError("unsupported: uint64 value " + std::to_string(e) +
                          " (above int64's range)");
      }
      v.i.assign(d.begin(), d.end());
      break;
    }
    default:
      throw ExecError("unsupported: tensors of type " + std::string(ir::dtypeName(tensor.dtype)));
  }
  return v;
}

std::shared_ptr<ir::Tensor> toTensor(const Value& value) {
  auto tensor = std::make_shared<ir::Tensor>();
  tensor->dtype = value.dtype;
  tensor->dims = value.shape;
  std::string bytes;
  auto pack = [&](auto element) {
    using T = decltype(element);
    bytes.resize(value.i.size() * sizeof(T));
    for (size_t k = 0; k < value.i.size(); ++k) {
      T v = static_cast<T>(value.i[k]);
      std::memcpy(bytes.data() + k * sizeof(T), &v, sizeof(T));
    }
  };
  switch (value.dtype) {
    case ir::DType::kFloat32:
      if (value.native) return nullptr;
      bytes.assign(reinterpret_cast<const char*>(value.f.data()), value.f.size() * sizeof(float));
      break;
    case ir::DType::kFloat64:
      bytes.assign(reinterpret_cast<const char*>(value.d.data()), value.d.size() * sizeof(double));
      break;
    case ir::DType::kInt64:
      pack(int64_t{});
      break;
    case ir::DType::kInt32:
      pack(int32_t{});
      break;
    case ir::DType::kInt8:
      pack(int8_t{});
      break;
    case ir::DType::kInt16:
      pack(int16_t{});
      break;
    case ir::DType::kUInt16:
      pack(uint16_t{});
      break;
    case ir::DType::kUInt32:
      pack(uint32_t{});
      break;
    case ir::DType::kUInt64:
      pack(uint64_t{});
      break;
    case ir::DType::kUInt8:
    case ir::DType::kBool:
      pack(uint8_t{});
      break;
    default:
      return nullptr;
  }
  if (static_cast<int64_t>(bytes.size()) !=
      value.numel() * static_cast<int64_t>(ir::dtypeSize(value.dtype)))
    return nullptr;
  tensor->setBytes(std::move(bytes));
  return tensor;
}

}  // namespace fxc::exec
