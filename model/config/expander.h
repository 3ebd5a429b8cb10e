// Macro expansion in configuration values (and, in a later issue, submit
// files, which HTCondor reads with the same parser):
//   $(NAME)  $(NAME:default)         another macro, or the default
//   $$(...)                          kept as written: substituted at match time
//   $ENV(VAR[:default])              the environment
//   $RANDOM_INTEGER(min,max[,step])  $RANDOM_CHOICE(a,b,...)
//   $CHOICE(i,list) $SUBSTR(name,start[,len])
//   $INT(name[,fmt]) $REAL(name[,fmt]) $STRING(name[,fmt]) $EVAL(name)
//   $F[pdnxbuwqa](name) $DIRNAME(name) $BASENAME(name)
// (introduction-to-configuration, "Function Macros in Configuration").
// An undefined macro expands to the empty string; a macro that refers to
// itself, directly or not, is an error naming the chain.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"
#include "model/config/config_host.h"
#include "model/config/macro_set.h"

namespace cara::config {

class Expander {
 public:
  Expander(const MacroSet& macros, const DaemonIdentity& who, ConfigHost& host)
      : macros_(macros), who_(who), host_(host) {}

  // `text` with every macro reference replaced.
  Result<std::string> expand(std::string_view text);

  // The expanded value of macro `name`, or nullopt when it is not defined.
  Result<std::optional<std::string>> value_of(std::string_view name);

  // Only the function macros whose value must be fixed when the definition
  // is read ($RANDOM_INTEGER, $RANDOM_CHOICE): a knob like
  // `DEFRAG_INTERVAL = $RANDOM_INTEGER(60, 120)` must not change between
  // two reads of it.
  Result<std::string> expand_random(std::string_view text);

 private:
  Result<std::string> expand_into(std::string_view text, bool random_only);
  Result<std::string> call(std::string_view fn, std::string_view args);
  Result<std::string> named_value(std::string_view name);

  const MacroSet& macros_;
  const DaemonIdentity& who_;
  ConfigHost& host_;
  std::vector<std::string> active_;  // macros being expanded, for cycles
};

// Splits `text` at top-level commas (not inside parentheses or quotes),
// trimming each piece.
std::vector<std::string> split_arguments(std::string_view text);

// The index of the ')' closing the '(' at `open`, or npos.
std::size_t matching_paren(std::string_view s, std::size_t open);

// The lines of `text`, without their '\n' (or "\r\n").
std::vector<std::string_view> split_lines(std::string_view text);

// Trims ASCII white space at both ends.
std::string_view trim(std::string_view s);

}  // namespace cara::config
