// Writing models through an OutputFile (ir/output_file.h); tensor bytes go from where
// they lie straight to the file (no protobuf copy), inline or as external data.
#include <onnx/onnx_pb.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "ir/output_file.h"
#include "onnx/export.h"

namespace fxc::onnx {
namespace {

constexpr size_t kProtobufLimit = size_t{2} << 30;  // no protobuf message past 2 GB
constexpr size_t kExternalMinimum = 1024;

void appendVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out += static_cast<char>((value & 0x7f) | 0x80);
    value >>= 7;
  }
  out += static_cast<char>(value);
}

size_t varintSize(uint64_t value) {
  size_t n = 1;
  while (value >= 0x80) {
    value >>= 7;
    ++n;
  }
  return n;
}

std::string baseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Moves the deferred tensors (and, with `all`, any raw data over 1 KiB) to PATH.data.
Expected<bool> writeExternalData(ExportedModel& model, const std::string& path) {
  std::string location = baseName(path) + ".data";
  size_t slash = path.rfind('/');
  OutputFile data((slash == std::string::npos ? "" : path.substr(0, slash + 1)) + location);
  auto& initializers = *model.proto->mutable_graph()->mutable_initializer();
  model.deferred.resize(static_cast<size_t>(initializers.size()));
  size_t offset = 0;
  for (int i = 0; i < initializers.size(); ++i) {
    ::onnx::TensorProto& tensor = initializers[i];
    const auto& deferred = model.deferred[static_cast<size_t>(i)];
    const char* bytes = deferred ? deferred->bytes() : tensor.raw_data().data();
    size_t size = deferred ? deferred->byteSize() : tensor.raw_data().size();
    if (size < kExternalMinimum) {
      if (deferred) tensor.set_raw_data(bytes, size);
      continue;
    }
    static const char zeros[64] = {};
    size_t pad = (64 - offset % 64) % 64;  // aligned, as ONNX's own writer does
    data.write(zeros, pad);
    offset += pad;
    data.write(bytes, size);
    tensor.clear_raw_data();
    tensor.set_data_location(::onnx::TensorProto::EXTERNAL);
    for (auto [key, value] : {std::pair<const char*, std::string>{"location", location},
                              {"offset", std::to_string(offset)},
                              {"length", std::to_string(size)}}) {
      auto* entry = tensor.add_external_data();
      entry->set_key(key);
      entry->set_value(value);
    }
    offset += size;
  }
  // Every tensor's bytes are in the proto or the data file now: none is written again.
  for (auto& deferred : model.deferred) deferred.reset();
  return data.commit();
}

}  // namespace

