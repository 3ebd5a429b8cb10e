// ASCII case helpers, once for the whole tree. ClassAd names and keywords,
// configuration macro names, submitter and user names all compare without
// case in HTCondor, and all of them are ASCII: a locale-dependent tolower
// would make "I" and "i" differ under a Turkish locale.
#pragma once

#include <string>
#include <string_view>

namespace cara {

inline char ascii_lower(char c) {
  return (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
}

// `s` with its ASCII letters lower-cased.
std::string to_lower(std::string_view s);

// Case-insensitive ASCII equality.
bool iequals(std::string_view a, std::string_view b);

}  // namespace cara
