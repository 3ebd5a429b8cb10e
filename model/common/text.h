// Text helpers, once for the whole tree: ASCII case and HTCondor's lists. ClassAd names and keywords,
// configuration macro names, submitter and user names all compare without
// case in HTCondor, and all of them are ASCII: a locale-dependent tolower
// would make "I" and "i" differ under a Turkish locale.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cara {

inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
}

// `s` with its ASCII letters lower-cased.
std::string to_lower(std::string_view s);

// Case-insensitive ASCII equality.
bool iequals(std::string_view a, std::string_view b);

// The items of a list written HTCondor's way, separated by commas and/or
// spaces ("MASTER, STARTD", "Name,State Cpus"); empty items are dropped.
std::vector<std::string> split_list(std::string_view text);

}  // namespace cara
