// `fxc codegen`: a GraphModule as a standalone PyTorch package — torch.fx's
// GraphModule.to_folder for an ONNX model.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/expected.h"
#include "ir/graph_module.h"

namespace fxc::onnx {

// The package's files, name and bytes:
//   module.py    class FxModule(torch.nn.Module): __init__ builds the module tree from real
//                torch.nn modules (Conv2d, BatchNorm2d, Linear, ...) under the traced qualified
//                names; forward is the `--code` view, with ONNX ops that have no PyTorch call of
//                the same meaning calling onnx_ops;
//   onnx_ops.py  those ops, written in torch;
//   weights.npz  the state_dict in PyTorch's layouts, one .npy per tensor (numpy.load reads it);
//   __init__.py  load(): FxModule with the weights, in eval mode.
// A node or module with no exact PyTorch code is an Error naming it and its op; nothing is
// approximated. `source` names the model in the generated files; `output_names` are the model's
// output names, kept (with the inputs') as FxModule.onnx_inputs and onnx_outputs.
struct PyTorchPackage {
  std::vector<std::pair<std::string, std::string>> files;
};
Expected<PyTorchPackage> pytorchPackage(const ir::GraphModule& gm, const std::string& source,
                                        const std::vector<std::string>& output_names);

// For `fxc quantize --qat --codegen`: each torch.fake_quantize_per_{tensor,channel}_affine call
// becomes a call of a FakeQuantize module holding its scale and zero point (at the scale's path,
// "_scale" → "_fake_quant"), which codegen writes as torch.ao.quantization.FakeQuantize
// initialized from them. The graph is then for codegen only: it no longer exports.
void fakeQuantizeAsModules(ir::GraphModule& gm);

// The text of onnx_ops.py.
const char* onnxOpsSource();

}  // namespace fxc::onnx
