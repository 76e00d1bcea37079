// fxc passes [--format json]: the registered passes, their summaries and options.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "passes/registry.h"
#include "tools/common.h"

namespace fxc::tools {
namespace {

const char* kindName(passes::OptionKind kind) {
  switch (kind) {
    case passes::OptionKind::kString:
      return "string";
    case passes::OptionKind::kInt:
      return "int";
    case passes::OptionKind::kFloat:
      return "float";
    case passes::OptionKind::kBool:
      return "bool";
  }
  return "";
}

int runPasses(const std::string& format) {
  const auto all = passes::Registry::instance().all();
  if (format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const auto* pass : all) {
      nlohmann::json options = nlohmann::json::array();
      for (const auto& o : pass->options)
        options.push_back({{"name", o.name},
                           {"type", kindName(o.kind)},
                           {"default", o.default_value},
                           {"help", o.help}});
      out.push_back({{"name", pass->name}, {"summary", pass->summary}, {"options", options}});
    }
    printJson(out);
    return kExitOk;
  }
  size_t width = 0;
  for (const auto* pass : all) width = std::max(width, pass->name.size());
  for (const auto* pass : all) {
    std::printf("%-*s  %s\n", static_cast<int>(width), pass->name.c_str(), pass->summary.c_str());
    for (const auto& o : pass->options) {
      std::string fallback = o.default_value.empty() ? "" : " (default " + o.default_value + ")";
      std::printf("%-*s    %s=%s%s: %s\n", static_cast<int>(width), "", o.name.c_str(),
                  kindName(o.kind), fallback.c_str(), o.help.c_str());
    }
  }
  return kExitOk;
}

}  // namespace

Runner addPassesCommand(CLI::App& app) {
  auto format = std::make_shared<std::string>("text");
  CLI::App* cmd = app.add_subcommand("passes", "List the passes fuse can run");
  cmd->add_option("--format", *format, "text or json")->check(CLI::IsMember({"text", "json"}));
  return [cmd, format]() { return cmd->parsed() ? runPasses(*format) : -1; };
}

}  // namespace fxc::tools
