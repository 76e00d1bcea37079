// fxc codegen MODEL -o DIR [--force]: the model as a PyTorch package (torch.fx's
// GraphModule.to_folder): DIR/module.py, onnx_ops.py, weights.npz, __init__.py.
#include <spdlog/spdlog.h>

#include "onnx/codegen.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

struct CodegenFlags {
  std::string model;
  std::string dir;
  bool force = false;
  onnx::TraceOptions trace;
};

int runCodegen(const CodegenFlags& flags) {
  std::string path = resolveModelPath(flags.model);
  onnx::TraceOptions options = flags.trace;
  options.infer_shapes = true;  // ranks choose torch.nn's classes (BatchNorm1d on [N, C])
  auto traced = loadGraphModule(path, options);
  if (!traced) {
    printError(traced.error());
    return kExitFailure;
  }
  const ir::GraphModule& gm = *traced.value();
  std::string source = modelLabel(path);
  size_t slash = source.rfind('/');
  auto package = onnx::pytorchPackage(
      gm, slash == std::string::npos ? source : source.substr(slash + 1), outputNames(gm));
  if (!package) {
    printError(modelLabel(path) + ": " + package.error());
    return kExitFailure;
  }
  auto written = writePackage(package.value(), flags.dir, flags.force, inputFiles(gm, path));
  if (!written) {
    printError(written.error());
    return kExitFailure;
  }
  spdlog::info("wrote {}/: module.py, onnx_ops.py, weights.npz, __init__.py", flags.dir);
  bury(std::move(traced.value()));
  return kExitOk;
}

}  // namespace

Runner addCodegenCommand(CLI::App& app) {
  auto flags = std::make_shared<CodegenFlags>();
  CLI::App* cmd = app.add_subcommand(
      "codegen",
      "Write the model as a PyTorch package (torch.fx's to_folder): import DIR; DIR.load()");
  cmd->add_option("model", flags->model, "ONNX file, or - for stdin (default: stdin when piped)");
  cmd->add_option("-o,--output", flags->dir, "the package's directory (made if absent)")
      ->required();
  cmd->add_flag("--force", flags->force, "replace the package's files where DIR has them");
  addTraceFlags(*cmd, flags->trace);
  return [cmd, flags]() { return cmd->parsed() ? runCodegen(*flags) : -1; };
}

}  // namespace fxc::tools
