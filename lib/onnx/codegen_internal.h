// What codegen.cpp and codegen_modules.cpp share: the state_dict being written and Python
// literals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/argument.h"
#include "ir/graph_module.h"

namespace fxc::onnx::codegen {

// One state_dict entry, in PyTorch's layout (a Linear's weight transposed where ONNX kept it
// [in, out], a PReLU's slope flattened).
struct StateTensor {
  std::string name;  // "layer1.0.conv1.weight"
  ir::DType dtype = ir::DType::kUndefined;
  std::vector<int64_t> dims;
  std::string bytes;
};

// torch.float32, ...; "" for a dtype torch or numpy cannot hold (bfloat16 in numpy, uint16).
std::string torchDtype(ir::DType dtype);
// (3, 3), (3,), ()
std::string pyTuple(const std::vector<int64_t>& values);
std::string pyNumber(double value);

// The constructor of the torch.nn module for `module` (at `path`), its state entries appended to
// `state`. `input_rank` is the rank of the input the module is called on (-1 when unknown).
// Throws ModelError naming the module when torch.nn has no module computing what it does.
std::string moduleConstructor(const ir::Module& module, const std::string& path, int input_rank,
                              std::vector<StateTensor>& state);

// The state as weights.npz (codegen_npz.cpp); ModelError past what a ZIP without ZIP64 holds.
std::string npz(const std::vector<StateTensor>& state);

// The bytes of a tensor as a state entry.
StateTensor stateOf(const std::string& name, const ir::Tensor& tensor);

}  // namespace fxc::onnx::codegen
