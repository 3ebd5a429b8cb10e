// Command-line helpers shared by the commands that parse their own
// arguments (HTCondor's single-dash long options are not CLI11's syntax).
#pragma once

#include <string>
#include <vector>

namespace cara::apps {

// Whether `arg` is option `name`, written --name or HTCondor's -name.
inline bool is_flag(const std::string& arg, const char* name) {
  return arg == std::string("--") + name || arg == std::string("-") + name;
}

// Whether the command line asks for the command's usage (-help, --help,
// -h): every command answers it with its usage and exit code 0.
inline bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (is_flag(a, "help") || a == "-h") return true;
  return false;
}

}  // namespace cara::apps
