// weights.npz: an uncompressed ZIP of .npy files, as numpy.savez writes it (no ZIP64: up to
// 65535 tensors and 4 GiB).
#include <array>
#include <cstdint>

#include "ir/expected.h"
#include "onnx/codegen_internal.h"

namespace fxc::onnx::codegen {
namespace {

const char* npyDescr(ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kFloat32:
      return "<f4";
    case ir::DType::kFloat64:
      return "<f8";
    case ir::DType::kFloat16:
      return "<f2";
    case ir::DType::kInt8:
      return "|i1";
    case ir::DType::kUInt8:
      return "|u1";
    case ir::DType::kInt16:
      return "<i2";
    case ir::DType::kInt32:
      return "<i4";
    case ir::DType::kInt64:
      return "<i8";
    case ir::DType::kBool:
      return "|b1";
    default:
      return nullptr;
  }
}

std::string npy(const StateTensor& tensor) {
  std::string header = "{'descr': '" + std::string(npyDescr(tensor.dtype)) +
                       "', 'fortran_order': False, 'shape': " + pyTuple(tensor.dims) + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + tensor.bytes;
}

uint32_t crc32(const std::string& bytes) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

}  // namespace

std::string npz(const std::vector<StateTensor>& state) {
  std::string out, directory;
  if (state.size() > 0xffff) throw ModelError("over 65535 tensors: no .npz without ZIP64");
  for (const StateTensor& tensor : state) {
    std::string data = npy(tensor);
    std::string name = tensor.name + ".npy";
    if (out.size() + data.size() + name.size() + 30 > 0xffffffffu)
      throw ModelError("the weights exceed 4 GiB: no .npz without ZIP64");
    uint32_t crc = crc32(data), offset = static_cast<uint32_t>(out.size());
    auto size = static_cast<uint32_t>(data.size());
    auto fields = [&](std::string& to) {  // from "version needed" to the name's length
      put16(to, 20);
      put16(to, 0);     // flags
      put16(to, 0);     // stored
      put16(to, 0);     // time
      put16(to, 0x21);  // 1980-01-01
      put32(to, crc);
      put32(to, size);
      put32(to, size);
      put16(to, static_cast<uint32_t>(name.size()));
      put16(to, 0);  // extra
    };
    put32(out, 0x04034b50);
    fields(out);
    out += name;
    out += data;
    put32(directory, 0x02014b50);
    put16(directory, 20);  // made by
    fields(directory);
    put16(directory, 0);  // comment
    put16(directory, 0);  // disk
    put16(directory, 0);  // internal attributes
    put32(directory, 0);  // external attributes
    put32(directory, offset);
    directory += name;
  }
  auto directory_offset = static_cast<uint32_t>(out.size());
  out += directory;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(state.size()));
  put16(out, static_cast<uint32_t>(state.size()));
  put32(out, static_cast<uint32_t>(directory.size()));
  put32(out, directory_offset);
  put16(out, 0);
  return out;
}

}  // namespace fxc::onnx::codegen
