#include "model/config/config.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <regex>
#include <unordered_map>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/config/config_layers.h"
#include "model/config/config_reader.h"
#include "model/config/defaults.h"
#include "model/config/expander.h"

namespace cara::config {
namespace {

const char* const kStandardPlaces[] = {"/etc/caracara/cara_config", "/usr/local/etc/cara_config"};

// Defaults and the predefined macros of the machine.
MacroSet base_macros(ConfigHost& host, const DaemonIdentity& who) {
  MacroSet m;
  m.use_knob_defaults();
  const MachineFacts f = host.machine();
  const Origin machine{"<machine>", 0};
  m.set("FULL_HOSTNAME", f.full_hostname, machine);
  m.set("HOSTNAME", f.hostname, machine);
  m.set("IP_ADDRESS", f.ip_address, machine);
  m.set("DETECTED_CPUS", std::to_string(f.detected_cpus), machine);
  m.set("DETECTED_CORES", std::to_string(f.detected_cpus), machine);
  m.set("DETECTED_PHYSICAL_CPUS", std::to_string(f.detected_physical_cpus), machine);
  m.set("DETECTED_CPUS_LIMIT", std::to_string(f.detected_cpus), machine);
  m.set("DETECTED_MEMORY", std::to_string(f.detected_memory_mib), machine);
  m.set("DETECTED_DISK", std::to_string(f.detected_disk_kib), machine);
  m.set("DETECTED_SWAP", std::to_string(f.detected_swap_kib), machine);
  m.set("ARCH", f.arch, machine);
  m.set("OPSYS", f.opsys, machine);
  m.set("USERNAME", f.username, machine);
  m.set("PID", std::to_string(f.pid), machine);
  m.set("SUBSYSTEM", who.subsystem, machine);
  m.set("DOLLAR", "$", machine);
  return m;
}

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// Reads the files of each LOCAL_CONFIG_DIR directory in name order,
// skipping names LOCAL_CONFIG_DIR_EXCLUDE_REGEXP matches. The expression
// is compiled when a directory is there to read: compiling the default one
// was a fiftieth of a one-job `cara submit`'s CPU (issue 21), on nodes
// that have no such directory.
Status read_local_dirs(ConfigReader& reader, const Config& view, ConfigHost& host,
                       std::vector<std::string>& files) {
  auto dirs = view.list("LOCAL_CONFIG_DIR");
  if (!dirs) return Error{dirs.error()};
  auto exclude_text = view.string("LOCAL_CONFIG_DIR_EXCLUDE_REGEXP");
  if (!exclude_text) return Error{exclude_text.error()};
  std::optional<std::regex> exclude;
  for (const std::string& dir : *dirs) {
    if (!host.is_directory(dir)) continue;  // HTCondor skips a missing directory
    if (!exclude && !exclude_text->empty()) {
      try {
        exclude = std::regex(*exclude_text);
      } catch (const std::regex_error& e) {
        return Error{"LOCAL_CONFIG_DIR_EXCLUDE_REGEXP: not a regular expression: " + std::string(e.what())};
      }
    }
    auto names = host.list_dir(dir);
    if (!names) return Error{"LOCAL_CONFIG_DIR: " + names.error()};
    std::sort(names->begin(), names->end());
    for (const std::string& name : *names) {
      if (exclude && std::regex_match(name, *exclude)) continue;
      std::string path = dir + "/" + name;
      if (auto s = reader.read_file(path); !s) return s;
      files.push_back(path);
    }
  }
  return Ok{};
}

}  // namespace

Config Config::viewing(const MacroSet& macros, DaemonIdentity who, std::shared_ptr<ConfigHost> host) {
  // An aliasing pointer that owns nothing.
  return Config(std::shared_ptr<const MacroSet>(std::shared_ptr<const MacroSet>{}, &macros), std::move(who),
                std::move(host), {}, {});
}

Config Config::as(DaemonIdentity who) const {
  MacroSet macros = *macros_;
  macros.set("SUBSYSTEM", who.subsystem, Origin{"<machine>", 0});
  return Config(std::move(macros), std::move(who), host_, warnings_, files_);
}

Config Config::with_default(std::string_view name) const {
  MacroSet macros = *macros_;
  macros.erase(name);
  const std::string canonical = canonical_name(name);
  for (const KnobDefault& d : knob_defaults())
    if (canonical_name(d.name) == canonical) macros.set(d.name, d.value, Origin{"<default>", 0});
  return Config(std::move(macros), who_, host_, warnings_, files_);
}

// The macros are fixed and $RANDOM_* was drawn when the files were read
// (ConfigReader::assign), so a knob expands the same way every time: kept
// once expanded. Errors are not kept (rare, and said again).
struct Config::ValueMemo {
  std::mutex lock;
  std::unordered_map<std::string, std::optional<std::string>> values;
};

std::shared_ptr<Config::ValueMemo> Config::new_memo() {
  return std::make_shared<ValueMemo>();
}

Result<std::optional<std::string>> Config::value(std::string_view name) const {
  if (memo_) {
    std::lock_guard hold(memo_->lock);
    if (auto it = memo_->values.find(std::string(name)); it != memo_->values.end()) return it->second;
  }
  Expander ex(*macros_, who_, *host_);
  auto v = ex.value_of(name);
  if (!v) return Error{std::string(name) + ": " + v.error()};
  if (memo_) {
    std::lock_guard hold(memo_->lock);
    memo_->values.emplace(std::string(name), *v);
  }
  return v;
}

Result<std::string> Config::string(std::string_view name, std::string fallback) const {
  auto v = value(name);
  if (!v) return Error{v.error()};
  return v->has_value() ? std::string(trim(**v)) : std::move(fallback);
}

std::string Config::where(std::string_view name) const {
  const Definition* d = definition(name);
  return d ? " (set at " + d->origin.describe() + ")" : "";
}

Result<std::string> Config::required(std::string_view name) const {
  auto v = value(name);
  if (!v) return Error{v.error()};
  if (!v->has_value()) return Error{std::string(name) + " is not defined"};
  return std::string(trim(**v));
}

namespace {

// The value of a knob spelled as a plain decimal integer (at most 18
// digits, so no overflow) or as True / False: what the ClassAd parser and
// evaluator would make of it, without them. Most knobs are spelled so,
// and a daemon or a client reads dozens per action (issue 21: a one-job
// submit's config reads). nullopt for anything else.
std::optional<classad::Value> plain_constant(std::string_view text) {
  if (classad::iequals(text, "true")) return classad::Value::boolean(true);
  if (classad::iequals(text, "false")) return classad::Value::boolean(false);
  const std::size_t digits_at = !text.empty() && text[0] == '-' ? 1 : 0;
  const std::size_t digits = text.size() - digits_at;
  if (digits == 0 || digits > 18) return std::nullopt;
  std::int64_t magnitude = 0;
  for (char c : text.substr(digits_at)) {
    if (c < '0' || c > '9') return std::nullopt;
    magnitude = magnitude * 10 + (c - '0');
  }
  return classad::Value::integer(digits_at ? -magnitude : magnitude);
}

}  // namespace

// The knob's value evaluated as a ClassAd expression of constants, handed
// to `convert`; an error names the knob, its text and where it was set.
template <class T, class Convert>
Result<T> Config::typed(std::string_view name, const char* expected, Convert convert) const {
  auto text = required(name);
  if (!text) return Error{text.error()};
  auto described = [&] { return std::string(name) + " = " + *text + where(name); };
  classad::Value v;
  if (auto constant = plain_constant(*text)) {
    v = std::move(*constant);
  } else {
    auto parsed = classad::parse_expression(*text);
    if (!parsed) return Error{described() + ": " + parsed.error()};
    v = classad::evaluate(**parsed, nullptr, nullptr, classad::EvalEnv{});
  }
  T out{};
  if (!convert(v, out)) return Error{described() + ": expected " + expected};
  return out;
}

Result<std::int64_t> Config::integer(std::string_view name) const {
  return typed<std::int64_t>(name, "an integer", [](const classad::Value& v, std::int64_t& out) {
    if (v.is_real()) {
      // A real is accepted when it is a whole number in range (3.0).
      double r = v.as_real();
      if (!(r >= -9.2e18 && r <= 9.2e18) || r != static_cast<double>(static_cast<std::int64_t>(r)))
        return false;
    }
    return !v.is_string() && v.number(out);
  });
}

Result<std::int64_t> Config::positive_seconds(std::string_view name) const {
  auto v = integer(name);
  if (!v) return v;
  if (*v <= 0) return Error{std::string(name) + " must be a positive number of seconds"};
  return v;
}

Result<double> Config::real(std::string_view name) const {
  return typed<double>(name, "a number",
                       [](const classad::Value& v, double& out) { return !v.is_string() && v.number(out); });
}

Result<bool> Config::boolean(std::string_view name) const {
  return typed<bool>(name, "True or False",
                     [](const classad::Value& v, bool& out) { return v.bool_equiv(out); });
}

Result<classad::ExprPtr> Config::optional_expression(std::string_view name) const {
  auto text = string(name);
  if (!text) return Error{text.error()};
  if (text->find_first_not_of(" \t") == std::string::npos) return classad::ExprPtr{};
  return expression(name);
}

Result<classad::ExprPtr> Config::expression(std::string_view name) const {
  auto text = required(name);
  if (!text) return Error{text.error()};
  // Shared: a startd asks for the same policy text once per slot.
  auto parsed = classad::parse_expression_shared(*text);
  if (!parsed) {
    const Definition* d = definition(name);
    return Error{std::string(name) + (d ? " (" + d->origin.describe() + ")" : std::string()) + ": '" + *text +
                 "' is not a ClassAd expression: " + parsed.error()};
  }
  return *parsed;
}

Result<std::vector<std::string>> Config::list(std::string_view name) const {
  auto text = string(name);
  if (!text) return Error{text.error()};
  return split_list(*text);
}

Result<Config> config_from_text(std::string_view text, const DaemonIdentity& who,
                                std::shared_ptr<ConfigHost> host) {
  MacroSet macros = base_macros(*host, who);
  ConfigReader reader(macros, who, *host);
  if (auto s = reader.read_text(text, "<text>", ""); !s) return Error{s.error()};
  return Config(std::move(macros), who, host, reader.warnings(), {});
}

Result<Config> config_from_layers(const std::vector<TextLayer>& layers, const DaemonIdentity& who,
                                  std::shared_ptr<ConfigHost> host) {
  MacroSet macros = base_macros(*host, who);
  ConfigReader reader(macros, who, *host);
  for (const TextLayer& layer : layers) {
    // Blank lines before the text keep the reader's line numbers the file's.
    std::string text(static_cast<std::size_t>(std::max(0, layer.first_line - 1)), '\n');
    text += layer.text;
    if (auto s = reader.read_text(text, layer.label, ""); !s) return Error{s.error()};
  }
  return Config(std::move(macros), who, host, reader.warnings(), {});
}

Result<Config> host_config_from_layers(const std::vector<TextLayer>& layers, const DaemonIdentity& who,
                                       const std::string& host, std::uint64_t seed) {
  auto files = std::make_shared<MemoryHost>(seed);
  MachineFacts facts;
  facts.full_hostname = host;
  facts.hostname = host.substr(0, host.find('.'));
  files->set_machine(facts);
  return config_from_layers(layers, who, files);
}

Result<Config> load_config(const LoadOptions& options, std::shared_ptr<ConfigHost> host) {
  MacroSet macros = base_macros(*host, options.who);
  ConfigReader reader(macros, options.who, *host);
  std::vector<std::string> files;

  // The main file.
  std::optional<std::string> main = options.config_file;
  bool only_env = false;
  if (!main) {
    if (auto env = host->env("CARA_CONFIG")) {
      if (*env == "ONLY_ENV")
        only_env = true;
      else
        main = *env;
    }
  }
  if (!main && !only_env) {
    for (const char* place : kStandardPlaces) {
      if (host->exists(place)) {
        main = place;
        break;
      }
    }
    if (!main) {
      return Error{
          "no configuration file: pass --config FILE, set CARA_CONFIG to a file (or to ONLY_ENV to use the "
          "built-in defaults and the environment), or create /etc/caracara/cara_config"};
    }
  }
  if (main) {
    if (auto s = reader.read_file(*main); !s) return Error{s.error()};
    files.push_back(*main);
    auto slash = main->find_last_of('/');
    macros.set("CONFIG_ROOT", slash == std::string::npos ? "." : main->substr(0, slash),
               Origin{"<machine>", 0});
  }

  // Local files: the directories, then the files, then the directories
  // again if those changed them.
  auto view = [&] { return Config::viewing(macros, options.who, host); };
  auto dirs_before = view().string("LOCAL_CONFIG_DIR");
  if (!dirs_before) return Error{dirs_before.error()};
  if (auto s = read_local_dirs(reader, view(), *host, files); !s) return Error{s.error()};
  auto locals = view().list("LOCAL_CONFIG_FILE");
  if (!locals) return Error{locals.error()};
  auto required = view().boolean("REQUIRE_LOCAL_CONFIG_FILE");
  for (const std::string& file : *locals) {
    if (!host->exists(file)) {
      if (required && !*required) continue;
      return Error{"LOCAL_CONFIG_FILE names " + file +
                   ", which does not exist (set REQUIRE_LOCAL_CONFIG_FILE = False to allow that)"};
    }
    if (auto s = reader.read_file(file); !s) return Error{s.error()};
    files.push_back(file);
  }
  auto dirs_after = view().string("LOCAL_CONFIG_DIR");
  if (!dirs_after) return Error{dirs_after.error()};
  if (*dirs_after != *dirs_before) {
    if (auto s = read_local_dirs(reader, view(), *host, files); !s) return Error{s.error()};
  }

  // _CARA_NAME=value in the environment, then the caller's overrides.
  for (const auto& [var, val] : host->environment()) {
    for (const char* prefix : {"_CARA_", "_cara_"}) {
      std::string_view v(var);
      if (v.starts_with(prefix) && is_macro_name(v.substr(6))) {
        macros.set(v.substr(6), val, Origin{"<environment " + var + ">", 0});
      }
    }
  }
  for (const auto& [name, val] : options.overrides) {
    if (!is_macro_name(name)) return Error{"'" + name + "' is not a valid configuration name"};
    macros.set(name, val, Origin{"<command line>", 0});
  }
  return Config(std::move(macros), options.who, host, reader.warnings(), std::move(files));
}

}  // namespace cara::config
