// Command-line helpers shared by the commands that parse their own
// arguments (HTCondor's single-dash long options are not CLI11's syntax).
#pragma once

#include <string>

namespace cara::apps {

// Whether `arg` is option `name`, written --name or HTCondor's -name.
inline bool is_flag(const std::string& arg, const char* name) {
  return arg == std::string("--") + name || arg == std::string("-") + name;
}

}  // namespace cara::apps
