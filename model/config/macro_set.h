// The configuration as read: macro definitions by name, each with where it
// was set (for `cara config-val --verbose` and error messages).
//
// Names are case-insensitive and may carry a subsystem and/or local-name
// prefix (`NEGOTIATOR.PRIORITY_HALFLIFE`, `SCHEDD.XYZZY.SPOOL`); a daemon
// resolves a name through its prefixed forms (MacroSet::find) in the documented
// order (introduction-to-configuration, "Configuration File Macros").
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cara::config {

// Where a definition came from. `file` is a path, or a label in angle
// brackets: <default>, <environment>, <template POLICY:Desktop>, <command line>.
struct Origin {
  std::string file;
  int line = 0;

  std::string describe() const;
};

struct Definition {
  std::string name;   // as written, with any prefix
  std::string value;  // raw: macros are expanded when the value is used
  Origin origin;
};

// Which daemon is reading the configuration.
struct DaemonIdentity {
  std::string subsystem;   // MASTER, COLLECTOR, NEGOTIATOR, SCHEDD, STARTD, TOOL, ...
  std::string local_name;  // from -local-name; usually empty
};

// Upper-cases ASCII letters: the canonical form of a macro name.
std::string canonical_name(std::string_view name);
// Whether canonical_name(a) < canonical_name(b), without making either.
bool canonical_less(std::string_view a, std::string_view b);

// A macro name: letters, digits, '_' and '.' (for prefixes), not empty.
bool is_macro_name(std::string_view name);

class MacroSet {
 public:
  // The built-in defaults (defaults.h) stand behind the definitions: a
  // name nothing defines has its default, until erased. Every daemon's and
  // tool's configuration starts so.
  void use_knob_defaults() { knob_defaults_ = true; }

  // Defines or redefines `name` (exactly as given, prefix included).
  void set(std::string_view name, std::string value, Origin origin);
  // Removes the definition of `name`, its default's too.
  void erase(std::string_view name);
  // The definition stored under exactly this name (no prefix resolution).
  const Definition* find_exact(std::string_view name) const;
  // The definition a daemon sees for `name`, resolving prefixes: the
  // first defined of SUBSYS.LOCAL.NAME, LOCAL.NAME, SUBSYS.NAME, NAME.
  const Definition* find(std::string_view name, const DaemonIdentity& who) const;
  // Every definition, the defaults that stand included, ordered by
  // canonical name.
  std::vector<const Definition*> all() const;

 private:
  // find_exact() of a name already canonical.
  const Definition* find_canonical(const std::string& key) const;

  std::map<std::string, Definition> defs_;  // canonical name -> definition
  bool knob_defaults_ = false;
  std::set<std::string> erased_defaults_;  // canonical names whose default was erased
};

}  // namespace cara::config
