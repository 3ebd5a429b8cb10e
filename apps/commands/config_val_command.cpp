#include "apps/commands/config_val_command.h"

#include <ostream>

#include "apps/commands/arguments.h"
#include "apps/commands/tool_options.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/config/expander.h"
#include "model/config/macro_set.h"
#include "model/config/templates.h"

namespace cara::apps {
namespace {

struct Options {
  config::LoadOptions load;
  bool verbose = false;
  bool dump = false;
  std::vector<std::string> names;
};

constexpr const char* kUsage =
    "usage: cara config-val [--config FILE] [--subsystem NAME] [--local-name NAME] [--verbose] NAME ...\n"
    "       cara config-val [--config FILE] --dump [--verbose]\n"
    "       cara config-val use CATEGORY:TEMPLATE\n";

int show_template(const std::string& spec, std::ostream& out, std::ostream& err) {
  auto colon = spec.find(':');
  if (colon == std::string::npos) {
    err << "cara config-val: expected 'use CATEGORY:TEMPLATE', got '" << spec << "'\n";
    return kExitUserError;
  }
  std::string category = spec.substr(0, colon), name = spec.substr(colon + 1);
  std::vector<std::string> args;
  if (auto open = name.find('('); open != std::string::npos && name.back() == ')') {
    args = config::split_arguments(std::string_view(name).substr(open + 1, name.size() - open - 2));
    name = name.substr(0, open);
  }
  auto text = config::template_text(config::trim(category), config::trim(name), args);
  if (!text) {
    err << "cara config-val: " << text.error() << "\n";
    return kExitUserError;
  }
  out << "use " << spec << " sets:\n" << *text;
  return 0;
}

}  // namespace

int run_config_val(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   std::shared_ptr<config::ConfigHost> host) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* what) -> const std::string* {
      if (i + 1 >= args.size()) {
        err << "cara config-val: " << a << " expects " << what << "\n" << kUsage;
        return nullptr;
      }
      return &args[++i];
    };
    if (is_flag(a, "config")) {
      const std::string* v = value("a file");
      if (!v) return kExitUserError;
      o.load.config_file = *v;
    } else if (is_flag(a, "subsystem")) {
      const std::string* v = value("a subsystem name");
      if (!v) return kExitUserError;
      o.load.who.subsystem = config::canonical_name(*v);
    } else if (is_flag(a, "local-name")) {
      const std::string* v = value("a local name");
      if (!v) return kExitUserError;
      o.load.who.local_name = *v;
    } else if (is_flag(a, "verbose") || a == "-v") {
      o.verbose = true;
    } else if (is_flag(a, "dump")) {
      o.dump = true;
    } else if (is_flag(a, "help") || a == "-h") {
      out << kUsage;
      return 0;
    } else if (a == "use") {
      if (i + 1 >= args.size()) {
        err << "cara config-val: 'use' expects CATEGORY:TEMPLATE\n";
        return kExitUserError;
      }
      return show_template(args[i + 1], out, err);
    } else if (!a.empty() && a[0] == '-') {
      err << "cara config-val: unknown option " << a << "\n" << kUsage;
      return kExitUserError;
    } else {
      o.names.push_back(a);
    }
  }
  if (!o.dump && o.names.empty()) {
    err << "cara config-val: expected a NAME, --dump or use CATEGORY:TEMPLATE\n" << kUsage;
    return kExitUserError;
  }
  auto cfg = config::load_config(o.load, host);
  if (!cfg) {
    err << "cara config-val: " << cfg.error() << "\n";
    return kExitUserError;
  }
  if (o.verbose) {
    for (const std::string& w : cfg->warnings()) err << "warning: " << w << "\n";
  }
  if (o.dump) {
    for (const config::Definition* d : cfg->macros().all()) {
      out << d->name << " = " << d->value << "\n";
      if (o.verbose) out << " # at: " << d->origin.describe() << "\n";
    }
    return 0;
  }
  int status = 0;
  for (const std::string& name : o.names) {
    if (!config::is_macro_name(name)) {
      err << "cara config-val: '" << name << "' is not a configuration name\n";
      status = 2;
      continue;
    }
    auto v = cfg->value(name);
    if (!v) {
      err << "cara config-val: " << v.error() << "\n";
      status = 2;
      continue;
    }
    if (!v->has_value()) {
      err << "Not defined: " << name << "\n";
      if (status == 0) status = 1;
      continue;
    }
    if (o.verbose) {
      const config::Definition* d = cfg->definition(name);
      out << name << " = " << config::trim(**v) << "\n";
      out << " # at: " << d->origin.describe() << "\n";
      out << " # raw: " << d->value << "\n";
    } else {
      out << config::trim(**v) << "\n";
    }
  }
  return status;
}

}  // namespace cara::apps
