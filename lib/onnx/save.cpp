// Writing models: stdout, or a temporary file renamed into place; external data past 2 GB.
#include <fcntl.h>
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "onnx/export.h"

namespace fxc::onnx {
namespace {

constexpr size_t kProtobufLimit = size_t{2} << 30;  // protobuf cannot write a message past 2 GB
constexpr size_t kExternalMinimum = 1024;

// Writes `bytes` to `path` via `path.tmp.XXXXXX` + rename.
Expected<bool> writeAtomically(const std::string& path, const std::string& bytes) {
  std::string temp = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return Error{"cannot write " + path + ": " + std::strerror(errno)};
  const char* data = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temp.c_str());
      return Error{"cannot write " + path + ": " + std::strerror(saved)};
    }
    data += n;
    left -= static_cast<size_t>(n);
  }
  ::fchmod(fd, 0644);
  if (::close(fd) != 0 || ::rename(temp.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temp.c_str());
    return Error{"cannot write " + path + ": " + std::strerror(saved)};
  }
  return true;
}

std::string baseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Expected<bool> saveModel(::onnx::ModelProto& model, const std::string& path,
                         const SaveOptions& options) {
  bool external = options.external_data || model.ByteSizeLong() >= kProtobufLimit;
  if (external && path == "-")
    return Error{"a model with external data cannot be written to stdout"};
  std::string data_bytes;
  if (external) {
    std::string location = baseName(path) + ".data";
    for (auto& tensor : *model.mutable_graph()->mutable_initializer()) {
      if (!tensor.has_raw_data() || tensor.raw_data().size() < kExternalMinimum) continue;
      while (data_bytes.size() % 64) data_bytes += '\0';  // aligned, as ONNX's own writer does
      size_t offset = data_bytes.size();
      size_t length = tensor.raw_data().size();
      data_bytes += tensor.raw_data();
      tensor.clear_raw_data();
      tensor.set_data_location(::onnx::TensorProto::EXTERNAL);
      auto add = [&](const char* key, const std::string& value) {
        auto* entry = tensor.add_external_data();
        entry->set_key(key);
        entry->set_value(value);
      };
      add("location", location);
      add("offset", std::to_string(offset));
      add("length", std::to_string(length));
    }
  }
  std::string bytes;
  if (!model.SerializeToString(&bytes)) return Error{"cannot serialize the model (over 2 GB?)"};
  if (path == "-") {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
        std::fflush(stdout) != 0)
      return Error{std::string("cannot write to stdout: ") + std::strerror(errno)};
    return true;
  }
  if (external) {
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    auto written = writeAtomically(dir + baseName(path) + ".data", data_bytes);
    if (!written) return written;
  }
  return writeAtomically(path, bytes);
}

}  // namespace fxc::onnx
