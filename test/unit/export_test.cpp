#include "onnx/export.h"

#include <doctest/doctest.h>
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>

#include "onnx/load.h"
#include "onnx/trace.h"
#include "test_models.h"

namespace {

::onnx::ModelProto readProto(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ::onnx::ModelProto model;
  REQUIRE(model.ParseFromString(bytes));
  return model;
}

std::vector<std::string> sortedNodes(const ::onnx::GraphProto& graph) {
  std::vector<std::string> nodes;
  for (const auto& node : graph.node()) nodes.push_back(node.SerializeAsString());
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

std::map<std::string, std::string> initializers(const ::onnx::GraphProto& graph) {
  std::map<std::string, std::string> out;
  for (const auto& tensor : graph.initializer()) {
    ::onnx::TensorProto copy = tensor;
    copy.clear_raw_data();
    out[tensor.name()] = copy.SerializeAsString() + "|" + tensor.raw_data();
  }
  return out;
}

std::string modelPath(const std::string& stem) { return testModelsDir() + "/" + stem + ".onnx"; }

// Loads and traces a repository model; the test stops if either fails.
std::unique_ptr<fxc::ir::GraphModule> traceModel(const std::string& path) {
  auto loaded = fxc::onnx::loadModel(path);
  REQUIRE(loaded.ok());
  auto traced = fxc::onnx::trace(loaded.take(), {});
  REQUIRE(traced.ok());
  return traced.take();
}

}  // namespace

TEST_CASE("trace then export gives back the same nodes and the same initializers, bit for bit") {
  for (const char* stem : {"resnet18_narrow", "mobilenet_v2_narrow", "mobilenet_v3_small_narrow",
                           "squeezenet1_1_narrow", "seed_three_adds", "functions", "subgraphs",
                           "multi_output", "unscoped"}) {
    std::string name = stem;
    CAPTURE(name);
    std::string path = modelPath(stem);
    ::onnx::ModelProto source = readProto(path);
    auto gm = traceModel(path);
    auto exported = fxc::onnx::exportModel(*gm);
    REQUIRE(exported.ok());
    const ::onnx::ModelProto& out = *exported.value().proto;
    CHECK(fxc::onnx::checkModel(out).ok());
    CHECK(sortedNodes(out.graph()) == sortedNodes(source.graph()));
    CHECK(initializers(out.graph()) == initializers(source.graph()));
    REQUIRE(out.graph().input_size() == source.graph().input_size());
    for (int i = 0; i < source.graph().input_size(); ++i)
      CHECK(out.graph().input(i).SerializeAsString() ==
            source.graph().input(i).SerializeAsString());
    REQUIRE(out.graph().output_size() == source.graph().output_size());
    for (int i = 0; i < source.graph().output_size(); ++i)
      CHECK(out.graph().output(i).SerializeAsString() ==
            source.graph().output(i).SerializeAsString());
    CHECK(out.opset_import_size() == source.opset_import_size());
    CHECK(out.functions_size() == source.functions_size());
  }
}

TEST_CASE("saving with deferred tensor bytes writes the message protobuf would write") {
  auto gm = traceModel(modelPath("resnet18_narrow"));
  auto deferred = fxc::onnx::exportModel(*gm, true);
  auto plain = fxc::onnx::exportModel(*gm, false);
  REQUIRE(deferred.ok());
  REQUIRE(plain.ok());
  std::string out = std::string(FXC_BINARY_DIR) + "/deferred_save_test.onnx";
  REQUIRE(fxc::onnx::saveModel(deferred.value(), out).ok());
  std::ifstream in(out, std::ios::binary);
  std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ::onnx::ModelProto reread;  // fields in another order than protobuf's, the same message
  REQUIRE(reread.ParseFromString(written));
  CHECK(reread.SerializeAsString() == plain.value().proto->SerializeAsString());
  std::remove(out.c_str());
}

TEST_CASE("an Identity of a parameter is folded: the export shares one initializer") {
  auto gm = traceModel(modelPath("identity_alias"));
  auto exported = fxc::onnx::exportModel(*gm);
  REQUIRE(exported.ok());
  const auto& graph = exported.value().proto->graph();
  CHECK(graph.node_size() == 2);
  CHECK(graph.initializer_size() == 1);
  CHECK(graph.node(0).input(1) == graph.node(1).input(1));
  CHECK(fxc::onnx::checkModel(*exported.value().proto).ok());
}
