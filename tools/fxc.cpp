// fxc: the torch.fx workflow for ONNX models, as a command-line tool.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

#include "ir/name_space.h"
#include "ir/output_file.h"
#include "tools/common.h"

namespace {
// Models are memory-mapped: if another process truncates the file while fxc reads it, the next
// access to a vanished page raises SIGBUS. Say so in one line instead of dying with a signal.
void onBusError(int) {
  static const char kMessage[] = "fxc: error: an input file shrank while fxc was reading it\n";
  fxc::removeUnfinishedOutputs();  // no partial output left behind
  ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  (void)ignored;
  ::_exit(1);
}
// Interrupted (Ctrl-C, kill): remove the temporary output, then die of the same signal, so that
// the shell sees what happened.
void onInterrupt(int signal) {
  fxc::removeUnfinishedOutputs();
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}
// CLI11's help, with a flag's default-value syntax ("--verify{default}") left out of its name.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* option, bool positional) const override {
    std::string name = CLI::Formatter::make_option_name(option, positional);
    for (size_t at = name.find('{'); at != std::string::npos; at = name.find('{')) {
      size_t end = name.find('}', at);
      if (end == std::string::npos) break;
      name.erase(at, end - at + 1);
    }
    return name;
  }
};

// For "The following argument was not expected: --verfy": the flag of the subcommand given (or
// of fxc itself) that each unexpected --word most likely meant.
std::string didYouMean(CLI::App& app, const std::string& message) {
  std::vector<std::string> flags;
  auto subcommands = app.get_subcommands();
  CLI::App* scope = subcommands.empty() ? &app : subcommands.front();
  for (CLI::App* owner : {scope, &app}) {
    for (const CLI::Option* option : owner->get_options()) {
      for (const auto& name : option->get_lnames()) flags.push_back("--" + name);
    }
  }
  std::string hints;
  size_t colon = message.find(": ");
  std::string rest = colon == std::string::npos ? "" : message.substr(colon + 2);
  for (size_t start = 0; start < rest.size();) {
    size_t space = rest.find(' ', start);
    std::string word =
        rest.substr(start, space == std::string::npos ? std::string::npos : space - start);
    start = space == std::string::npos ? rest.size() : space + 1;
    if (word.rfind("--", 0) != 0) continue;
    std::string guess = fxc::ir::closestName(word.substr(0, word.find('=')), flags);
    if (!guess.empty()) hints += (hints.empty() ? "" : ", ") + guess;
  }
  return hints.empty() ? "" : " (did you mean " + hints + "?)";
}
// A command that succeeded but whose printed output did not all reach stdout (a full disk,
// /dev/full, a closed stdout) fails: its output is incomplete.
int finishStdout(int code) {
  std::cout.flush();
  bool failed = !std::cout.good();
  errno = 0;
  failed = std::fflush(stdout) != 0 || std::ferror(stdout) || failed;
  if (failed && code == 0) {
    fxc::tools::printError(std::string("cannot write to stdout: ") +
                           (errno ? std::strerror(errno) : "write error"));
    return fxc::tools::kExitFailure;
  }
  return code;
}
}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGBUS, onBusError);
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
  std::signal(SIGHUP, onInterrupt);
  // A file size limit (ulimit -f) reached: the write fails with EFBIG and fxc reports it like a
  // full disk, removing the temporary, instead of dying of SIGXFSZ with the temporary left.
  std::signal(SIGXFSZ, SIG_IGN);
  using namespace fxc::tools;
  CLI::App app{"fxc: trace ONNX models into an FX graph IR, transform, lint and emit them"};
  app.formatter(std::make_shared<HelpFormatter>());  // before the subcommands, which copy it
  app.require_subcommand(1);
  app.set_version_flag("--version", "fxc 0.1.0");
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "say more on stderr (debug level)");
  app.add_flag("-q,--quiet", quiet, "only errors on stderr");
  std::vector<Runner> runners = {
      addTraceCommand(app),   addLintCommand(app),     addPassesCommand(app),
      addFuseCommand(app),    addRunCommand(app),      addProfileCommand(app),
      addBenchCommand(app),   addQuantizeCommand(app), addSummaryCommand(app),
      addCompareCommand(app), addCodegenCommand(app)};
  for (CLI::App* sub : app.get_subcommands({})) {
    sub->add_flag("-v,--verbose", verbose, "say more on stderr (debug level)");
    sub->add_flag("-q,--quiet", quiet, "only errors on stderr");
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::string message = e.what();
    if (dynamic_cast<const CLI::ExtrasError*>(&e)) message += didYouMean(app, message);
    printError(message + " (see fxc --help)");
    return kExitUsage;
  }

  auto logger = spdlog::stderr_logger_st("fxc");
  logger->set_pattern("fxc: %v");
  logger->set_level(quiet     ? spdlog::level::err
                    : verbose ? spdlog::level::debug
                              : spdlog::level::info);
  spdlog::set_default_logger(logger);

  try {
    for (const Runner& run : runners) {
      int code = run();
      if (code >= 0) return finishStdout(code);
    }
  } catch (const UsageError& e) {
    printError(e.message);
    return kExitUsage;
  } catch (const RunError& e) {
    printError(e.message);
    return kExitFailure;
  } catch (const std::bad_alloc&) {
    printError("out of memory");
    return kExitFailure;
  } catch (const std::exception& e) {
    printError(std::string("internal error: ") + e.what());
    return kExitFailure;
  }
  return kExitUsage;
}
