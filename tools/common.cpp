#include "tools/common.h"

#include <fcntl.h>
#include <malloc.h>
#include <onnx/onnx_pb.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "exec/cudnn/backend.h"
#include "ir/lint.h"
#include "ir/output_file.h"
#include "ir/printers.h"
#include "onnx/export.h"

namespace fxc::tools {

std::string resolveModelPath(const std::string& model) {
  if (!model.empty()) return model;
  if (!::isatty(STDIN_FILENO)) return "-";
  throw UsageError{"no MODEL given (name a file, or pipe a model to stdin)"};
}

std::string modelLabel(const std::string& path) { return path == "-" ? "<stdin>" : path; }

Expected<std::unique_ptr<ir::GraphModule>> loadGraphModule(
    const std::string& path, const onnx::TraceOptions& options,
    std::unique_ptr<ir::GraphModule>* oracle, const onnx::TraceOptions* oracle_options) {
  std::string label = modelLabel(path);
  Stopwatch watch;
  auto loaded = onnx::loadModel(path);
  if (!loaded) return Error{label + ": " + loaded.error()};
  spdlog::debug("{}: parsed in {:.3f} s", label, watch.lap());
  if (oracle) {
    const onnx::LoadedModel& model = loaded.value();
    onnx::LoadedModel copy{std::make_shared<::onnx::ModelProto>(*model.proto), model.base_dir,
                           model.initializer_bytes, model.file};
    onnx::TraceOptions as_written;
    as_written.inline_functions = options.inline_functions;
    as_written.recognize = false;
    auto traced = onnx::trace(std::move(copy), oracle_options ? *oracle_options : as_written);
    if (!traced) return Error{label + ": " + traced.error()};
    *oracle = traced.take();
  }
  auto traced = onnx::trace(loaded.take(), options);
  if (!traced) return Error{label + ": " + traced.error()};
  spdlog::debug("{}: traced {} nodes in {:.3f} s", label, traced.value()->graph().size(),
                watch.lap());
  std::string problem = ir::lintGraph(traced.value()->graph(), traced.value().get());
  if (!problem.empty())
    return Error{label + ": internal error, the traced graph fails lint: " + problem};
  spdlog::debug("{}: linted in {:.3f} s", label, watch.lap());
  return traced;
}

void addTraceFlags(CLI::App& cmd, onnx::TraceOptions& options) {
  cmd.add_flag("--inline-functions", options.inline_functions,
               "trace through ONNX local functions instead of keeping them as leaf calls");
  cmd.add_flag("!--no-recognize", options.recognize,
               "keep decomposed modules (LayerNorm, GELU, ...) as the ops the model has");
}

void addViewFlags(CLI::App& cmd, ViewFlags& flags) {
  cmd.add_flag("--print-tabular", flags.tabular, "torch.fx's print_tabular view (the default)");
  cmd.add_flag("--code", flags.code, "the graph as torch.fx's generated Python code");
  cmd.add_flag("--graph", flags.graph, "torch.fx's str(graph) view");
  cmd.add_flag("--dot", flags.dot,
               "the graph as Graphviz DOT (torch.fx's FxGraphDrawer: module paths as clusters)");
  cmd.add_option("--svg", flags.svg, "draw the graph into FILE.svg with Graphviz's dot");
  cmd.add_flag("--shapes", flags.shapes,
               "add shape and dtype columns (ONNX shape inference, then a run where it stops)");
}

namespace {

bool sameFile(const std::string& a, const std::string& b) {
  struct stat x {
  }, y{};
  return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev &&
         x.st_ino == y.st_ino;
}

}  // namespace

std::vector<std::string> inputFiles(const ir::GraphModule& gm, const std::string& model_path) {
  std::vector<std::string> files;
  if (model_path == "-") return files;
  files.push_back(model_path);
  if (const auto* record = std::any_cast<onnx::ModelRecord>(&gm.source))
    files.insert(files.end(), record->data_files.begin(), record->data_files.end());
  return files;
}

Expected<bool> notAnInput(const std::string& out, const std::vector<std::string>& inputs,
                          const std::string& what) {
  for (const std::string& in : inputs) {
    if (sameFile(out, in))
      return Error{"refusing to write " + what + " " + out + ": it is the input file " + in};
  }
  return true;
}

std::string viewName(const std::string& path) {
  if (path == "-") return "stdin";
  std::string name = path.substr(path.rfind('/') + 1);
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".onnx") == 0)
    name.resize(name.size() - 5);
  return name;
}

