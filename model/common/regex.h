// Regular expressions with PCRE2, the engine HTCondor uses, behind a small
// interface so that pcre2.h stays out of other headers. Used by the ClassAd
// regexp functions and by configuration map files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace cara {

struct RegexOptions {
  bool caseless = false;
  bool multiline = false;
  bool dotall = false;
  bool extended = false;
};

class Regex {
 public:
  static constexpr std::size_t kUnset = static_cast<std::size_t>(-1);

  Regex();
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // Compiles `pattern`; on failure returns false and sets `error`.
  bool compile(std::string_view pattern, RegexOptions options, std::string* error = nullptr);
  // Searches `subject` from `start`: the number of groups set (1 + captures)
  // on a match, 0 when there is none. Not thread-safe (match data is reused).
  int search(std::string_view subject, std::size_t start = 0) const;
  // Where group `g` of the last match starts and ends (kUnset when unset).
  std::size_t group_start(int g) const;
  std::size_t group_end(int g) const;
  std::uint32_t capture_count() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cara
