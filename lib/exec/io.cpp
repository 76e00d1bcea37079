#include "exec/io.h"

#include "ir/input_file.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>

namespace fxc::exec {
namespace {

template <typename T>
std::vector<T> readElements(const std::string& bytes, size_t offset, size_t count) {
  std::vector<T> out(count);
  if (count > 0) std::memcpy(out.data(), bytes.data() + offset, count * sizeof(T));
  return out;
}

}  // namespace

namespace {

// The integer .npy types read and written, and the dtype each keeps.
struct NpyInteger {
  const char* descr;
  ir::DType dtype;
  bool is_signed;
};
constexpr NpyInteger kNpyIntegers[] = {
    {"<i8", ir::DType::kInt64, true},   {"<i4", ir::DType::kInt32, true},
    {"<i2", ir::DType::kInt16, true},   {"|i1", ir::DType::kInt8, true},
    {"|u1", ir::DType::kUInt8, false},  {"<u2", ir::DType::kUInt16, false},
    {"<u4", ir::DType::kUInt32, false}, {"<u8", ir::DType::kUInt64, false},
    {"|b1", ir::DType::kBool, false}};

const NpyInteger* npyInteger(const std::string& descr) {
  for (const auto& t : kNpyIntegers) {
    if (descr == t.descr) return &t;
  }
  return nullptr;
}

const NpyInteger* npyInteger(ir::DType dtype) {
  for (const auto& t : kNpyIntegers) {
    if (dtype == t.dtype) return &t;
  }
  return nullptr;
}

}  // namespace

Expected<Value> readNpy(const std::string& path, NpyInfo* info) {
  // No more than the machine's memory could hold.
  size_t memory = static_cast<size_t>(::sysconf(_SC_PHYS_PAGES)) *
                  static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  auto bytes = readInputFile(path, memory);
  if (!bytes) return Error{path + ": " + bytes.error()};
  return parseNpy(bytes.value(), path, info);
}

Expected<Value> parseNpy(const std::string& bytes, const std::string& path, NpyInfo* info) {
  NpyInfo ignored;
  if (!info) info = &ignored;
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    return Error{path + ": not a .npy file"};
  int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) |
                 (static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_start = 10;
  } else if ((major == 2 || major == 3) && bytes.size() >= 12) {
    header_len = 0;
    for (int k = 0; k < 4; ++k)
      header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + k])) << (8 * k);
    header_start = 12;
  } else {
    return Error{path + ": unsupported .npy version " + std::to_string(major)};
  }
  if (header_start + header_len > bytes.size()) return Error{path + ": truncated .npy header"};
  std::string header = bytes.substr(header_start, header_len);
  auto field = [&](const std::string& key) -> std::string {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) return "";
    size_t colon = header.find(':', k);
    return colon == std::string::npos ? "" : header.substr(colon + 1);
  };
  std::string descr = field("descr"), order = field("fortran_order"), shape_text = field("shape");
  if (descr.empty() || order.empty() || shape_text.empty())
    return Error{path + ": malformed .npy header"};
  size_t q1 = descr.find('\''), q2 = descr.find('\'', q1 + 1);
  if (q1 == std::string::npos || q2 == std::string::npos)
    return Error{path + ": malformed dtype in .npy header"};
  std::string dtype = descr.substr(q1 + 1, q2 - q1 - 1);
  info->fortran_order = order.find("True") < order.find(',');
  size_t open = shape_text.find('('), close = shape_text.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return Error{path + ": malformed shape in .npy header"};
  Value value;
  std::string dims = shape_text.substr(open + 1, close - open - 1);
  unsigned __int128 count = 1;
  for (size_t start = 0; start < dims.size();) {
    size_t comma = dims.find(',', start);
    std::string item =
        dims.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? dims.size() : comma + 1;
    if (item.find_first_not_of(" ") == std::string::npos) continue;
    char* end = nullptr;
    long long d = std::strtoll(item.c_str(), &end, 10);
    if (d < 0) return Error{path + ": negative dimension"};
    value.shape.push_back(d);
    count *= static_cast<unsigned long long>(d);
    if (count > (static_cast<unsigned __int128>(1) << 40))
      return Error{path + ": the shape " + shapeText(value.shape) + " is too large"};
  }
  size_t n = static_cast<size_t>(count), offset = header_start + header_len;
  static const std::map<std::string, size_t> float_sizes = {{"<f4", 4}, {"<f8", 8}, {"<f2", 2}};
  const NpyInteger* integer = npyInteger(dtype);
  auto float_size = float_sizes.find(dtype);
  if (!integer && float_size == float_sizes.end())
    return Error{path + ": unsupported dtype '" + dtype + "'"};
  size_t size = integer ? ir::dtypeSize(integer->dtype) : float_size->second;
  if (bytes.size() - offset != n * size)
    return Error{path + ": holds " + std::to_string(bytes.size() - offset) +
                 " bytes of data, its header says " + std::to_string(n * size)};
  static const std::map<std::string, std::string> names = {
      {"<f4", "float32"}, {"<f8", "float64"}, {"<f2", "float16"}};
  info->dtype = integer ? std::string(ir::dtypeName(integer->dtype)) : names.at(dtype);
  if (dtype == "<f4") {
    value.f = readElements<float>(bytes, offset, n);
  } else if (dtype == "<f8") {
    value.dtype = ir::DType::kFloat64;
    value.d = readElements<double>(bytes, offset, n);
  } else if (dtype == "<f2") {
    auto h = readElements<uint16_t>(bytes, offset, n);
    value.f.resize(n);
    for (size_t k = 0; k < n; ++k) value.f[k] = halfToFloat(h[k]);
  } else {
    // Little-endian integers of `size` bytes, sign-extended when signed.
    value.dtype = integer->dtype;
    value.i.resize(n);
    for (size_t k = 0; k < n; ++k) {
      uint64_t raw = 0;
      std::memcpy(&raw, bytes.data() + offset + k * size, size);
      if (integer->is_signed && size < 8 && (raw >> (8 * size - 1)) & 1)
        raw |= ~uint64_t{0} << (8 * size);
      if (!integer->is_signed && size == 8 && raw > static_cast<uint64_t>(INT64_MAX))
        return Error{path + ": uint64 value " + std::to_string(raw) +
                     " is above int64's range (unsupported)"};
      value.i[k] = static_cast<int64_t>(raw);
    }
  }
  if (info->fortran_order && value.shape.size() > 1 && n > 0) {  // no elements: nothing to move
    // Element (i0, ..., ir) sits at i0 + d0·(i1 + d1·(...)) in the file: gather it to C order.
    size_t rank = value.shape.size();
    std::vector<int64_t> c_strides(rank, 1), f_strides(rank, 1);
    for (size_t d = rank - 1; d > 0; --d) c_strides[d - 1] = c_strides[d] * value.shape[d];
    for (size_t d = 1; d < rank; ++d) f_strides[d] = f_strides[d - 1] * value.shape[d - 1];
    auto reorder = [&](auto& elements) {
      auto source = elements;
      for (size_t k = 0; k < n; ++k) {
        int64_t at = 0;
        for (size_t d = 0; d < rank; ++d)
          at += static_cast<int64_t>(k) / c_strides[d] % value.shape[d] * f_strides[d];
        elements[k] = source[static_cast<size_t>(at)];
      }
    };
    if (value.isFloat())
      reorder(value.f);
    else if (value.isDouble())
      reorder(value.d);
    else
      reorder(value.i);
  }
  return value;
}

