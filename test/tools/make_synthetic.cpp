// fxc-make-synthetic: writes a synthetic ONNX graph of N nodes, for benchmarks and scale tests.
//   fxc-make-synthetic chain|dag N OUT.onnx
// chain: a straight line of unary and binary elementwise ops on one [1,16] input.
// dag:   binary ops that also read a random earlier value (fan-in 2, bounded fan-out), with
//        torch.onnx-style scope names so that module recovery is exercised too.
#include <onnx/onnx_pb.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: fxc-make-synthetic chain|dag N OUT.onnx\n");
    return 2;
  }
  std::string kind = argv[1];
  long n = std::atol(argv[2]);
  if ((kind != "chain" && kind != "dag") || n < 1) {
    std::fprintf(stderr, "fxc-make-synthetic: bad arguments\n");
    return 2;
  }
  onnx::ModelProto model;
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
