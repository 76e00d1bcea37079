#include "onnx/load.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "onnx/shape_inference.h"
#include "onnx/trace.h"
#include "test_models.h"

using namespace fxc;

namespace {
std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::pair<std::string, std::shared_ptr<ir::Tensor>>> allTensors(
    const ir::GraphModule& gm) {
  std::vector<std::pair<std::string, std::shared_ptr<ir::Tensor>>> out;
  for (const auto& [name, tensor] : gm.root().tensors()) out.emplace_back(name, tensor);
  for (const auto& [path, module] : gm.namedModules()) {
    for (const auto& [name, tensor] : module->tensors())
      out.emplace_back(path + "." + name, tensor);
  }
  return out;
}
}  // namespace

TEST_CASE("weights left in the mapped file equal the weights protobuf parses") {
  const std::string path = testModelsDir() + "/resnet18_narrow.onnx";
  auto mapped = fxc::onnx::loadModel(path);
  REQUIRE(mapped.ok());
  CHECK(mapped.value().file != nullptr);  // big enough to take the zero-copy path
  std::string bytes = readFile(path);
  auto parsed = fxc::onnx::parseModel(bytes.data(), bytes.size(), ".");
  REQUIRE(parsed.ok());
  CHECK(parsed.value().file == nullptr);

  auto a = fxc::onnx::trace(mapped.take(), {});
  auto b = fxc::onnx::trace(parsed.take(), {});
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  auto ta = allTensors(*a.value()), tb = allTensors(*b.value());
  REQUIRE(ta.size() == tb.size());
  REQUIRE(ta.size() > 40);
  size_t views = 0;
  for (size_t i = 0; i < ta.size(); ++i) {
    CHECK(ta[i].first == tb[i].first);
    REQUIRE(ta[i].second->byteSize() == tb[i].second->byteSize());
    CHECK(std::memcmp(ta[i].second->bytes(), tb[i].second->bytes(), ta[i].second->byteSize()) == 0);
    views += ta[i].second->isView();
    CHECK_FALSE(tb[i].second->isView());
  }
  CHECK(views > 10);
}

TEST_CASE("a view of the mapped file gives its pages back and reads the same bytes after") {
  // MADV_DONTNEED refills a private file mapping from the file; on memory a parse owns (stdin's
  // bytes) it would refill with zeros, so such views must not be flagged as mapped.
  const std::string path = testModelsDir() + "/resnet18_narrow.onnx";
  auto check = [](fxc::onnx::LoadedModel model) {
    auto gm = fxc::onnx::trace(std::move(model), {});
    REQUIRE(gm.ok());
    size_t large = 0;
    for (const auto& [name, tensor] : allTensors(*gm.value())) {
      if (!tensor->isView() || tensor->byteSize() < 3 * 4096) continue;
      CAPTURE(name);
      std::string before(tensor->bytes(), tensor->byteSize());
      tensor->releasePages();
      CHECK(std::string(tensor->bytes(), tensor->byteSize()) == before);
      ++large;
    }
    CHECK(large > 3);
  };
  auto mapped = fxc::onnx::loadModel(path);
  REQUIRE(mapped.ok());
  CHECK(mapped.value().mapped);
  check(mapped.take());
  auto keep = std::make_shared<std::string>(readFile(path));  // as stdin is read
  auto owned = fxc::onnx::parseModel(keep->data(), keep->size(), ".", keep);
  REQUIRE(owned.ok());
  CHECK_FALSE(owned.value().mapped);
  check(owned.take());
}

TEST_CASE("a truncated file fails to parse on either path, with one message") {
  const std::string path = testModelsDir() + "/resnet18_narrow.onnx";
  std::string bytes = readFile(path).substr(0, 150000);
  auto keep = std::make_shared<std::string>(bytes);
  auto result = fxc::onnx::parseModel(keep->data(), keep->size(), ".", keep);
  REQUIRE_FALSE(result.ok());
  CHECK(result.error() == "not a valid ONNX model (protobuf parse failed: truncated or not ONNX)");
}

TEST_CASE("a view becomes owned bytes on demand") {
  auto keep = std::make_shared<std::string>("abcdefgh");
  ir::Tensor t;
  t.setView(keep, keep->data() + 2, 4);
  CHECK(t.isView());
  CHECK(std::string(t.bytes(), t.byteSize()) == "cdef");
  t.ownedBytes()[0] = 'X';
  CHECK_FALSE(t.isView());
  CHECK(std::string(t.bytes(), t.byteSize()) == "Xdef");
  CHECK(*keep == "abcdefgh");
}

TEST_CASE("ONNX's shape inference runs in one worker process, replaced when a model crashes it") {
  // conv_transpose_2d_weight_shapes.onnx makes libonnx 1.13 dereference null; each model after
  // it must still get its shapes (a dead worker is replaced), and fxc must survive.
  const std::string fine = testModelsDir() + "/resnet18_narrow.onnx";
  const std::string crashing = std::string(FXC_SOURCE_DIR) +
                               "/test/fuzz/regressions/model/conv_transpose_2d_weight_shapes.onnx";
  auto protoOf = [](const std::string& path) {
    auto loaded = fxc::onnx::loadModel(path);
    REQUIRE(loaded.ok());
    return *loaded.value().proto;
  };
  for (int round = 0; round < 3; ++round) {
    ::onnx::ModelProto model = protoOf(fine);
    std::string why;
    CHECK(fxc::onnx::inferShapesIsolated(model, why));
    CHECK(model.graph().value_info_size() == 68);  // every value but the output
    CHECK(why.empty());
    model = protoOf(crashing);
    CHECK_FALSE(fxc::onnx::inferShapesIsolated(model, why));
    CHECK(why == "it crashed (Segmentation fault) on this model");
    CHECK(model.graph().value_info_size() == 0);
  }
  // Through trace: the crashing model traces (without inferred shapes), the next one has them.
  fxc::onnx::TraceOptions options;
  options.infer_shapes = true;
  for (const std::string& path : {crashing, fine}) {
    auto loaded = fxc::onnx::loadModel(path);
    REQUIRE(loaded.ok());
    auto traced = fxc::onnx::trace(loaded.take(), options);
    REQUIRE(traced.ok());
    if (path == fine) {
      for (const ir::Node* node : traced.value()->graph()) {
        if (node->op() == ir::Opcode::kCallFunction || node->op() == ir::Opcode::kCallModule)
          CHECK(node->meta.shape.has_value());
      }
    }
  }
}
