#include "apps/commands/tool_options.h"

#include "apps/commands/ad_output.h"
#include "apps/commands/arguments.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/common/text.h"
#include "os/system_host.h"

namespace cara::apps {

// Reads the configuration the way every tool does; `--config FILE` wins.
Result<config::Config> tool_config(const std::optional<std::string>& file, const char* who) {
  config::LoadOptions load;
  load.config_file = file;
  load.who = {who, ""};
  auto host = std::make_shared<os::SystemHost>();
  auto cfg = config::load_config(load, host);
  if (!cfg && !file) return config::config_from_text("", load.who, host);
  return cfg;
}

std::optional<Parsed> parse(const std::vector<std::string>& args, const std::vector<std::string>& with_value,
                            const char* command, const char* usage, std::ostream& err) {
  Parsed p;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() > 1 && a[0] == '-') {
      bool known = false;
      for (const std::string& name : with_value) {
        if (!is_flag(a, name.c_str())) continue;
        if (i + 1 >= args.size()) {
          err << "cara " << command << ": " << a << " expects a value\n" << usage;
          return std::nullopt;
        }
        p.options[name] = args[++i];
        known = true;
      }
      if (!known) {
        err << "cara " << command << ": unknown option " << a << "\n" << usage;
        return std::nullopt;
      }
    } else {
      p.positional.push_back(a);
    }
  }
  return p;
}

Result<std::string> option_value(const std::vector<std::string>& args, std::size_t& i, const char* what) {
  if (i + 1 >= args.size()) return Error{args[i] + " expects " + what};
  return args[++i];
}

Result<bool> SharedOptions::take(const std::vector<std::string>& args, std::size_t& i) const {
  if (output) {
    auto taken = output->take(args, i);
    if (!taken || *taken) return taken;
  }
  const std::string& a = args[i];
  if (config && is_flag(a, "config")) {
    auto v = option_value(args, i, "a configuration file");
    if (!v) return Error{v.error()};
    *config = *v;
    return true;
  }
  if (name && is_flag(a, "name")) {
    auto v = option_value(args, i, "a schedd's name");
    if (!v) return Error{v.error()};
    *name = *v;
    return true;
  }
  if (pool && is_flag(a, "pool")) {
    auto v = option_value(args, i, "a central manager, HOST[:PORT]");
    if (!v) return Error{v.error()};
    *pool = *v;
    return true;
  }
  if (constraint && is_flag(a, "constraint")) {
    auto v = option_value(args, i, "a ClassAd expression");
    if (!v) return Error{v.error()};
    if (auto e = classad::parse_expression(*v); !e) return Error{"-constraint: " + e.error()};
    *constraint = *v;
    return true;
  }
  return false;
}

std::optional<std::string> option(const Parsed& p, const std::string& name) {
  auto it = p.options.find(name);
  if (it == p.options.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> attribute_list(const std::string& text) {
  return split_list(text);
}

std::string autoformat_value(const classad::ClassAd& ad, std::string_view attr) {
  classad::Value v = classad::evaluate_attr(ad, attr);
  return v.is_string() ? std::string(v.as_string()) : classad::unparse(v);
}

std::string autoformat(const classad::ClassAd& ad, const std::vector<std::string>& attrs) {
  std::string line;
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    if (i) line += ' ';
    line += autoformat_value(ad, attrs[i]);
  }
  return line;
}

std::optional<ToolStart> options_only(const std::vector<std::string>& args,
                                      const std::vector<std::string>& with_value, const char* command,
                                      const char* usage, const char* who, std::ostream& err) {
  auto p = parse(args, with_value, command, usage, err);
  if (!p) return std::nullopt;
  if (!p->positional.empty()) {
    err << "cara " << command << ": unexpected argument " << p->positional.front() << "\n" << usage;
    return std::nullopt;
  }
  auto cfg = tool_config(option(*p, "config"), who);
  if (!cfg) {
    err << "cara " << command << ": " << cfg.error() << "\n";
    return std::nullopt;
  }
  return ToolStart{std::move(*p), std::move(*cfg)};
}

}  // namespace cara::apps
