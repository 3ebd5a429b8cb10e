// Keys that order by a number: a prefix and the number zero-padded to 20
// digits, so that key order is number order (the schedd's history by
// sequence, the pool history's samples by time).
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace cara::persistence {

inline std::string numbered_key(std::string_view prefix, std::uint64_t n) {
  char digits[21];
  std::snprintf(digits, sizeof digits, "%020" PRIu64, n);
  return std::string(prefix) + digits;
}

// The number of a key numbered_key() made with `prefix`; nullopt when what
// follows the prefix is not such a number.
inline std::optional<std::uint64_t> key_number(std::string_view key, std::string_view prefix) {
  const std::string digits(key.substr(prefix.size()));
  char* end = nullptr;
  const std::uint64_t n = std::strtoull(digits.c_str(), &end, 10);
  if (digits.size() != 20 || *end != '\0') return std::nullopt;
  return n;
}

}  // namespace cara::persistence
