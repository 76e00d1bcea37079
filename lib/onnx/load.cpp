#include "onnx/load.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <iterator>

#include <onnx/onnx_pb.h>

namespace fxc::onnx {
namespace {

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

Error systemError(const std::string& what) { return Error{what + ": " + std::strerror(errno)}; }

template <typename Field>
void packInto(std::string& out, const Field& values, size_t element_size) {
  out.resize(static_cast<size_t>(values.size()) * element_size);
  char* dst = out.data();
  for (const auto& v : values) {
    std::memcpy(dst, &v, element_size);  // little-endian: the low bytes of wider storage
    dst += element_size;
  }
}

}  // namespace

Expected<LoadedModel> parseModel(const char* data, size_t size, std::string base_dir) {
  if (size == 0) return Error{"empty file, not an ONNX model"};
  if (size > static_cast<size_t>(INT32_MAX))
    return Error{"file is over 2 GB; store the weights as external data"};
  auto proto = std::make_shared<::onnx::ModelProto>();
  if (!proto->ParseFromArray(data, static_cast<int>(size)))
    return Error{"not a valid ONNX model (protobuf parse failed: truncated or not ONNX)"};
  if (!proto->has_graph()) return Error{"not an ONNX model (it has no graph)"};
  return LoadedModel{std::move(proto), std::move(base_dir)};
}

Expected<LoadedModel> loadModel(const std::string& path) {
  if (path == "-") {
    std::string bytes((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    return parseModel(bytes.data(), bytes.size(), ".");
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return systemError("cannot open");
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    ::close(fd);
    return systemError("cannot stat");
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    return Error{"is a directory, not an ONNX model"};
  }
  size_t size = static_cast<size_t>(info.st_size);
  if (size == 0 || !S_ISREG(info.st_mode)) {
    // Not mappable (a FIFO, say): read it as a stream.
    std::string bytes;
    char buffer[1 << 16];
    ssize_t n;
    while ((n = ::read(fd, buffer, sizeof buffer)) > 0) bytes.append(buffer, static_cast<size_t>(n));
    ::close(fd);
    if (n < 0) return systemError("cannot read");
    return parseModel(bytes.data(), bytes.size(), directoryOf(path));
  }
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  ::close(fd);
  if (mapped == MAP_FAILED) return systemError("cannot map");
  auto result = parseModel(static_cast<const char*>(mapped), size, directoryOf(path));
  ::munmap(mapped, size);
  return result;
}

Expected<std::shared_ptr<ir::Tensor>> takeTensor(::onnx::TensorProto& proto,
                                                 const std::string& base_dir,
                                                 const std::string& what) {
  auto tensor = std::make_shared<ir::Tensor>();
  tensor->dtype = static_cast<ir::DType>(proto.data_type());
  for (int64_t d : proto.dims()) {
    if (d < 0) return Error{what + ": negative dimension " + std::to_string(d)};
    tensor->dims.push_back(d);
  }
  size_t element_size = ir::dtypeSize(tensor->dtype);
  if (tensor->dtype != ir::DType::kString && element_size == 0)
    return Error{what + ": unsupported data type " + std::to_string(proto.data_type())};
  if (proto.has_data_location() && proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
    std::string location;
    int64_t offset = 0, length = -1;
    for (const auto& entry : proto.external_data()) {
      if (entry.key() == "location") location = entry.value();
      if (entry.key() == "offset") offset = std::atoll(entry.value().c_str());
      if (entry.key() == "length") length = std::atoll(entry.value().c_str());
    }
    if (location.empty()) return Error{what + ": external data without a location"};
    if (location[0] == '/' || location.find("..") != std::string::npos)
      return Error{what + ": external data location '" + location +
                   "' must be a relative path inside the model's directory"};
    std::string file = base_dir + "/" + location;
    int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error{what + ": cannot open external data file '" + location + "': " +
                             std::strerror(errno)};
    struct stat info {};
    ::fstat(fd, &info);
    if (length < 0) length = info.st_size - offset;
    if (offset < 0 || offset + length > info.st_size) {
      ::close(fd);
      return Error{what + ": external data file '" + location + "' is too short (" +
                   std::to_string(info.st_size) + " bytes, need " + std::to_string(offset + length) + ")"};
    }
    tensor->data.resize(static_cast<size_t>(length));
    size_t done = 0;
    while (done < tensor->data.size()) {
      ssize_t n = ::pread(fd, tensor->data.data() + done, tensor->data.size() - done,
                          static_cast<off_t>(offset) + static_cast<off_t>(done));
      if (n <= 0) {
        ::close(fd);
        return Error{what + ": cannot read external data file '" + location + "'"};
      }
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  } else if (proto.has_raw_data()) {
    tensor->data.swap(*proto.mutable_raw_data());
  } else {
    using DT = ir::DType;
    switch (tensor->dtype) {
      case DT::kFloat32: case DT::kComplex64: packInto(tensor->data, proto.float_data(), 4); break;
      case DT::kFloat64: case DT::kComplex128: packInto(tensor->data, proto.double_data(), 8); break;
      case DT::kInt64: packInto(tensor->data, proto.int64_data(), 8); break;
      case DT::kUInt32: packInto(tensor->data, proto.uint64_data(), 4); break;
      case DT::kUInt64: packInto(tensor->data, proto.uint64_data(), 8); break;
      case DT::kString:
        tensor->strings.assign(proto.string_data().begin(), proto.string_data().end());
        break;
      default: packInto(tensor->data, proto.int32_data(), element_size); break;
    }
  }
  int64_t numel = tensor->numel();
  if (tensor->dtype == ir::DType::kString) {
    if (static_cast<int64_t>(tensor->strings.size()) != numel)
      return Error{what + ": holds " + std::to_string(tensor->strings.size()) +
                   " strings but its shape needs " + std::to_string(numel)};
  } else {
    if (tensor->data.size() != static_cast<size_t>(numel) * element_size)
      return Error{what + ": holds " + std::to_string(tensor->data.size()) + " bytes but its shape of " +
                   std::string(ir::dtypeName(tensor->dtype)) + " needs " +
                   std::to_string(static_cast<size_t>(numel) * element_size)};
  }
  return tensor;
}

}  // namespace fxc::onnx
