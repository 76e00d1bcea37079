// What every fxc subcommand shares: resolving MODEL, loading + tracing it, reporting errors.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "exec/interpreter.h"
#include "exec/io.h"
#include "ir/expected.h"
#include "ir/graph_module.h"
#include "onnx/codegen.h"
#include "onnx/trace.h"
#include "passes/registry.h"

namespace fxc::tools {

// Seconds since construction or the last lap, for -v timings.
class Stopwatch {
 public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double seconds = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Exit codes (DESIGN.md): 0 success, 1 the model or the work failed, 2 usage error.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

// Thrown for usage errors found after flag parsing; main() prints it and exits 2.
struct UsageError {
  std::string message;
};
// Thrown for a failure that is not the model's (no CUDA device for --backend cudnn); main()
// prints it and exits 1.
struct RunError {
  std::string message;
};

// MODEL as given, or "-" when it is omitted and stdin is a pipe; a usage error otherwise.
std::string resolveModelPath(const std::string& model);
// "<stdin>" for "-", else the path: the prefix of every error about the model.
std::string modelLabel(const std::string& path);

// Loads, traces and lints. Errors come back as "LABEL: message".
// With `oracle`, the same bytes are also traced with recognition off into *oracle: the model as
// written, op by op, which --verify runs with the reference kernels, so that a wrong recognition
// or a wrong pass cannot agree with itself.
// `oracle_options`: trace the second copy with these instead (bench: two identical graphs from
// one read of the file, which may be a pipe).
Expected<std::unique_ptr<ir::GraphModule>> loadGraphModule(
    const std::string& path, const onnx::TraceOptions& options,
    std::unique_ptr<ir::GraphModule>* oracle = nullptr,
    const onnx::TraceOptions* oracle_options = nullptr);

// Ends the life of a big object at process exit without freeing it piece by piece: freeing a
// million-node graph costs a second for nothing (LLVM's BuryPointer). Sanitizer builds free it,
// so that leak checking still sees everything.
template <typename T>
void bury(std::unique_ptr<T> object) {
#ifdef FXC_SANITIZE
  object.reset();
#else
  static_cast<void>(object.release());
#endif
}

// --print-tabular / --code / --graph, shared by the commands that show a graph.
struct ViewFlags {
  bool tabular = false;
  bool code = false;
  bool graph = false;
  bool dot = false;     // Graphviz DOT
  bool shapes = false;  // shape and dtype columns in the tabular view, shapes in DOT
  std::string svg;      // --svg FILE: the DOT drawn by Graphviz
  bool any() const { return tabular || code || graph || dot; }
};
void addViewFlags(CLI::App& cmd, ViewFlags& flags);
// A number option's value must be finite (NaN passes CLI11's ranges: every comparison is false,
// so `--atol nan` made --verify pass whatever the difference).
extern const CLI::Validator kFiniteNumber;
// --svg: the graph drawn by Graphviz's `dot` into FILE (atomically); an error when `dot` is not
// installed or fails.
Expected<bool> writeSvg(const ir::GraphModule& gm, const std::string& name, bool with_shapes,
                        const std::string& path, const std::string& model_path);
// --inline-functions and --no-recognize, on every command that traces a model from the CLI.
void addTraceFlags(CLI::App& cmd, onnx::TraceOptions& options);
// The chosen views, in order, separated by blank lines; the tabular view when none is chosen
// and `default_tabular`.
// `name`: the DOT graph's name (the model's file name without .onnx).
std::string renderViews(const ir::GraphModule& gm, const ViewFlags& flags, bool default_tabular,
                        const std::string& name);
// The model's name for views: its file name without the folder and ".onnx"; "stdin" for "-".
std::string viewName(const std::string& path);

// -o / --in-place / --external-data / --check, shared by every command that writes a model.
struct OutputFlags {
  std::string path;  // "" none, "-" stdout
  bool in_place = false;
  bool external_data = false;
  bool check = false;
};
void addOutputFlags(CLI::App& cmd, OutputFlags& flags);
// Usage errors (overwriting the input without --in-place, -o - with a text view) as UsageError.
void validateOutputFlags(const OutputFlags& flags, const std::string& model_path, bool prints_text,
                         const std::string& svg = "");
bool wantsOutput(const OutputFlags& flags);
// Exports, optionally checks, and writes; errors come back as "PATH: message".
// `verify`, when given, reads back the written file before it takes its name (SaveOptions).
Expected<bool> writeOutput(
    const ir::GraphModule& gm, const OutputFlags& flags, const std::string& model_path,
    std::function<Expected<bool>(const std::string& written)> verify = nullptr);

// tabulate's "simple" table (what torch.fx's print_tabular and the seed's profiler print): text
// columns left, numbers right, two spaces between, a rule under the headers.
std::string table(const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& numeric);

// --backend / --precision / --threads / --seed / --shape / --batch / --input, shared by the
// commands that run a model.
struct ExecFlags {
  std::string backend = "cpu";
  std::string precision = "fp32";
  int threads = 0;  // 0: one per core
  uint64_t seed = 0;
  std::vector<std::string> shapes;
  int64_t batch = 0;                // 0: as declared
  std::vector<std::string> inputs;  // NAME=FILE.npy
  int optimize = 1;                 // -O: 0 runs the graph as written
};
// `inputs`: also --input (not on quantize, whose data is --calibration).
void addExecFlags(CLI::App& cmd, ExecFlags& flags, bool inputs = true);
// Sets the thread count and precision; the backend to run on ("auto": cudnn when a CUDA device
// is usable, else cpu). --backend cudnn without a usable device throws RunError.
exec::Backend applyExecFlags(const ExecFlags& flags);
// --shape and --batch as the shapes the traced graph runs with (TraceOptions::run_shapes): the
// execution pipeline's passes then prove their rewrites from those, not from the declared ones.
void applyRunShapes(onnx::TraceOptions& options, const ExecFlags& flags);
// -v: the nodes a cudnn run leaves to CPU kernels.
void reportFallbacks(const exec::Interpreter& interpreter);
// The inputs of a run: --input files (their shapes fill symbolic dimensions; lossless dtype
// conversions only), seeded random data of the declared shapes for the rest, --shape and --batch
// applied. Unknown input names are usage errors; files that do not fit the model are errors
// quoting the declared shape.
Expected<std::vector<exec::Value>> modelInputs(const ir::GraphModule& gm, const ExecFlags& flags);
// What every command that runs a model checks first: that `interpreter` has a kernel for every
// node ("LABEL: unsupported: node X has no CPU kernel" otherwise), then the inputs of the run
// (modelInputs; its errors prefixed with LABEL).
Expected<std::vector<exec::Value>> runInputs(const exec::Interpreter& interpreter,
                                             const ir::GraphModule& gm, const ExecFlags& flags,
                                             const std::string& label);
// The model's output names (the ONNX graph's, else the output nodes'), in order.
std::vector<std::string> outputNames(const ir::GraphModule& gm);
// "NAME=VALUE" → {NAME, VALUE}; a usage error naming `flag` otherwise.
std::pair<std::string, std::string> splitAssignment(const std::string& text, const char* flag);

// `--shape NAME=D0,D1,...` values → the shapes they give; malformed ones are usage errors.
std::map<std::string, std::vector<int64_t>> parseShapes(const std::vector<std::string>& specs);

// -O0 / -O1 on the commands that run a model for its results or its speed (run, profile,
// bench).
void addOptimizeFlag(CLI::App& cmd, ExecFlags& flags);
// The execution pipeline: what run, profile and bench do to a graph before running it, as ONNX
// Runtime does when it makes a session. quant-fold-weights and quant-lower (a QDQ model's
// quantized ops on integer
// kernels: what the QDQ form specifies, within one quantization step of the float simulation;
// not on cudnn, whose integer kernels are unverified), simplify, and the fusions that keep every
// output within 1e-5 relative (conv-bn, conv-add-relu, conv-relu, and conv-act but on cudnn,
// which has no kernel for it). None with -O0 or on the
// reference backend, the oracle that runs the model as written, op by op.
std::vector<passes::PassRequest> executionPipeline(const ExecFlags& flags, exec::Backend backend);
// Runs the pipeline (what each pass changed at -v); an error says -O0 runs the graph as written.
// Before the runs of a model that is run many times (bench, profile): freed blocks stay in the
// heap for the next run instead of going back to the system and faulting fresh pages in each
// time (SqueezeNet at batch 8: 3-4% of its time). Not for one run (`fxc run`), and not before
// the passes: blocks of other sizes, kept, fragment the heap (fcn_resnet50 at batch 8 peaked at
// 938 MB, 254 MB of them live, when const-fold's probe run came first).
void keepHeapBlocks();
Expected<bool> optimizeForExecution(ir::GraphModule& gm,
                                    const std::vector<passes::PassRequest>& pipeline,
                                    const std::string& label);

// `--pass` specs → checked requests; unknown passes and bad options are usage errors.
std::vector<passes::PassRequest> parsePasses(const std::vector<std::string>& specs);
// Runs the passes in order, linting after each (a failure names the pass) and saying on stderr
// what each changed; `after_each` runs after each pass. Returns the JSON report.
// `quiet`: what they changed only at -v.
Expected<nlohmann::json> runPasses(
    ir::GraphModule& gm, const std::vector<passes::PassRequest>& requests, const std::string& label,
    const std::function<void(const passes::PassRequest&)>& after_each = nullptr,
    bool quiet = false);

// Prints a --format json document on stdout (indented, one trailing newline). Strings that are
// not UTF-8 (a model's names are bytes) print with U+FFFD in place of each bad byte.
void printJson(const nlohmann::json& document);
// Prints "fxc: error: MESSAGE" as one line on stderr.
void printError(const std::string& message);

// Writes a `fxc codegen` package into DIR (made if absent): nothing unless every file may be
// written (no file of the package there already without `force`); each file whole and renamed
// into place, __init__.py last, so that a package interrupted half way does not import.
Expected<bool> writePackage(const onnx::PyTorchPackage& package, const std::string& dir, bool force,
                            const std::vector<std::string>& inputs);
// The files a model was read from: MODEL_PATH and the external data files its initializers name
// (none for stdin); and an error when `out` is one of them (a link to one included).
std::vector<std::string> inputFiles(const ir::GraphModule& gm, const std::string& model_path);
Expected<bool> notAnInput(const std::string& out, const std::vector<std::string>& inputs,
                          const std::string& what);

// The subcommands; each registers its flags on `app` and returns the function that runs it.
using Runner = std::function<int()>;
Runner addTraceCommand(CLI::App& app);
Runner addLintCommand(CLI::App& app);
Runner addPassesCommand(CLI::App& app);
Runner addFuseCommand(CLI::App& app);
Runner addRunCommand(CLI::App& app);
Runner addProfileCommand(CLI::App& app);
Runner addBenchCommand(CLI::App& app);
Runner addQuantizeCommand(CLI::App& app);
Runner addSummaryCommand(CLI::App& app);
Runner addCompareCommand(CLI::App& app);
Runner addCodegenCommand(CLI::App& app);

}  // namespace fxc::tools