std::string npyBytes(const Value& value, bool as_float16) {
  // Integers are written in their own width: int8/uint8 (quantized tensors), int16/32, int64.
  bool floating = value.isFloat() || value.isDouble();
  as_float16 = as_float16 && value.isFloat();
  const NpyInteger* integer = floating ? nullptr : npyInteger(value.dtype);
  if (!floating && !integer) integer = npyInteger(ir::DType::kInt64);
  std::string descr = integer            ? integer->descr
                      : value.isDouble() ? "<f8"
                      : as_float16       ? "<f2"
                                         : "<f4";
  std::string shape = "(";
  for (size_t k = 0; k < value.shape.size(); ++k)
    shape += std::to_string(value.shape[k]) +
             (value.shape.size() == 1 || k + 1 < value.shape.size() ? "," : "");
  shape += ")";
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  if (value.isDouble()) {
    out.append(reinterpret_cast<const char*>(value.d.data()), value.d.size() * 8);
    return out;
  }
  if (as_float16) {
    for (float v : value.f) {
      uint16_t h = floatToHalf(v);
      out.append(reinterpret_cast<const char*>(&h), 2);
    }
    return out;
  }
  if (!integer) {
    out.append(reinterpret_cast<const char*>(value.f.data()), value.f.size() * 4);
    return out;
  }
  size_t size = ir::dtypeSize(integer->dtype);
  for (int64_t v : value.i) out.append(reinterpret_cast<const char*>(&v), size);  // the low bytes
  return out;
}

