// An environment given as NAME=value entries (a process's environ, the
// environment a submitter sends with its submit description), split once.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cara {

// (name, value) pairs in the entries' order; an entry without '=' is not a
// variable and is left out, as getenv would never find it.
std::vector<std::pair<std::string, std::string>> parse_environment(const std::vector<std::string>& entries);

}  // namespace cara
