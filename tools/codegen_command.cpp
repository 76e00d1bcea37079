// fxc codegen MODEL -o DIR [--force]: the model as a PyTorch package (torch.fx's
// GraphModule.to_folder): DIR/module.py, onnx_ops.py, weights.npz, __init__.py.
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "ir/output_file.h"
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
  auto traced = loadGraphModule(path, flags.trace);
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
  // Nothing is written unless every file may be: DIR is a directory (or is made), and no file of
  // the package is there already without --force.
  struct stat info {};
  if (stat(flags.dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) {
      printError(flags.dir + ": not a directory");
      return kExitFailure;
    }
  } else if (errno != ENOENT || mkdir(flags.dir.c_str(), 0777) != 0) {
    printError(flags.dir + ": cannot create the directory: " + std::strerror(errno));
    return kExitFailure;
  }
  if (!flags.force) {
    for (const auto& [name, bytes] : package.value().files) {
      std::string file = flags.dir + "/" + name;
      if (lstat(file.c_str(), &info) == 0) {
        printError(file + ": exists (--force replaces it)");
        return kExitFailure;
      }
    }
  }
  // Each file is written whole and renamed into place; __init__.py last, so that a package
  // interrupted half way does not import.
  for (const auto& [name, bytes] : package.value().files) {
    OutputFile out(flags.dir + "/" + name);
    out.write(bytes);
    auto done = out.commit();
    if (!done) {
      printError(done.error());
      return kExitFailure;
    }
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
