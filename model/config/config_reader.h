// Reads HTCondor configuration text into a MacroSet
// (introduction-to-configuration in the HTCondor manual):
//   NAME = value            names case-insensitive, optional SUBSYS./LOCAL. prefix
//   NAME @=tag ... @tag     a multi-line value
//   a line ending in '\'    continues on the next; '#' lines inside are skipped
//   # comment               only at the start of a line
//   include [ifexist] : f   another file, relative to the including one
//   use CATEGORY : T ...    predefined templates (templates.h)
//   if/elif/else/endif      defined NAME, version OP x.y[.z], booleans, $(X)
//   error : msg, warning : msg
// A definition that refers to itself (`A = $(A) more`) is expanded at once,
// as are $RANDOM_INTEGER/$RANDOM_CHOICE; every other reference is expanded
// when the value is used.
//
// Beyond HTCondor, for files that lost their backslashes in transit (the
// thesis appendix, printed from PDF, has wrapped lines): an indented line
// that cannot start a statement continues the definition above it, and a
// warning says so.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"
#include "model/config/config_host.h"
#include "model/config/macro_set.h"

namespace cara::config {

// The version that `if version >= x.y.z` compares against. caracara reads
// HTCondor configuration, so it answers as the HTCondor release whose
// language it implements.
inline constexpr const char* kCompatibleVersion = "23.0.0";

class ConfigReader {
 public:
  ConfigReader(MacroSet& macros, const DaemonIdentity& who, ConfigHost& host)
      : macros_(macros), who_(who), host_(host) {}

  // Reads a file; errors name the file and line. A bad line is skipped
  // and reading goes on, so the error lists every bad line (one per line
  // of the message), up to kMaxErrors.
  Status read_file(const std::string& path);
  // Reads text labelled `label` (a path, or "<...>" for built-in text);
  // relative includes resolve against `base_dir`.
  Status read_text(std::string_view text, const std::string& label, const std::string& base_dir);

  // Warnings met so far (`warning :` statements, wrapped lines), each
  // naming its file and line.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  struct Line {
    std::string text;
    int number;               // first physical line
    bool multi_line = false;  // NAME @=tag block: `text` is the value
    std::string name;         // for multi_line
  };
  Result<std::vector<Line>> logical_lines(std::string_view text, const std::string& label);
  Status statement(const Line& line, const std::string& label, const std::string& base_dir);
  Status assign(std::string_view name, std::string value, const Origin& origin);
  Status include(std::string_view rest, const std::string& where, const std::string& base_dir);
  Status use(std::string_view rest, const std::string& where);
  Result<bool> condition(std::string_view text, const std::string& where);
  // Whether an error on this line ends the reading: the if/elif/else/endif
  // structure, and `error :`, which means to.
  static bool stops_reading(std::string_view text);
  static constexpr std::size_t kMaxErrors = 50;

  struct Branch {
    bool parent_active;
    bool active;  // this branch's statements apply
    bool taken;   // some branch of this if has applied
    bool seen_else;
    std::string where;
  };
  bool active() const { return branches_.empty() || branches_.back().active; }

  MacroSet& macros_;
  const DaemonIdentity& who_;
  ConfigHost& host_;
  std::vector<Branch> branches_;
  std::vector<std::string> warnings_;
  std::vector<std::string> errors_;  // of the outermost file being read
  int depth_ = 0;                    // include/use nesting
};

}  // namespace cara::config