Expected<bool> writeSvg(const ir::GraphModule& gm, const std::string& name, bool with_shapes,
                        const std::string& path, const std::string& model_path) {
  auto allowed = notAnInput(path, inputFiles(gm, model_path), "--svg");
  if (!allowed) return allowed;
  std::string dot = ir::printDot(gm, name, with_shapes);
  const char* tmpdir = std::getenv("TMPDIR");
  std::string input = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/fxc-dot-XXXXXX";
  int fd = ::mkstemp(input.data());
  if (fd < 0)
    return Error{"--svg: cannot make a temporary file: " + std::string(std::strerror(errno))};
  bool wrote = ::write(fd, dot.data(), dot.size()) == static_cast<ssize_t>(dot.size());
  ::close(fd);
  struct Remove {
    std::string path;
    ~Remove() { ::unlink(path.c_str()); }
  } remove{input};
  if (!wrote) return Error{"--svg: cannot write " + input};
  int out[2];
  if (::pipe(out) != 0) return Error{"--svg: " + std::string(std::strerror(errno))};
  pid_t child = ::fork();
  if (child < 0) return Error{"--svg: cannot start dot: " + std::string(std::strerror(errno))};
  if (child == 0) {
    ::dup2(out[1], 1);
    ::close(out[0]);
    ::close(out[1]);
    int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 2);
    const char* argv[] = {"dot", "-Tsvg", input.c_str(), nullptr};
    ::execvp("dot", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  ::close(out[1]);
  std::string svg;
  char buf[65536];
  for (ssize_t n; (n = ::read(out[0], buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    svg.append(buf, static_cast<size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    return Error{
        "--svg needs Graphviz's dot, which is not installed (Debian: apt-get install "
        "graphviz); --dot prints the DOT text"};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || svg.find("<svg") == std::string::npos)
    return Error{"--svg: Graphviz's dot failed on the graph"};
  OutputFile file(path);
  file.write(svg);
  auto committed = file.commit();
  if (!committed) return Error{committed.error()};
  return true;
}

// tabulate's "simple" table: text columns left, numbers right, two spaces between.
std::string table(const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& numeric) {
  std::vector<size_t> widths;
  for (const auto& h : headers) widths.push_back(h.size());
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string pad(widths[c] - cells[c].size(), ' ');
      out += (c ? "  " : "") + (numeric[c] ? pad + cells[c] : cells[c] + pad);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headers);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.emplace_back(w, '-');
  out += line(rule);
  for (const auto& row : rows) out += line(row);
  return out;
}

void addExecFlags(CLI::App& cmd, ExecFlags& flags, bool inputs) {
  cmd.add_option("--backend", flags.backend,
                 "cpu (oneDNN where it applies; the default), reference (plain loops only), "
                 "cudnn (a CUDA device) or auto (cudnn when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "reference", "cudnn", "auto"}));
  cmd.add_option("--precision", flags.precision,
                 "cudnn: fp32 (default), tf32 (tensor-core math) or fp16 (half convolutions, "
                 "float accumulation)")
      ->check(CLI::IsMember({"fp32", "tf32", "fp16"}));
  cmd.add_option("--threads", flags.threads,
                 "threads for the CPU kernels, 1 to 1024 (default: one per core)")
      ->option_text("N")
      ->check(CLI::Range(1, 1024));
  cmd.add_option("--seed", flags.seed, "seed of the random inputs (default 0)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            // strtoull saturates, and reads "-1" as 2^64 - 1: a seed is digits that fit.
            errno = 0;
            std::strtoull(text.c_str(), nullptr, 10);
            bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
            return digits && errno == 0 ? "" : "not an integer from 0 to 2^64 - 1: " + text;
          },
          "UINT64"));
  cmd.add_option("--shape", flags.shapes, "NAME=D0,D1,... for an input with symbolic dimensions")
      ->allow_extra_args(false);
  cmd.add_option("--batch", flags.batch, "batch size (>= 1): the first dimension of every input")
      ->option_text("N")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  if (inputs) {
    cmd.add_option("--input", flags.inputs,
                   "NAME=FILE.npy for an input, by its ONNX name (others: seeded random data)")
        ->allow_extra_args(false);
  }
}

std::pair<std::string, std::string> splitAssignment(const std::string& text, const char* flag) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError{std::string(flag) + " " + text + ": expected NAME=VALUE"};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

namespace {

// The ONNX name of an input (what users know), else its placeholder's.
std::string inputLabel(const ir::Node& node) {
  return node.meta.value_name.empty() ? node.name() : node.meta.value_name;
}

// An input as the model declares it: "[N, 3, 224, 224]", "[4 (--batch), 3, 224, 224]".
std::string declaredText(const ir::Node& node, int64_t batch) {
  std::string text = "[";
  const auto& dims = *node.meta.shape;
  for (size_t d = 0; d < dims.size(); ++d) {
    text += d ? ", " : "";
    text += d == 0 && batch > 0 ? std::to_string(batch) + " (--batch)" : dims[d];
  }
  return text + "]";
}

bool isFloatType(const std::string& dtype) {
  return dtype.empty() || dtype == "float32" || dtype == "float16" || dtype == "bfloat16";
}

// Checks one --input file against its placeholder and makes it the value the model takes: its
// shape fills the symbolic dimensions; float64 converts where every value is a float32, float16
// always; integers feed integer inputs whose type holds them. Anything else is refused by name.
Expected<exec::Value> fileInput(const ir::Node& node, const std::string& file,
                                const ExecFlags& flags,
                                const std::map<std::string, std::vector<int64_t>>& shapes) {
  std::string label = inputLabel(node);
  exec::NpyInfo info;
  auto read = exec::readNpy(file, &info);
  if (!read) return Error{read.error()};
  exec::Value value = read.take();
  const std::string& declared = node.meta.dtype;
  bool float_input = isFloatType(declared), double_input = declared == "float64";
  if (double_input && value.isFloat()) {  // widened: exact
    value.dtype = ir::DType::kFloat64;
    value.d.assign(value.f.begin(), value.f.end());
    value.f.clear();
    spdlog::debug("{}: float32 widened to float64", file);
  }
  if (float_input && value.isDouble() && !exec::float32Exactly(value))
    return Error{file + ": input " + label + " is float64 with values float32 cannot hold " +
                 "exactly; save it as float32 (array.astype(numpy.float32))"};
  if (value.isFloat() != float_input || value.isDouble() != double_input)
    return Error{file + ": input " + label + " is " + info.dtype + ", the model declares " +
                 (declared.empty() ? "float32" : declared)};
  if (float_input && info.dtype != "float32")
    spdlog::debug("{}: {} converted to float32 without loss", file, info.dtype);
  // A float16 or bfloat16 input holds only its type's values: the model never sees another.
  if (declared == "float16" || declared == "bfloat16") {
    bool half = declared == "float16";
    for (float v : value.f) {
      float held = half ? exec::roundToFloat16(v) : exec::roundToBFloat16(v);
      if (held == v || (std::isnan(v) && std::isnan(held))) continue;
      char text[32];
      std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
      return Error{file + ": input " + label + " is " + info.dtype + " with the value " + text +
                   ", which " + declared + " cannot hold exactly" +
                   (half ? "; save it as float16 (array.astype(numpy.float16))" : "")};
    }
  }
  if (!float_input && !double_input) {
    ir::DType want = ir::DType::kInt64;
    for (ir::DType t :
         {ir::DType::kInt8, ir::DType::kUInt8, ir::DType::kInt16, ir::DType::kInt32,
          ir::DType::kInt64, ir::DType::kBool, ir::DType::kUInt16, ir::DType::kUInt32,
          ir::DType::kUInt64}) {
      if (ir::dtypeName(t) == declared) want = t;
    }
    int64_t lo = want == ir::DType::kBool ? 0 : INT64_MIN,
            hi = want == ir::DType::kBool ? 1 : INT64_MAX;
    if (want == ir::DType::kInt8) lo = -128, hi = 127;
    if (want == ir::DType::kUInt8) lo = 0, hi = 255;
    if (want == ir::DType::kInt16) lo = -32768, hi = 32767;
    if (want == ir::DType::kUInt16) lo = 0, hi = 65535;
    if (want == ir::DType::kInt32) lo = INT32_MIN, hi = INT32_MAX;
    if (want == ir::DType::kUInt32) lo = 0, hi = UINT32_MAX;
    if (want == ir::DType::kUInt64) lo = 0;  // and below 2^63, as every uint64 fxc holds
    for (int64_t v : value.i) {
      if (v < lo || v > hi)
        return Error{file + ": input " + label + " is " + info.dtype + " with the value " +
                     std::to_string(v) + ", which " + declared + " cannot hold"};
    }
    if (value.dtype != want) spdlog::debug("{}: {} converted to {}", file, info.dtype, declared);
    value.dtype = want;
  }
  if (info.fortran_order) spdlog::debug("{}: Fortran-ordered, read in C order", file);
  // The shape: --shape's when given, else the declared one with its symbolic dimensions (and,
  // with --batch, the first) taken from the file.
  auto given = shapes.find(node.meta.value_name);
  if (given == shapes.end()) given = shapes.find(node.name());
  if (given != shapes.end()) {
    if (value.shape != given->second)
      return Error{file + ": input " + label + " has shape " + exec::shapeText(value.shape) +
                   ", --shape says " + exec::shapeText(given->second)};
    return value;
  }
  if (!node.meta.shape) return value;
  const auto& dims = *node.meta.shape;
  bool fits = dims.size() == value.shape.size();
  for (size_t d = 0; fits && d < dims.size(); ++d) {
    bool symbolic = ir::isSymbolicDim(dims[d]);
    if (d == 0 && flags.batch > 0)
      fits = value.shape[0] == flags.batch;
    else if (!symbolic)
      fits = value.shape[d] == std::stoll(dims[d]);
  }
  if (!fits)
    return Error{file + ": input " + label + " has shape " + exec::shapeText(value.shape) +
                 ", the model declares " + declaredText(node, flags.batch)};
  return value;
}

}  // namespace

Expected<std::vector<exec::Value>> modelInputs(const ir::GraphModule& gm, const ExecFlags& flags) {
  auto shapes = parseShapes(flags.shapes);
  std::vector<const ir::Node*> placeholders;
  std::string names;
  for (const ir::Node* node : gm.graph()) {
    if (node->op() != ir::Opcode::kPlaceholder) continue;
    placeholders.push_back(node);
    names += (names.empty() ? "" : ", ") + inputLabel(*node);
  }
  auto find = [&](const std::string& name, const char* flag) {
    for (size_t k = 0; k < placeholders.size(); ++k) {
      if (placeholders[k]->name() == name || placeholders[k]->meta.value_name == name) return k;
    }
    throw UsageError{std::string(flag) + " " + name + ": the model's inputs are " + names};
  };
  for (const auto& [name, shape] : shapes) find(name, "--shape");
  // The files first: their shapes complete the random inputs' (symbolic dimensions).
  std::map<size_t, exec::Value> given;
  for (const auto& text : flags.inputs) {
    auto [name, file] = splitAssignment(text, "--input");
    size_t k = find(name, "--input");
    if (given.count(k)) throw UsageError{"--input " + name + " is given twice"};
    auto value = fileInput(*placeholders[k], file, flags, shapes);
    if (!value) return Error{value.error()};
    shapes[placeholders[k]->name()] = value.value().shape;
    given.emplace(k, value.take());
  }
  auto inputs = exec::randomInputs(gm, flags.seed, shapes, flags.batch);
  if (!inputs) return inputs;
  for (auto& [k, value] : given) inputs.value()[k] = std::move(value);
  return inputs;
}

Expected<std::vector<exec::Value>> runInputs(const exec::Interpreter& interpreter,
                                             const ir::GraphModule& gm, const ExecFlags& flags,
                                             const std::string& label) {
  std::string missing;
  if (!interpreter.supported(missing))
    return Error{label + ": unsupported: node " + missing + " has no CPU kernel"};
  auto inputs = modelInputs(gm, flags);
  if (!inputs) return Error{label + ": " + inputs.error()};
  return inputs;
}

std::vector<std::string> outputNames(const ir::GraphModule& gm) {
  std::vector<std::string> names;
  const ir::Node* output = gm.graph().last();
  if (output && !output->args().empty()) {
    const ir::Argument& result = output->args()[0];
    if (result.isSequence()) {
      for (const auto& item : result.items())
        names.push_back(item.isNode() ? item.toNode()->name() : "output");
    } else {
      names.push_back(result.isNode() ? result.toNode()->name() : "output");
    }
  }
  if (const auto* record = std::any_cast<onnx::ModelRecord>(&gm.source); record && record->proto) {
    for (int k = 0;
         k < record->proto->graph().output_size() && static_cast<size_t>(k) < names.size(); ++k)
      names[static_cast<size_t>(k)] = record->proto->graph().output(k).name();
  }
  return names;
}

void applyRunShapes(onnx::TraceOptions& options, const ExecFlags& flags) {
  options.input_shapes = parseShapes(flags.shapes);
  options.batch = flags.batch;
  options.run_shapes = true;
}

exec::Backend applyExecFlags(const ExecFlags& flags) {
  if (flags.threads > 0) exec::setThreads(flags.threads);
  if (flags.backend == "reference") return exec::Backend::kReference;
  if (flags.backend == "cpu") return exec::Backend::kCpu;
  std::string why;
  if (!exec::cudnn::deviceUsable(&why)) {
    if (flags.backend == "auto") {
      spdlog::debug("--backend auto: cpu (no CUDA device: {})", why);
      return exec::Backend::kCpu;
    }
    throw RunError{"no CUDA device: " + why};
  }
  exec::cudnn::setPrecision(flags.precision == "fp16"   ? exec::cudnn::Precision::kFp16
                            : flags.precision == "tf32" ? exec::cudnn::Precision::kTf32
                                                        : exec::cudnn::Precision::kFp32);
  spdlog::debug("backend: cudnn, precision {}", flags.precision);
  return exec::Backend::kCudnn;
}

void reportFallbacks(const exec::Interpreter& interpreter) {
  for (const auto& node : interpreter.fallbacks()) spdlog::debug("cudnn: {} runs on the CPU", node);
}

std::string renderViews(const ir::GraphModule& gm, const ViewFlags& flags, bool default_tabular,
                        const std::string& name) {
  const ir::Graph& graph = gm.graph();
  std::string text;
  if (flags.tabular || (default_tabular && !flags.any()))
    text += ir::printTabular(graph, flags.shapes);
  if (flags.code) text += (text.empty() ? "" : "\n") + ir::pythonCode(graph) + "\n";
  if (flags.graph) text += (text.empty() ? "" : "\n") + ir::formatGraph(graph);
  if (flags.dot) text += (text.empty() ? "" : "\n") + ir::printDot(gm, name, flags.shapes);
  return text;
}

void addOutputFlags(CLI::App& cmd, OutputFlags& flags) {
  cmd.add_option("-o,--output", flags.path, "write the model as ONNX to this file (- for stdout)");
  cmd.add_flag("--in-place", flags.in_place, "write the model back over MODEL");
  cmd.add_flag("--external-data", flags.external_data,
               "store tensors in OUTPUT.data next to the model (automatic past 2 GB)");
  cmd.add_flag("--check", flags.check, "run the ONNX checker on the written model");
}

bool wantsOutput(const OutputFlags& flags) { return !flags.path.empty() || flags.in_place; }

void validateOutputFlags(const OutputFlags& flags, const std::string& model_path, bool prints_text,
                         const std::string& svg) {
  // --svg is a file of its own: never the model read or the model written.
  std::string written = flags.in_place ? model_path : flags.path;
  if (!svg.empty() && model_path != "-" && (svg == model_path || sameFile(svg, model_path)))
    throw UsageError{"--svg " + svg + " is the input model"};
  if (!svg.empty() && !written.empty() && written != "-" &&
      (svg == written || sameFile(svg, written)))
    throw UsageError{"--svg " + svg + " is the model's output too"};
  if (flags.in_place) {
    if (!flags.path.empty()) throw UsageError{"--in-place and -o exclude each other"};
    if (model_path == "-") throw UsageError{"--in-place needs a MODEL file, not stdin"};
    return;
  }
  if (flags.path == "-" && prints_text)
    throw UsageError{"-o - writes the model to stdout; a text view cannot go there too"};
  if (flags.path == "-" && ::isatty(STDOUT_FILENO))
    throw UsageError{
        "-o - would write a binary model to the terminal: redirect stdout (> m.onnx, "
        "| cmd) or give -o FILE"};
  if (flags.path.empty() || flags.path == "-" || model_path == "-") return;
  struct stat in {
  }, out{};
  if (::stat(model_path.c_str(), &in) == 0 && ::stat(flags.path.c_str(), &out) == 0 &&
      in.st_dev == out.st_dev && in.st_ino == out.st_ino)
    throw UsageError{"refusing to overwrite the input " + model_path + " (use --in-place)"};
}

const CLI::Validator kFiniteNumber(
    [](std::string& text) -> std::string {
      char* end = nullptr;
      double value = std::strtod(text.c_str(), &end);
      return std::isfinite(value) ? "" : "not a finite number: " + text;
    },
    "FINITE");

Expected<bool> writeOutput(const ir::GraphModule& gm, const OutputFlags& flags,
                           const std::string& model_path,
                           std::function<Expected<bool>(const std::string& written)> verify) {
  std::string path = flags.in_place ? model_path : flags.path;
  std::string label = path == "-" ? "<stdout>" : path;
  // Nothing written may land on a file the model was read from (its external data included);
  // --in-place replaces just the model file and its own data file.
  if (path != "-" && !flags.in_place) {
    std::vector<std::string> inputs = inputFiles(gm, model_path);
    for (const std::string& out : {path, path + ".data"}) {
      auto allowed = notAnInput(out, inputs, out == path ? "the model" : "the external data");
      if (!allowed) return allowed;
    }
  }
  Stopwatch watch;
  auto model = onnx::exportModel(gm, /*defer_data=*/true);
  if (!model) return Error{label + ": " + model.error()};
  onnx::SaveOptions options;
  options.external_data = flags.external_data;
  options.check = flags.check;
  options.verify = std::move(verify);
  auto saved = onnx::saveModel(model.value(), path, options);
  if (!saved) {  // "cannot write PATH: ..." names the file already
    const std::string& message = saved.error();
    return Error{message.rfind("cannot write ", 0) == 0 ? message : label + ": " + message};
  }
  spdlog::debug("{}: exported and written in {:.3f} s", label, watch.lap());
  return true;
}

std::map<std::string, std::vector<int64_t>> parseShapes(const std::vector<std::string>& specs) {
  std::map<std::string, std::vector<int64_t>> shapes;
  for (const auto& text : specs) {
    size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
      throw UsageError{"--shape " + text + ": expected NAME=VALUE"};
    std::string dims = text.substr(eq + 1);
    std::vector<int64_t> shape;
    size_t start = 0;
    while (start <= dims.size()) {
      size_t comma = dims.find(',', start);
      std::string item =
          dims.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      char* end = nullptr;
      errno = 0;
      long long d = std::strtoll(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || d < 0 || errno == ERANGE)
        throw UsageError{"--shape " + text + ": dimensions must be integers >= 0"};
      shape.push_back(d);
      start = comma == std::string::npos ? dims.size() + 1 : comma + 1;
    }
    if (!shapes.emplace(text.substr(0, eq), shape).second)
      throw UsageError{"--shape " + text.substr(0, eq) + " is given twice"};
  }
  return shapes;
}

std::vector<passes::PassRequest> parsePasses(const std::vector<std::string>& specs) {
  std::vector<passes::PassRequest> requests;
  for (const auto& spec : specs) {
    auto request = passes::parsePassSpec(spec);
    if (!request) throw UsageError{request.error()};
    requests.push_back(request.take());
  }
  return requests;
}

namespace {
std::string countsText(const passes::PassResult& result) {
  if (result.counts.empty()) return "nothing matched";
  std::string text;
  for (const auto& [what, n] : result.counts)
    text += (text.empty() ? "" : ", ") + what + " " + std::to_string(n);
  return result.changed() ? text : text + " (no change)";
}
}  // namespace

void addOptimizeFlag(CLI::App& cmd, ExecFlags& flags) {
  cmd.add_option("-O", flags.optimize,
                 "1 (default): run after the execution pipeline (quant-fold-weights, quant-lower, "
                 "simplify, conv-bn, conv-add-relu, conv-relu, linear-bias, conv-act, linear-act, "
                 "bn-relu, channel-shuffle, attention; -v lists what each did); 0: the graph as "
                 "written")
      ->option_text("LEVEL")
      ->check(CLI::Range(0, 1));
}

// test/CMakeLists.txt's EXECUTION_PIPELINE repeats this list for fxc-conformance (ONNX's backend
// tests after the pipeline): change both together.
std::vector<passes::PassRequest> executionPipeline(const ExecFlags& flags, exec::Backend backend) {
  if (flags.optimize == 0 || backend == exec::Backend::kReference) return {};
  std::vector<std::string> specs;
  specs.push_back("quant-fold-weights");  // a QAT model's float weights: int8 constants
  specs.push_back("quant-lower");
  for (const char* spec : {"simplify", "conv-bn", "conv-add-relu", "conv-relu", "linear-bias"})
    specs.push_back(spec);
  if (backend != exec::Backend::kCudnn) {  // no cuDNN kernels for them
    specs.push_back("conv-act");
    specs.push_back("linear-act");
    specs.push_back("bn-relu");
    specs.push_back("channel-shuffle");
    specs.push_back("attention");
  }
  return parsePasses(specs);
}

void keepHeapBlocks() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

Expected<bool> optimizeForExecution(ir::GraphModule& gm,
                                    const std::vector<passes::PassRequest>& pipeline,
                                    const std::string& label) {
  if (pipeline.empty()) return true;
  Stopwatch watch;
  auto done = runPasses(gm, pipeline, label, nullptr, /*quiet=*/true);
  if (!done) return Error{done.error() + " (-O0 runs the graph as written)"};
  spdlog::debug("{}: execution pipeline: {} nodes in {:.3f} s (-O0: none)", label,
                gm.graph().size(), watch.lap());
  return true;
}

Expected<nlohmann::json> runPasses(
    ir::GraphModule& gm, const std::vector<passes::PassRequest>& requests, const std::string& label,
    const std::function<void(const passes::PassRequest&)>& after_each, bool quiet) {
  nlohmann::json report = nlohmann::json::array();
  for (const auto& request : requests) {
    Stopwatch watch;
    auto result = request.pass->run(gm, request.options);
    if (!result) return Error{label + ": pass " + request.pass->name + ": " + result.error()};
    std::string problem = ir::lintGraph(gm.graph(), &gm);
    if (!problem.empty())
      return Error{label + ": pass " + request.pass->name + " broke the graph: " + problem};
    if (quiet) {
      spdlog::debug("{}: {}", request.pass->name, countsText(result.value()));
    } else {
      spdlog::info("{}: {}", request.pass->name, countsText(result.value()));
    }
    spdlog::debug("{}: {:.3f} s", request.pass->name, watch.lap());
    nlohmann::json counts = nlohmann::json::object();
    for (const auto& [what, n] : result.value().counts) counts[what] = n;
    report.push_back({{"pass", request.pass->name},
                      {"options", request.options.values()},
                      {"changed", result.value().changed()},
                      {"counts", counts}});
    if (after_each) after_each(request);
  }
  return report;
}

void printJson(const nlohmann::json& document) {
  std::string text =
      document.dump(2, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
  text += '\n';
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void printError(const std::string& message) {
  std::string line = message;
  for (char& c : line) {
    if (c == '\n') c = ' ';  // one line, whatever a library put in the message
  }
  std::fprintf(stderr, "fxc: error: %s\n", line.c_str());
}

Expected<bool> writePackage(const onnx::PyTorchPackage& package, const std::string& dir, bool force,
                            const std::vector<std::string>& inputs) {
  // Nothing is written unless every file may be: DIR is a directory (or is made), and no file of
  // the package is there already without --force.
  struct stat info {};
  if (stat(dir.c_str(), &info) == 0) {
    if (!S_ISDIR(info.st_mode)) {
      return Error{dir + ": not a directory"};
    }
  } else if (errno != ENOENT || mkdir(dir.c_str(), 0777) != 0) {
    return Error{dir + ": cannot create the directory: " + std::strerror(errno)};
  }
  for (const auto& [name, bytes] : package.files) {  // a link there may point at the model
    auto allowed = notAnInput(dir + "/" + name, inputs, "the package file");
    if (!allowed) return allowed;
  }
  if (!force) {
    for (const auto& [name, bytes] : package.files) {
      std::string file = dir + "/" + name;
      if (lstat(file.c_str(), &info) == 0) {
        return Error{file + ": exists (--force replaces it)"};
      }
    }
  }
  // Every file is written before any is renamed into place (a failure leaves the package as it
  // was); __init__.py last, so that a package interrupted while renaming does not import.
  OutputSet files;
  for (const auto& [name, bytes] : package.files) {
    auto written = files.add(dir + "/" + name, bytes);
    if (!written) return written;
  }
  return files.commit();
}

}  // namespace fxc::tools
