// What every command-line tool shares that needs no actor system: reading
// the configuration, HTCondor-style options, -af output. The commands
// that talk to the local schedd (submit, q, history) use only this, so the
// `cara` binary they run in stays free of CAF and RocksDB (a process that
// loads them spends most of its start-up relocating their symbols).
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/config/config.h"

namespace cara::apps {

// Every tool's exit codes (issue 23): success; the user's error (the
// message says what to fix); the pool unreachable (the message names the
// address and what refused: the connection, TLS or authorization).
inline constexpr int kExitOk = 0;
inline constexpr int kExitUserError = 1;
inline constexpr int kExitUnreachable = 2;

// Reads the configuration the way every tool does; `--config FILE` wins.
Result<config::Config> tool_config(const std::optional<std::string>& file, const char* who);

// "--name VALUE" pairs and positionals, with a message naming a bad option.
struct Parsed {
  std::map<std::string, std::string> options;
  std::vector<std::string> positional;
};
std::optional<Parsed> parse(const std::vector<std::string>& args, const std::vector<std::string>& with_value,
                            const char* command, const char* usage, std::ostream& err);
std::optional<std::string> option(const Parsed& p, const std::string& name);

// args[i]'s value (`i` moves to it), or "-x expects WHAT".
Result<std::string> option_value(const std::vector<std::string>& args, std::size_t& i, const char* what);

struct AdOutput;

// Which schedd a tool's -name and -pool name (schedd_link.h): none, this
// node's.
struct ScheddTarget {
  std::optional<std::string> name;  // -name SCHEDD (its Name)
  std::optional<std::string> pool;  // -pool CM[:PORT]
  bool remote() const { return name || pool; }
};

// The options the query tools share, read alike: --config FILE, -pool
// HOST[:PORT], -constraint EXPR (checked to parse) and the output options
// (ad_output.h). A null target is an option the tool does not take.
// Whether args[i] was one (`i` left at its last value), or what is wrong
// with it.
struct SharedOptions {
  std::optional<std::string>* config = nullptr;
  std::optional<std::string>* pool = nullptr;
  std::string* constraint = nullptr;
  AdOutput* output = nullptr;
  std::optional<std::string>* name = nullptr;  // -name SCHEDD
  Result<bool> take(const std::vector<std::string>& args, std::size_t& i) const;
};

// "A,B C" → {A, B, C}: the attributes -af names.
std::vector<std::string> attribute_list(const std::string& text);
// condor_q's autoformat: the attributes' values on one line, space-separated,
// strings bare (autoformat_value: one of them).
std::string autoformat_value(const classad::ClassAd& ad, std::string_view attr);
std::string autoformat(const classad::ClassAd& ad, const std::vector<std::string>& attrs);

// A tool that takes options only: its options and its configuration
// (`who` reads it, `--config FILE` wins), or nullopt once `err` says what
// was wrong (exit code 2).
struct ToolStart {
  Parsed parsed;
  config::Config config;
};
std::optional<ToolStart> options_only(const std::vector<std::string>& args,
                                      const std::vector<std::string>& with_value, const char* command,
                                      const char* usage, const char* who, std::ostream& err);

}  // namespace cara::apps
