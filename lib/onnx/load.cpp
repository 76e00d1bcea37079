#include "onnx/load.h"

#include <fcntl.h>
#include <onnx/onnx_pb.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "ir/input_file.h"

namespace fxc::onnx {
namespace {

std::string directoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

Error systemError(const std::string& what) { return Error{what + ": " + std::strerror(errno)}; }

// A model read as a stream (stdin, a pipe): protobuf's own limit, and one byte more to tell.
constexpr size_t kMaxStreamedModel = size_t{INT32_MAX};

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

// ---- Leaving weights in the mapped file -------------------------------------------------------
// protobuf copies every bytes field it parses. For a model that is mostly weights, that copy (and
// the page faults of a fresh allocation as large as the file) is most of the load time. So the
// wire format is scanned first: ModelProto.graph (7) → GraphProto.initializer (5) →
// TensorProto.raw_data (9). Large raw_data fields are cut out (their enclosing lengths
// re-encoded) and only the rest is parsed; the tensors then view the bytes where they lie.

namespace {

constexpr size_t kMinimumSpan = 256;  // smaller raw_data is not worth a view
// Below this, or below a quarter of the file, the rewrite costs more than it saves.
constexpr size_t kMinimumSavings = 64 << 10;

bool readVarint(const uint8_t*& p, const uint8_t* end, uint64_t& value) {
  value = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    uint8_t byte = *p++;
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

void writeVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

// Advances `p` over one field's payload; false when the bytes are not valid wire format.
bool skipPayload(const uint8_t*& p, const uint8_t* end, uint32_t wire_type) {
  uint64_t value;
  switch (wire_type) {
    case 0:
      return readVarint(p, end, value);
    case 1:
      if (end - p < 8) return false;
      p += 8;
      return true;
    case 5:
      if (end - p < 4) return false;
      p += 4;
      return true;
    case 2:
      if (!readVarint(p, end, value) || value > static_cast<uint64_t>(end - p)) return false;
      p += value;
      return true;
    default:
      return false;  // groups (3, 4) are not used by ONNX
  }
}

class Stripper {
 public:
  Stripper(const uint8_t* begin, const uint8_t* end) : begin_(begin), end_(end) {}

  // Writes the message without large raw_data to `out`; false on malformed input.
  bool run(std::string& out) { return message(begin_, end_, out, Level::kModel); }
  const std::vector<RawSpan>& spans() const { return spans_; }
  size_t saved() const { return saved_; }

 private:
  enum class Level { kModel, kGraph, kTensor };

  bool message(const uint8_t* p, const uint8_t* end, std::string& out, Level level) {
    while (p < end) {
      const uint8_t* field_start = p;
      uint64_t tag;
      if (!readVarint(p, end, tag)) return false;
      uint32_t field = static_cast<uint32_t>(tag >> 3), wire_type = static_cast<uint32_t>(tag & 7);
      bool nested = wire_type == 2 && ((level == Level::kModel && field == 7) ||
                                       (level == Level::kGraph && field == 5));
      bool raw_data = wire_type == 2 && level == Level::kTensor && field == 9;
      if (!nested && !raw_data) {
        if (!skipPayload(p, end, wire_type)) return false;
        out.append(reinterpret_cast<const char*>(field_start),
                   static_cast<size_t>(p - field_start));
        continue;
      }
      uint64_t length;
      if (!readVarint(p, end, length) || length > static_cast<uint64_t>(end - p)) return false;
      if (raw_data) {
        if (length >= kMinimumSpan) {
          spans_.back() = RawSpan{reinterpret_cast<const char*>(p), static_cast<size_t>(length)};
          saved_ += length;
        } else {
          out.append(reinterpret_cast<const char*>(field_start),
                     static_cast<size_t>(p + length - field_start));
        }
      } else {
        if (level == Level::kGraph) spans_.emplace_back();  // one per initializer, in order
        std::string inner;
        if (!message(p, p + length, inner, level == Level::kModel ? Level::kGraph : Level::kTensor))
          return false;
        writeVarint(out, tag);
        writeVarint(out, inner.size());
        out += inner;
      }
      p += length;
    }
    return true;
  }

  const uint8_t* begin_;
  const uint8_t* end_;
  std::vector<RawSpan> spans_;
  size_t saved_ = 0;
};

}  // namespace

Expected<LoadedModel> parseModel(const char* data, size_t size, std::string base_dir,
                                 std::shared_ptr<const void> file) {
  if (size == 0) return Error{"empty file, not an ONNX model"};
  std::string stripped;
  std::vector<RawSpan> spans;
  if (file) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(data);
    Stripper stripper(bytes, bytes + size);
    if (stripper.run(stripped) && stripper.saved() >= kMinimumSavings &&
        stripper.saved() * 4 >= size) {
      spans = stripper.spans();
      data = stripped.data();
      size = stripped.size();
    } else {
      file.reset();  // malformed (protobuf will say so) or too little to gain
    }
  }
  if (size > static_cast<size_t>(INT32_MAX))
    return Error{"file is over 2 GB; store the weights as external data"};
  auto proto = std::make_shared<::onnx::ModelProto>();
  if (!proto->ParseFromArray(data, static_cast<int>(size)))
    return Error{"not a valid ONNX model (protobuf parse failed: truncated or not ONNX)"};
  if (!proto->has_graph()) return Error{"not an ONNX model (it has no graph)"};
  return LoadedModel{std::move(proto), std::move(base_dir), std::move(spans), std::move(file)};
}

namespace {
struct Mapping {
  void* address;
  size_t size;
  ~Mapping() { ::munmap(address, size); }
};
}  // namespace

Expected<LoadedModel> loadModel(const std::string& path) {
  if (path == "-") {
    // Kept alive by the tensors that view it, like a mapped file.
    auto bytes = std::make_shared<std::string>();
    auto read = readStream(STDIN_FILENO, *bytes, kMaxStreamedModel);
    if (!read) return Error{read.error()};  // the caller names it <stdin>
    return parseModel(bytes->data(), bytes->size(), ".", bytes);
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return systemError("cannot open");
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    ::close(fd);
    return systemError("cannot stat");
  }
  std::string not_a_file = notAnInputFile(info.st_mode);
  if (!not_a_file.empty()) {
    ::close(fd);
    return Error{not_a_file + ", not an ONNX model"};
  }
  size_t size = static_cast<size_t>(info.st_size);
  if (size == 0 || !S_ISREG(info.st_mode)) {
    // Not mappable (a FIFO, say): read it as a stream.
    auto bytes = std::make_shared<std::string>();
    auto read = readStream(fd, *bytes, kMaxStreamedModel);
    ::close(fd);
    if (!read) return Error{read.error()};
    return parseModel(bytes->data(), bytes->size(), directoryOf(path), bytes);
  }
  void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (address == MAP_FAILED) return systemError("cannot map");
  std::shared_ptr<const void> mapping(new Mapping{address, size});  // unmapped with the last tensor
  auto model = parseModel(static_cast<const char*>(address), size, directoryOf(path), mapping);
  if (model) model.value().mapped = true;
  return model;
}

Expected<std::shared_ptr<ir::Tensor>> takeTensor(::onnx::TensorProto& proto,
                                                 const std::string& base_dir,
                                                 const std::string& what, const LoadedModel* model,
                                                 const RawSpan* span) {
  auto tensor = std::make_shared<ir::Tensor>();
  tensor->dtype = static_cast<ir::DType>(proto.data_type());
  int64_t count = 1;  // the element count, checked here so that numel() cannot overflow later
  for (int64_t d : proto.dims()) {
    if (d < 0) return Error{what + ": negative dimension " + std::to_string(d)};
    if (__builtin_mul_overflow(count, d, &count) || count > (int64_t{1} << 56))
      return Error{what + ": its dimensions multiply past 2^56 elements"};
    tensor->dims.push_back(d);
  }
  size_t element_size = ir::dtypeSize(tensor->dtype);
  if (tensor->dtype != ir::DType::kString && element_size == 0)
    return Error{what + ": unsupported data type " + std::to_string(proto.data_type())};
  std::string bytes;
  if (span && span->data && model) {
    tensor->setView(model->file, span->data, span->size, model->mapped);
  } else if (proto.has_data_location() && proto.data_location() == ::onnx::TensorProto::EXTERNAL) {
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
    // The file must be inside the model's directory once symbolic links are followed (ONNX
    // refuses such links since 1.16): a `data` that links to /etc/hostname is never read.
    std::string file = base_dir + "/" + location;
    auto canonical = [](const std::string& path) {
      std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr),
                                                       &std::free);
      return real ? std::string(real.get()) : std::string();
    };
    std::string real_file = canonical(file);
    std::string real_dir = canonical(base_dir.empty() ? "." : base_dir);
    if (real_file.empty())
      return Error{what + ": cannot open external data file '" + location +
                   "': " + std::strerror(errno)};
    if (real_dir.empty() || real_file.rfind(real_dir == "/" ? "/" : real_dir + "/", 0) != 0)
      return Error{what + ": external data location '" + location +
                   "' leads outside the model's directory (through a symbolic link)"};
    int fd = ::open(real_file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
      return Error{what + ": cannot open external data file '" + location +
                   "': " + std::strerror(errno)};
    struct stat info {};
    ::fstat(fd, &info);
    if (!S_ISREG(info.st_mode)) {
      ::close(fd);
      return Error{what + ": external data file '" + location + "' is not a regular file"};
    }
    if (offset >= 0 && length < 0 && offset <= info.st_size) length = info.st_size - offset;
    // Compared without overflow: offset and length come from the model.
    if (offset < 0 || length < 0 || offset > info.st_size || length > info.st_size - offset) {
      ::close(fd);
      if (offset < 0 || length < 0)
        return Error{what + ": external data with a negative offset or length"};
      return Error{what + ": external data file '" + location + "' is too short (" +
                   std::to_string(info.st_size) + " bytes; the tensor is at offset " +
                   std::to_string(offset) + ", " + std::to_string(length) + " bytes long)"};
    }
    if (length > 0) {
      // Mapped, not copied: a model's weights cost page cache, not a second copy in memory.
      off_t page = static_cast<off_t>(::sysconf(_SC_PAGESIZE));
      off_t start = static_cast<off_t>(offset) / page * page;
      size_t delta = static_cast<size_t>(static_cast<off_t>(offset) - start);
      size_t mapped = delta + static_cast<size_t>(length);
      void* address = ::mmap(nullptr, mapped, PROT_READ, MAP_PRIVATE, fd, start);
      if (address == MAP_FAILED) {
        ::close(fd);
        return Error{what + ": cannot map external data file '" + location +
                     "': " + std::strerror(errno)};
      }
      std::shared_ptr<const void> mapping(new Mapping{address, mapped});
      tensor->setView(std::move(mapping), static_cast<const char*>(address) + delta,
                      static_cast<size_t>(length), true);
    }
    ::close(fd);
  } else if (proto.has_raw_data()) {
    bytes.swap(*proto.mutable_raw_data());
  } else {
    using DT = ir::DType;
    switch (tensor->dtype) {
      case DT::kFloat32:
      case DT::kComplex64:
        packInto(bytes, proto.float_data(), 4);
        break;
      case DT::kFloat64:
      case DT::kComplex128:
        packInto(bytes, proto.double_data(), 8);
        break;
      case DT::kInt64:
        packInto(bytes, proto.int64_data(), 8);
        break;
      case DT::kUInt32:
        packInto(bytes, proto.uint64_data(), 4);
        break;
      case DT::kUInt64:
        packInto(bytes, proto.uint64_data(), 8);
        break;
      case DT::kString:
        tensor->strings.assign(proto.string_data().begin(), proto.string_data().end());
        break;
      default:
        packInto(bytes, proto.int32_data(), element_size);
        break;
    }
  }
  if (!tensor->isView()) tensor->setBytes(std::move(bytes));
  int64_t numel = tensor->numel();
  if (tensor->dtype == ir::DType::kString) {
    if (static_cast<int64_t>(tensor->strings.size()) != numel)
      return Error{what + ": holds " + std::to_string(tensor->strings.size()) +
                   " strings but its shape needs " + std::to_string(numel)};
  } else {
    if (tensor->byteSize() != static_cast<size_t>(numel) * element_size)
      return Error{what + ": holds " + std::to_string(tensor->byteSize()) +
                   " bytes but its shape of " + std::string(ir::dtypeName(tensor->dtype)) +
                   " needs " + std::to_string(static_cast<size_t>(numel) * element_size)};
  }
  return tensor;
}

}  // namespace fxc::onnx