Expected<std::vector<Value>> randomInputs(const ir::GraphModule& gm, uint64_t seed,
                                          const std::map<std::string, std::vector<int64_t>>& shapes,
                                          int64_t batch) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<Value> inputs;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() != ir::Opcode::kPlaceholder) continue;
    Value value;
    // --shape names an input by its ONNX name or by its placeholder's.
    auto given = shapes.find(node->meta.value_name);
    if (given == shapes.end()) given = shapes.find(node->name());
    // Messages say the ONNX name, the one users know.
    const std::string& label = node->meta.value_name.empty() ? node->name() : node->meta.value_name;
    if (given != shapes.end()) {
      value.shape = given->second;
    } else if (node->meta.shape) {
      for (const auto& dim : *node->meta.shape) {
        if (batch > 0 && value.shape.empty()) {
          value.shape.push_back(batch);
          continue;
        }
        if (ir::isSymbolicDim(dim))
          return Error{"input " + label + " has the symbolic dimension '" + dim +
                       "': give --shape " + label + "=D0,D1,..."};
        value.shape.push_back(std::stoll(dim));
      }
    } else {
      return Error{"input " + label + " has no declared shape: give --shape " + label +
                   "=D0,D1,..."};
    }
    int64_t n = 0;
    try {
      n = checkedNumel(value.shape);
    } catch (const ExecError& error) {
      return Error{"input " + label + ": " + error.what()};
    }
    const std::string& dtype = node->meta.dtype;
    static const std::map<std::string, ir::DType> integers = {
        {"int64", ir::DType::kInt64},   {"int32", ir::DType::kInt32},
        {"int16", ir::DType::kInt16},   {"int8", ir::DType::kInt8},
        {"uint64", ir::DType::kUInt64}, {"uint32", ir::DType::kUInt32},
        {"uint16", ir::DType::kUInt16}, {"uint8", ir::DType::kUInt8},
        {"bool", ir::DType::kBool}};
    auto integer = integers.find(dtype);
    if (dtype.empty() || dtype == "float32" || dtype == "float16" || dtype == "bfloat16") {
      value.f.resize(static_cast<size_t>(n));  // computed in float32, as every float input,
      for (float& v : value.f) {               // each a value of the declared type
        v = normal(rng);
        if (dtype == "float16") v = roundToFloat16(v);
        if (dtype == "bfloat16") v = roundToBFloat16(v);
      }
    } else if (dtype == "float64") {
      value.dtype = ir::DType::kFloat64;
      value.d.resize(static_cast<size_t>(n));
      for (double& v : value.d) v = normal(rng);
    } else if (integer != integers.end()) {
      value.dtype = integer->second;
      value.i.assign(static_cast<size_t>(n), 0);
    } else {
      return Error{"input " + label + " has the unsupported type " + dtype};
    }
    inputs.push_back(std::move(value));
  }
  for (const auto& [name, shape] : shapes) {
    bool found = false;
    std::string names;
    for (const ir::Node* node : gm.graph()) {
      if (node->op() != ir::Opcode::kPlaceholder) continue;
      found = found || node->name() == name || node->meta.value_name == name;
      names += (names.empty() ? "" : ", ") +
               (node->meta.value_name.empty() ? node->name() : node->meta.value_name);
    }
    if (!found) return Error{"--shape " + name + ": the model's inputs are " + names};
  }
  return inputs;
}

