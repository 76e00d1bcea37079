// fxc-make-synthetic: writes a synthetic ONNX graph of N nodes, for benchmarks and scale tests.
//   fxc-make-synthetic chain|dag|big|attr N OUT.onnx
// chain: a straight line of unary and binary elementwise ops on one [1,16] input.
// dag:   binary ops that also read a random earlier value (fan-in 2, bounded fan-out), with
//        torch.onnx-style scope names so that module recovery is exercised too.
// big:   a model whose one weight holds N bytes (N/4 float32 zeros) as external data in
//        OUT.onnx.data, a sparse file: models over 2 GB without writing 2 GB.
// attr:  y = Transpose(x) whose perm lists N ints (a resource limit).
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

// y = Shape(w), w a [bytes / 4] float32 weight in PATH.data (a sparse file of zeros).
int writeBig(long bytes, const std::string& path) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("fxc-make-synthetic");
  model.add_opset_import()->set_version(13);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("big");
  long count = bytes / 4;
  onnx::TensorProto& weight = *graph.add_initializer();
  weight.set_name("w");
  weight.set_data_type(onnx::TensorProto::FLOAT);
  weight.add_dims(count);
  weight.set_data_location(onnx::TensorProto::EXTERNAL);
  std::string location = path.substr(path.rfind('/') + 1) + ".data";
  for (auto [key, value] : {std::pair<std::string, std::string>{"location", location},
                            {"offset", "0"},
                            {"length", std::to_string(count * 4)}}) {
    auto* entry = weight.add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  }
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type("Shape");
  node.set_name("shape");
  node.add_input("w");
  node.add_output("y");
  auto* output = graph.add_output();
  output->set_name("y");
  output->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  output->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(1);
  std::ofstream data(path + ".data", std::ios::binary);
  if (count > 0) {
    data.seekp(count * 4 - 1);
    data.put('\0');
  }
  std::ofstream file(path, std::ios::binary);
  if (!data || !model.SerializeToOstream(&file)) {
    std::fprintf(stderr, "fxc-make-synthetic: cannot write %s\n", path.c_str());
    return 1;
  }
  return 0;
}

int writeAttr(long n, const std::string& path) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name("attr");
  onnx::NodeProto& node = *graph.add_node();
  node.set_op_type("Transpose");
  node.set_name("transpose");
  node.add_input("x");
  node.add_output("y");
  onnx::AttributeProto& attr = *node.add_attribute();
  attr.set_name("perm");
  attr.set_type(onnx::AttributeProto::INTS);
  attr.mutable_ints()->Reserve(static_cast<int>(n));
  for (long k = 0; k < n; ++k) attr.add_ints(k);
  for (auto* value : {graph.add_input(), graph.add_output()}) {
    value->set_name(value == &graph.input(0) ? "x" : "y");
    value->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
    value->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(1);
  }
  std::ofstream file(path, std::ios::binary);
  if (!model.SerializeToOstream(&file)) {
    std::fprintf(stderr, "fxc-make-synthetic: cannot write %s\n", path.c_str());
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: fxc-make-synthetic chain|dag|big|attr N OUT.onnx\n");
    return 2;
  }
  std::string kind = argv[1];
  long n = std::atol(argv[2]);
  if ((kind != "chain" && kind != "dag" && kind != "big" && kind != "attr") || n < 1) {
    std::fprintf(stderr, "fxc-make-synthetic: bad arguments\n");
    return 2;
  }
  onnx::ModelProto model;
  if (kind == "big") return writeBig(n, argv[3]);
  if (kind == "attr") return writeAttr(n, argv[3]);
  model.set_ir_version(8);
  model.set_producer_name("fxc-make-synthetic");
  model.add_opset_import()->set_version(13);
  onnx::GraphProto& graph = *model.mutable_graph();
  graph.set_name(kind + "_" + std::to_string(n));
  auto declare = [](onnx::ValueInfoProto* value, const std::string& name) {
    value->set_name(name);
    auto* tensor = value->mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    tensor->mutable_shape()->add_dim()->set_dim_value(1);
    tensor->mutable_shape()->add_dim()->set_dim_value(16);
  };
  declare(graph.add_input(), "input");
  onnx::TensorProto& bias = *graph.add_initializer();
  bias.set_name("bias");
  bias.set_data_type(onnx::TensorProto::FLOAT);
  bias.add_dims(16);
  std::string raw(16 * sizeof(float), '\0');
  for (int i = 0; i < 16; ++i) {
    float v = 0.01f * static_cast<float>(i);
    std::memcpy(raw.data() + i * sizeof(float), &v, sizeof v);
  }
  bias.set_raw_data(raw);

  std::mt19937 rng(1234);
  static const char* kUnary[] = {"Relu", "Sigmoid", "Tanh", "Neg"};
  static const char* kBinary[] = {"Add", "Mul", "Sub"};
  std::vector<std::string> values = {"input"};
  values.reserve(static_cast<size_t>(n) + 1);
  graph.mutable_node()->Reserve(static_cast<int>(n));
  for (long i = 0; i < n; ++i) {
    onnx::NodeProto& node = *graph.add_node();
    const std::string& prev = values.back();
    std::string out = "v" + std::to_string(i);
    bool binary = (i % 3) != 0;
    if (kind == "chain") {
      node.set_op_type(binary ? kBinary[i % 3] : kUnary[(i / 3) % 4]);
      node.set_name("n" + std::to_string(i));
      node.add_input(prev);
      if (binary) node.add_input("bias");
    } else {
      node.set_op_type(binary ? kBinary[rng() % 3] : kUnary[rng() % 4]);
      long block = i / 64, layer = (i / 8) % 8;
      std::string scope =
          "/blocks/blocks." + std::to_string(block) + "/layer" + std::to_string(layer);
      node.set_name(scope + "/" + node.op_type() + "_" + std::to_string(i % 8));
      node.add_input(prev);
      if (binary) {
        size_t back = 1 + rng() % 16;
        node.add_input(values[values.size() > back ? values.size() - 1 - back : 0]);
      }
    }
    node.add_output(out);
    values.push_back(out);
  }
  declare(graph.add_output(), values.back());
  std::ofstream file(argv[3], std::ios::binary);
  if (!model.SerializeToOstream(&file)) {
    std::fprintf(stderr, "fxc-make-synthetic: cannot write %s\n", argv[3]);
    return 1;
  }
  return 0;
}