Expected<bool> saveModel(ExportedModel& model, const std::string& path,
                         const SaveOptions& options) {
  ::onnx::GraphProto& graph = *model.proto->mutable_graph();
  auto& initializers = *graph.mutable_initializer();
  model.deferred.resize(static_cast<size_t>(initializers.size()));
  size_t data_size = 0;
  for (const auto& tensor : model.deferred) data_size += tensor ? tensor->byteSize() : 0;
  bool external =
      options.external_data || model.proto->ByteSizeLong() + data_size >= kProtobufLimit;
  std::string data_path;  // the external data file this save writes
  std::string kept_data;  // a second name of the data file it replaces, while it is checked
  if (external) {
    if (path == "-") return Error{"a model with external data cannot be written to stdout"};
    // The data file goes beside the file the model ends up in (a link's target).
    auto target = resolveOutputPath(path);
    if (!target) return Error{"cannot write " + path + ": " + target.error()};
    struct stat info {};
    if (::stat(target.value().c_str(), &info) == 0 && !S_ISREG(info.st_mode))
      return Error{"cannot write " + path +
                   ": external data needs a regular file beside it, not a device or pipe"};
    // A data file already there (the input's, with --in-place, or an earlier output's) stays
    // reachable under a second name until the new model is accepted: a rejected model (--check,
    // --min-sqnr) puts it back, so no rejection loses the data of a model that was there.
    auto data_target = resolveOutputPath(target.value() + ".data");  // where OutputFile writes
    if (!data_target) return Error{"cannot write " + path + ": " + data_target.error()};
    data_path = data_target.value();
    if (::access(data_path.c_str(), F_OK) == 0) {
      kept_data = data_path + ".fxc-kept-" + std::to_string(::getpid());
      ::unlink(kept_data.c_str());
      if (::link(data_path.c_str(), kept_data.c_str()) != 0)
        return Error{"cannot write " + path + ": cannot keep the existing " + data_path +
                     " while writing its replacement: " + std::strerror(errno)};
    }
    auto written = writeExternalData(model, target.value());
    if (!written) {
      if (!kept_data.empty()) ::unlink(kept_data.c_str());  // the old file was not replaced
      return written;
    }
  }

  // Nothing of a rejected or failed model stays, and the data file it replaced returns.
  auto finish = [&](Expected<bool> result) {
    if (!kept_data.empty()) {
      if (result) {
        ::unlink(kept_data.c_str());
      } else {
        ::rename(kept_data.c_str(), data_path.c_str());
      }
    } else if (!result && !data_path.empty()) {
      ::unlink(data_path.c_str());
    }
    return result;
  };

  // The model as protobuf would write it, spliced so that the tensor bytes need no copy:
  // [model fields][graph: 7, length][graph fields][initializers: 5, length, header, 9, bytes]...
  ::onnx::GraphProto graph_only;
  graph_only.Swap(&graph);
  std::string head = model.proto->SerializeAsString();
  graph.Swap(&graph_only);
  google::protobuf::RepeatedPtrField<::onnx::TensorProto> moved;
  moved.Swap(&initializers);
  std::string graph_head = graph.SerializeAsString();
  initializers.Swap(&moved);

  std::vector<std::string> tensor_heads;  // each initializer's field key, length and fields
  size_t graph_size = graph_head.size();
  for (int i = 0; i < initializers.size(); ++i) {
    const auto& deferred = model.deferred[static_cast<size_t>(i)];
    std::string fields = initializers[i].SerializeAsString();
    size_t raw = deferred ? deferred->byteSize() : 0;
    size_t body = fields.size() + (deferred ? 1 + varintSize(raw) + raw : 0);
    std::string tensor_head;
    tensor_head += static_cast<char>(0x2a);  // GraphProto.initializer = 5, length-delimited
    appendVarint(tensor_head, body);
    tensor_head += fields;
    if (deferred) {
      tensor_head += static_cast<char>(0x4a);  // TensorProto.raw_data = 9, length-delimited
      appendVarint(tensor_head, raw);
    }
    graph_size += tensor_head.size() + raw;
    tensor_heads.push_back(std::move(tensor_head));
  }
  OutputFile file(path);
  if (options.check && file.pendingPath().empty()) {  // a stream or device: checked before
    ExportedModel copy{std::make_shared<::onnx::ModelProto>(*model.proto), model.deferred};
    copy.materialize();
    auto checked = checkModel(*copy.proto);
    if (!checked) return finish(checked);
  }
  file.write(head);
  std::string graph_key(1, static_cast<char>(0x3a));  // ModelProto.graph = 7, length-delimited
  appendVarint(graph_key, graph_size);
  file.write(graph_key);
  file.write(graph_head);
  for (int i = 0; i < initializers.size(); ++i) {
    file.write(tensor_heads[static_cast<size_t>(i)]);
    const auto& deferred = model.deferred[static_cast<size_t>(i)];
    if (deferred) file.write(deferred->bytes(), deferred->byteSize());
  }
  if (!file.pendingPath().empty()) {
    auto checked = options.check ? checkModelFile(file.pendingPath()) : Expected<bool>(true);
    if (checked && options.verify) checked = options.verify(file.pendingPath());
    if (!checked) return finish(checked);
  }
  return finish(file.commit());
}

}  // namespace fxc::onnx