bool float32Exactly(Value& value) {
  if (!value.isDouble()) return value.isFloat();
  std::vector<float> f(value.d.size());
  for (size_t k = 0; k < f.size(); ++k) {
    double v = value.d[k];
    f[k] = narrowToFloat(v);
    if (!std::isnan(v) && static_cast<double>(f[k]) != v) return false;
  }
  value.dtype = ir::DType::kFloat32;
  value.f = std::move(f);
  value.d.clear();
  return true;
}

ValueStats statsOf(const Value& value) {
  ValueStats stats;
  stats.count = value.held();
  if (stats.count == 0) return stats;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (size_t k = 0; k < stats.count; ++k) {
    double v = value.at(k);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  stats.min = lo;
  stats.mean = sum / static_cast<double>(stats.count);
  stats.max = hi;
  return stats;
}

std::string summary(const Value& value, std::string_view dtype) {
  std::string text = std::string(dtype.empty() ? ir::dtypeName(value.dtype) : dtype) + " " +
                     shapeText(value.shape);
  ValueStats stats = statsOf(value);
  if (stats.count == 0) return text;
  char buf[128];
  std::snprintf(buf, sizeof buf, "  min %.6g  mean %.6g  max %.6g", stats.min, stats.mean,
                stats.max);
  return text + buf;
}

Difference compareValues(const Value& got, const Value& want, double atol, double rtol) {
  Difference d;
  if (got.shape != want.shape || got.isFloat() != want.isFloat() ||
      got.isDouble() != want.isDouble()) {
    d.within = false;
    d.max_abs = d.max_rel = INFINITY;
    return d;
  }
  size_t n = want.held();
  for (size_t k = 0; k < n; ++k) {
    double g = got.at(k), w = want.at(k);
    // NaN in both places, or the same value (an infinity too, whose difference is NaN), is
    // agreement: the tolerance's rtol·|w| would be NaN or infinite there.
    if ((std::isnan(g) && std::isnan(w)) || g == w) continue;
    // Otherwise a NaN or an infinity on either side disagrees (−inf against +inf was "within"
    // any rtol: rtol·|w| is infinite).
    double abs = std::isfinite(g) && std::isfinite(w) ? std::fabs(g - w) : INFINITY;
    d.max_abs = std::max(d.max_abs, abs);
    if (w != 0) d.max_rel = std::max(d.max_rel, abs / std::fabs(w));
    if (!std::isfinite(abs) || !(abs <= atol + rtol * std::fabs(w))) d.within = false;
  }
  return d;
}

Expected<std::vector<std::vector<Value>>> calibrationInputs(
    const ir::GraphModule& gm, const std::string& spec, uint64_t seed,
    const std::map<std::string, std::vector<int64_t>>& shapes, int64_t batch) {
  std::vector<std::vector<Value>> samples;
  if (spec.rfind("random:", 0) == 0) {
    std::string count = spec.substr(7);
    char* end = nullptr;
    long long n = std::strtoll(count.c_str(), &end, 10);
    if (count.empty() || *end != '\0' || n < 1 || n > 1000000)
      return Error{"calibration '" + spec + "': expected random:N with N >= 1"};
    for (long long k = 0; k < n; ++k) {
      auto inputs = randomInputs(gm, seed + static_cast<uint64_t>(k), shapes, batch);
      if (!inputs) return Error{inputs.error()};
      samples.push_back(inputs.take());
    }
    return samples;
  }
  struct stat info;
  bool is_dir = ::stat(spec.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
  bool is_npy = !is_dir && ::stat(spec.c_str(), &info) == 0 && spec.size() > 4 &&
                spec.compare(spec.size() - 4, 4, ".npy") == 0;
  if (!is_dir && !is_npy)
    return Error{"calibration '" + spec + "': not random:N, a directory or a .npy file"};
  std::vector<std::string> files;
  if (is_npy) files.push_back(spec);
  if (DIR* dir = is_dir ? ::opendir(spec.c_str()) : nullptr) {
    std::string prefix = spec.back() == '/' ? spec : spec + "/";
    while (dirent* entry = ::readdir(dir)) {
      std::string name = entry->d_name;
      if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
        files.push_back(prefix + name);
    }
    ::closedir(dir);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return Error{"calibration directory " + spec + " holds no .npy files"};
  std::vector<const ir::Node*> placeholders;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() == ir::Opcode::kPlaceholder) placeholders.push_back(node);
  }
  if (placeholders.size() != 1)
    return Error{"calibration " + spec + ": the model has " + std::to_string(placeholders.size()) +
                 " inputs; .npy files calibrate single-input models"};
  std::optional<Expected<Value>> first;  // files[0], when the shapes needed it first
  auto declared = randomInputs(gm, seed, shapes, batch);
  if (!declared) {
    // Symbolic dimensions: from the first file, but a symbolic batch is --batch or 1 (files
    // then hold batches of samples, split by rows as below).
    first = readNpy(files[0]);  // read once: the loop below takes it
    if (!*first) return Error{files[0] + ": " + first->error()};
    std::vector<int64_t> sample = first->value().shape;
    const auto& dims = placeholders[0]->meta.shape;
    if (dims && dims->size() == sample.size() && !sample.empty() && ir::isSymbolicDim(dims->at(0)))
      sample[0] = batch > 0 ? batch : 1;
    auto completed = shapes;
    completed[placeholders[0]->name()] = sample;
    declared = randomInputs(gm, seed, completed, 0);
    if (!declared) return Error{declared.error()};
  }
  const Value& want = declared.value()[0];
  for (const auto& file : files) {
    auto value = first ? std::move(*first) : readNpy(file);  // files[0] comes first
    first.reset();
    if (!value) return Error{file + ": " + value.error()};
    Value& v = value.value();
    if (v.isDouble() && want.isFloat() && !float32Exactly(v))
      return Error{file + ": float64 with values float32 cannot hold exactly; save it as " +
                   "float32 (array.astype(numpy.float32))"};
    if (v.isFloat() != want.isFloat() || v.isDouble() != want.isDouble())
      return Error{file + ": " + std::string(ir::dtypeName(v.dtype)) + ", the model's input is " +
                   std::string(ir::dtypeName(want.dtype))};
    if (v.shape == want.shape) {
      samples.push_back({std::move(v)});
      continue;
    }
    // A batch: as many samples as it holds rows of the declared batch size.
    bool rows = !want.shape.empty() && v.shape.size() == want.shape.size() && want.shape[0] > 0 &&
                std::equal(v.shape.begin() + 1, v.shape.end(), want.shape.begin() + 1) &&
                v.shape[0] % want.shape[0] == 0 && v.shape[0] > 0;
    if (!rows)
      return Error{file + ": shape " + shapeText(v.shape) + ", the model's input is " +
                   shapeText(want.shape) + " (or a batch of it)"};
    int64_t per = want.numel();
    for (int64_t start = 0; start < v.numel(); start += per) {
      Value sample;
      sample.dtype = v.dtype;
      sample.shape = want.shape;
      if (v.isFloat())
        sample.f.assign(v.f.begin() + start, v.f.begin() + start + per);
      else if (v.isDouble())
        sample.d.assign(v.d.begin() + start, v.d.begin() + start + per);
      else
        sample.i.assign(v.i.begin() + start, v.i.begin() + start + per);
      samples.push_back({std::move(sample)});
    }
  }
  return samples;
}

}  // namespace fxc::exec
