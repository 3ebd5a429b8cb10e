#include "apps/commands/tool_support.h"

#include "apps/commands/arguments.h"
#include "apps/node/node_plan.h"
#include "model/classad/eval.h"
#include "os/system_host.h"

namespace cara::apps {

using namespace std::chrono_literals;

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

std::optional<std::string> option(const Parsed& p, const std::string& name) {
  auto it = p.options.find(name);
  if (it == p.options.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> attribute_list(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text + ",") {
    if (c == ',' || c == ' ') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  return out;
}

std::string autoformat(const classad::ClassAd& ad, const std::vector<std::string>& attrs) {
  std::string line;
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    classad::Value v = classad::evaluate_attr(ad, attrs[i]);
    if (i) line += ' ';
    line += v.is_string() ? std::string(v.as_string()) : classad::unparse(v);
  }
  return line;
}

Result<net::Joined> join_advertised(PoolClient& client, collector::AdType type, const std::string& constraint,
                                    const std::string& what) {
  caf::actor_system& sys = client.system();
  const auto collector = actors::daemon_in<actors::collector_actor>(client.central().daemons);
  if (!collector)
    return Error{"the central manager (" + client.central().peer.text() + ") runs no collector"};
  std::string address, error;
  {
    caf::scoped_actor self{sys};
    self->request(collector, 10s,
                  actors::AdQueryRequest{static_cast<std::int32_t>(type), constraint, {"MyAddress"}, false})
        .receive(
            [&](actors::AdQueryReply& r) {
              if (!r.ok) error = r.error;
              for (const actors::WireAd& a : r.ads)
                if (classad::Value v = classad::evaluate_attr(a.ad, "MyAddress"); v.is_string())
                  address = std::string(v.as_string());
            },
            [&](caf::error& e) { error = "the collector did not answer: " + sys.render(e); });
  }
  if (address.empty()) return Error{error.empty() ? "no " + what + " in the collector" : error};
  auto where = parse_host_port(address, "MyAddress");
  if (!where) return Error{what + ": " + where.error()};
  return client.join(*where);
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
