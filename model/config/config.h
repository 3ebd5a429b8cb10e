// A daemon's configuration: load_config() reads it in HTCondor's order, and
// Config answers typed questions about it.
//
// Order (introduction-to-configuration, "Ordered Evaluation"): built-in
// defaults and predefined machine macros; the main file (--config, else
// $CARA_CONFIG, else /etc/caracara/cara_config, else
// /usr/local/etc/cara_config; CARA_CONFIG=ONLY_ENV reads no file); the
// files of LOCAL_CONFIG_DIR in name order; the files of LOCAL_CONFIG_FILE;
// LOCAL_CONFIG_DIR again if those changed it; the environment variables
// _CARA_<NAME> (like _CONDOR_<NAME>); overrides given by the caller.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/classad/expr.h"
#include "model/common/result.h"
#include "model/config/config_host.h"
#include "model/config/macro_set.h"

namespace cara::config {

struct LoadOptions {
  std::optional<std::string> config_file;  // else CARA_CONFIG, else the standard places
  DaemonIdentity who{"TOOL", ""};
  std::vector<std::pair<std::string, std::string>> overrides;  // applied last
};

class Config {
 public:
  Config(MacroSet macros, DaemonIdentity who, std::shared_ptr<ConfigHost> host,
         std::vector<std::string> warnings, std::vector<std::string> files)
      : macros_(std::make_shared<const MacroSet>(std::move(macros))),
        who_(std::move(who)),
        host_(std::move(host)),
        warnings_(std::move(warnings)),
        files_(std::move(files)),
        memo_(new_memo()) {}
  // A view of `macros` as they are, without copying them: for reading a
  // few knobs while the configuration is still being read. It must not
  // outlive `macros`.
  static Config viewing(const MacroSet& macros, DaemonIdentity who, std::shared_ptr<ConfigHost> host);

  const DaemonIdentity& identity() const { return who_; }
  // The host the configuration was read from: files it names (map files,
  // queue-from files) are read there too.
  const std::shared_ptr<ConfigHost>& host() const { return host_; }
  // The same configuration as another daemon (or local name) sees it.
  Config as(DaemonIdentity who) const;
  // The same configuration with the definition stored as `name` (prefix
  // included) back at its built-in default, or gone when it has none.
  Config with_default(std::string_view name) const;

  // The definition this daemon sees (prefixes resolved), or null.
  const Definition* definition(std::string_view name) const { return macros_->find(name, who_); }
  bool defined(std::string_view name) const { return definition(name) != nullptr; }

  // The value with macros expanded; nullopt when not defined.
  Result<std::optional<std::string>> value(std::string_view name) const;
  // The expanded value, or `fallback` when not defined.
  Result<std::string> string(std::string_view name, std::string fallback = "") const;
  // Typed values: the expanded text is a ClassAd expression of constants
  // ("numeric constants can be any valid ClassAd expression of operators on
  // constants"). Not defined, or not of the type, is an error naming the
  // knob and where it was set.
  Result<std::int64_t> integer(std::string_view name) const;
  // An interval knob (UPDATE_INTERVAL, CLASSAD_LIFETIME, ...): an integer
  // number of seconds, more than zero.
  Result<std::int64_t> positive_seconds(std::string_view name) const;
  Result<double> real(std::string_view name) const;
  Result<bool> boolean(std::string_view name) const;
  // The expanded value parsed as a ClassAd expression (START, RANK, ...).
  Result<classad::ExprPtr> expression(std::string_view name) const;
  // The same for a knob that may be left out: null when it is not defined
  // or its value is blank (PREEMPTION_REQUIREMENTS =, DEFRAG_RANK =).
  Result<classad::ExprPtr> optional_expression(std::string_view name) const;
  // A list knob (GROUP_NAMES, DAEMON_LIST): items split at commas and
  // white space; empty when not defined.
  Result<std::vector<std::string>> list(std::string_view name) const;

  const MacroSet& macros() const { return *macros_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  // The files read, in order.
  const std::vector<std::string>& files() const { return files_; }

 private:
  Result<std::string> required(std::string_view name) const;
  template <class T, class Convert>
  Result<T> typed(std::string_view name, const char* expected, Convert convert) const;
  std::string where(std::string_view name) const;

  Config(std::shared_ptr<const MacroSet> macros, DaemonIdentity who, std::shared_ptr<ConfigHost> host,
         std::vector<std::string> warnings, std::vector<std::string> files)
      : macros_(std::move(macros)),
        who_(std::move(who)),
        host_(std::move(host)),
        warnings_(std::move(warnings)),
        files_(std::move(files)) {}

  // Shared by copies (a Config is copied into every daemon's settings);
  // never changed once read.
  std::shared_ptr<const MacroSet> macros_;
  DaemonIdentity who_;
  std::shared_ptr<ConfigHost> host_;
  std::vector<std::string> warnings_;
  std::vector<std::string> files_;
  // The expanded values looked up so far, shared by the copies of a
  // configuration that owns its macros (a view's may change under it:
  // none). Daemons read the same knobs for every job and slot (issue 29: a
  // simulated job's submission and carve looked up a dozen, each through
  // the daemon's prefixes and the macro expander).
  struct ValueMemo;
  static std::shared_ptr<ValueMemo> new_memo();
  std::shared_ptr<ValueMemo> memo_;
};

Result<Config> load_config(const LoadOptions& options, std::shared_ptr<ConfigHost> host);

// Reads configuration text alone (no main file search, no local files):
// defaults, machine macros, then `text`. For tests, the simulator and
// embedding.
Result<Config> config_from_text(std::string_view text, const DaemonIdentity& who,
                                std::shared_ptr<ConfigHost> host);

}  // namespace cara::config
