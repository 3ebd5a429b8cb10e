#include "apps/commands/node_commands.h"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "actors/daemon_directory.h"
#include "actors/interfaces.h"
#include "actors/master.h"
#include "apps/commands/arguments.h"
#include "apps/commands/pool_client.h"
#include "apps/node/node.h"
#include "apps/node/node_plan.h"
#include "apps/node/tls_system.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/collector/ad_store.h"
#include "model/config/config.h"
#include "net/gate.h"
#include "net/local_socket.h"
#include "net/pki.h"
#include "os/system_host.h"

namespace cara::apps {
namespace {

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

// "--name VALUE" pairs and positionals, with a message naming a bad option.
struct Parsed {
  std::map<std::string, std::string> options;
  std::vector<std::string> positional;
};
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

constexpr const char* kMasterUsage = "usage: cara master [--config FILE]\n";
constexpr const char* kKeygenUsage =
    "usage: cara keygen ca DIR [--name NAME] [--days N]\n"
    "       cara keygen cert CA_DIR OUT --host HOST [--user NAME@DOMAIN] [--days N]\n";
constexpr const char* kQUsage = "usage: cara q [--config FILE] [-constraint EXPR] [-af ATTR,ATTR...]\n";
constexpr const char* kUserprioUsage = "usage: cara userprio [--config FILE] [-setfactor NAME FACTOR]\n";
constexpr const char* kReconfigUsage = "usage: cara reconfig [--config FILE] [MACHINE]\n";
constexpr const char* kOffUsage = "usage: cara off [--config FILE] [-graceful|-fast] [MACHINE]\n";
constexpr const char* kDrainUsage =
    "usage: cara drain [--config FILE] [-graceful|-quick|-fast|-cancel] MACHINE\n";

const char* status_letter(std::int64_t s) {
  switch (s) {
    case 1: return "I";
    case 2: return "R";
    case 3: return "X";
    case 4: return "C";
    case 5: return "H";
    case 7: return "S";
    default: return "?";
  }
}

// Sends an administrative command (answered with a CommandReply) and says
// what came of it: `done` on success, the daemon's reason otherwise.
template <class Handle, class Message>
int send_command(caf::actor_system& sys, const Handle& to, Message message, const std::string& tool,
                 const std::string& daemon, const std::string& done, std::ostream& out, std::ostream& err) {
  caf::scoped_actor self{sys};
  int rc = 0;
  self->request(to, 10s, std::move(message))
      .receive(
          [&](actors::CommandReply& r) {
            if (r.ok) {
              out << done << "\n";
            } else {
              err << "cara " << tool << ": " << r.error << "\n";
              rc = 1;
            }
          },
          [&](caf::error& e) {
            err << "cara " << tool << ": the " << daemon << " did not answer: " << sys.render(e) << "\n";
            rc = 1;
          });
  return rc;
}

// The node whose `type` ads match `constraint` (a tool names a machine),
// found through the collector (the ads' MyAddress) and joined over TLS;
// `what` names it in messages.
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

}  // namespace

int run_master(const std::vector<std::string>& args, std::ostream&, std::ostream& err) {
  auto p = parse(args, {"config"}, "master", kMasterUsage, err);
  if (!p) return 2;
  if (!p->positional.empty()) {
    err << "cara master: unexpected argument " << p->positional.front() << "\n" << kMasterUsage;
    return 2;
  }
  auto cfg = tool_config(option(*p, "config"), "MASTER");
  if (!cfg) {
    err << "cara master: " << cfg.error() << "\n";
    return 2;
  }
  const auto file = option(*p, "config");
  return run_node(
      std::make_shared<const config::Config>(std::move(*cfg)), [file] { return tool_config(file, "MASTER"); },
      err);
}

int run_keygen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto p = parse(args, {"name", "days", "host", "user"}, "keygen", kKeygenUsage, err);
  if (!p) return 2;
  int days = 825;
  if (auto d = option(*p, "days")) {
    try {
      days = std::stoi(*d);
    } catch (...) {
      days = 0;
    }
    if (days <= 0) {
      err << "cara keygen: --days expects a positive number of days, not '" << *d << "'\n";
      return 2;
    }
  }
  const auto& pos = p->positional;
  if (pos.size() == 2 && pos[0] == "ca") {
    auto s = net::create_ca(pos[1], option(*p, "name").value_or("caracara pool CA"), days);
    if (!s) {
      err << "cara keygen: " << s.error() << "\n";
      return 1;
    }
    out << "pool CA written to " << pos[1] << "/ca.pem (key: " << pos[1] << "/ca.key)\n";
    return 0;
  }
  if (pos.size() == 3 && pos[0] == "cert") {
    auto host = option(*p, "host");
    if (!host) {
      err << "cara keygen: cert expects --host HOST\n" << kKeygenUsage;
      return 2;
    }
    net::CertificateSpec spec{*host, option(*p, "user").value_or("condor@" + *host), days};
    auto s = net::issue_certificate(pos[1], pos[2], spec);
    if (!s) {
      err << "cara keygen: " << s.error() << "\n";
      return 1;
    }
    out << "certificate for " << spec.user << "/" << spec.host << " written to " << pos[2]
        << ".pem (key: " << pos[2] << ".key)\n";
    return 0;
  }
  err << kKeygenUsage;
  return 2;
}

int run_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  auto p = parse(args, {"config", "constraint", "af"}, "q", kQUsage, err);
  if (!p) return 2;
  if (!p->positional.empty()) {
    err << "cara q: unexpected argument " << p->positional.front() << "\n" << kQUsage;
    return 2;
  }
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara q: " << cfg.error() << "\n";
    return 2;
  }
  const std::string constraint = option(*p, "constraint").value_or("");
  if (!constraint.empty()) {
    if (auto e = classad::parse_expression(constraint); !e) {
      err << "cara q: -constraint: " << e.error() << "\n";
      return 2;
    }
  }
  std::vector<std::string> af;
  if (auto a = option(*p, "af")) {
    std::string item;
    for (char c : *a + ",") {
      if (c == ',' || c == ' ') {
        if (!item.empty()) af.push_back(item);
        item.clear();
      } else {
        item += c;
      }
    }
  }
  auto socket = cfg->string("SCHEDD_SOCKET");
  if (!socket) {
    err << "cara q: " << socket.error() << "\n";
    return 2;
  }
  auto reply = net::local_call(*socket, {{"command", "q"}, {"constraint", constraint}}, 30s);
  if (!reply) {
    err << "cara q: " << reply.error() << "\n";
    return 2;
  }
  if (!reply->value("ok", false)) {
    err << "cara q: " << reply->value("error", "") << "\n";
    return 1;
  }
  if (af.empty())
    out << std::left << std::setw(10) << "ID" << std::setw(14) << "OWNER" << std::setw(4) << "ST"
        << "CMD\n";
  std::size_t n = 0;
  for (const std::string& text : reply->value("jobs", std::vector<std::string>{})) {
    auto ad = classad::parse_classad(text);
    if (!ad) continue;
    ++n;
    auto get = [&](const char* a) { return classad::evaluate_attr(*ad, a); };
    if (!af.empty()) {
      for (std::size_t i = 0; i < af.size(); ++i) {
        classad::Value v = get(af[i].c_str());
        out << (i ? " " : "") << (v.is_string() ? std::string(v.as_string()) : classad::unparse(v));
      }
      out << "\n";
      continue;
    }
    classad::Value c = get("ClusterId"), pr = get("ProcId"), o = get("Owner"), s = get("JobStatus"),
                   cmd = get("Cmd");
    const std::string id = (c.is_int() ? std::to_string(c.as_int()) : "?") + "." +
                           (pr.is_int() ? std::to_string(pr.as_int()) : "?");
    out << std::left << std::setw(10) << id << std::setw(14)
        << (o.is_string() ? std::string(o.as_string()) : "?") << std::setw(4)
        << (s.is_int() ? status_letter(s.as_int()) : "?")
        << (cmd.is_string() ? std::string(cmd.as_string()) : "") << "\n";
  }
  if (af.empty()) out << n << " jobs\n";
  return 0;
}

int run_userprio(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> rest;
  std::optional<std::pair<std::string, std::string>> setfactor;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (is_flag(args[i], "setfactor")) {
      if (i + 2 >= args.size()) {
        err << "cara userprio: -setfactor expects a submitter name and a factor\n" << kUserprioUsage;
        return 2;
      }
      setfactor = std::pair{args[i + 1], args[i + 2]};
      i += 2;
    } else {
      rest.push_back(args[i]);
    }
  }
  auto p = parse(rest, {"config"}, "userprio", kUserprioUsage, err);
  if (!p) return 2;
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara userprio: " << cfg.error() << "\n";
    return 2;
  }
  double factor = 0;
  if (setfactor) {
    try {
      std::size_t used = 0;
      factor = std::stod(setfactor->second, &used);
      if (used != setfactor->second.size()) throw std::invalid_argument("trailing");
    } catch (...) {
      err << "cara userprio: -setfactor expects a number, not '" << setfactor->second << "'\n";
      return 2;
    }
  }
  int rc = 0;
  auto client = PoolClient::open(*cfg, "userprio", err, rc);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  const net::Joined* joined = &client->central();
  const auto negotiator = actors::daemon_in<actors::negotiator_actor>(joined->daemons);
  if (!negotiator) {
    err << "cara userprio: the central manager (" << joined->peer.text() << ") runs no negotiator\n";
    return 1;
  }
  caf::scoped_actor self{sys};
  if (setfactor) {
    std::ostringstream done;
    done << "The priority factor of " << setfactor->first << " was set to " << factor;
    return send_command(sys, negotiator, actors::UserprioCommand{"setfactor", setfactor->first, factor, 0},
                        "userprio", "negotiator", done.str(), out, err);
  }
  self->request(negotiator, 10s, actors::UserprioQuery{})
      .receive(
          [&](actors::UserprioReply& r) {
            out << std::left << std::setw(40) << "Name" << std::setw(16) << "Priority"
                << "Factor\n";
            for (const actors::WireAd& a : r.records) {
              classad::Value n = classad::evaluate_attr(a.ad, "Name"),
                             pr = classad::evaluate_attr(a.ad, "Priority"),
                             f = classad::evaluate_attr(a.ad, "PriorityFactor");
              out << std::setw(40) << (n.is_string() ? std::string(n.as_string()) : "?") << std::setw(16)
                  << classad::unparse(pr) << classad::unparse(f) << "\n";
            }
            if (r.groups.empty()) return;
            // Each group's own report (condor_userprio -quotas).
            out << "\n"
                << std::setw(28) << "Group" << std::setw(14) << "ConfigQuota" << std::setw(16)
                << "EffectiveQuota" << std::setw(11) << "Requested" << std::setw(11) << "Allocated"
                << std::setw(7) << "InUse"
                << "Turn\n";
            for (const actors::WireAd& a : r.groups) {
              auto text = [&](const char* attr) {
                classad::Value v = classad::evaluate_attr(a.ad, attr);
                return v.is_string() ? std::string(v.as_string()) : classad::unparse(v);
              };
              out << std::setw(28) << text("Name") << std::setw(14) << text("ConfigQuota") << std::setw(16)
                  << text("EffectiveQuota") << std::setw(11) << text("Requested") << std::setw(11)
                  << text("GroupResourcesAllocated") << std::setw(7) << text("GroupResourcesInUse")
                  << text("NegotiationTurn") << "\n";
            }
          },
          [&](caf::error& e) {
            err << "cara userprio: the negotiator did not answer: " << sys.render(e) << "\n";
            rc = 1;
          });
  return rc;
}

int run_drain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> rest;
  std::int32_t how = 0;
  bool cancel = false;
  for (const std::string& a : args) {
    if (is_flag(a, "graceful"))
      how = 0;
    else if (is_flag(a, "quick"))
      how = 1;
    else if (is_flag(a, "fast"))
      how = 2;
    else if (is_flag(a, "cancel"))
      cancel = true;
    else
      rest.push_back(a);
  }
  auto p = parse(rest, {"config"}, "drain", kDrainUsage, err);
  if (!p) return 2;
  if (p->positional.size() != 1) {
    err << "cara drain: expected one machine name\n" << kDrainUsage;
    return 2;
  }
  const std::string machine = p->positional.front();
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara drain: " << cfg.error() << "\n";
    return 2;
  }
  int rc = 0;
  auto client = PoolClient::open(*cfg, "drain", err, rc);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  auto node = join_advertised(*client, collector::AdType::Machine,
                              "Machine == " + classad::unparse(classad::Value::string(machine)),
                              "execution point " + machine);
  if (!node) {
    err << "cara drain: " << node.error() << "\n";
    return 1;
  }
  const auto startd = actors::daemon_in<actors::startd_actor>(node->daemons);
  if (!startd) {
    err << "cara drain: " << machine << " runs no startd\n";
    return 1;
  }
  return send_command(sys, startd, actors::DrainRequest{how, cancel}, "drain", "startd",
                      (cancel ? "Sent request to cancel draining on " : "Sent request to drain ") + machine,
                      out, err);
}

namespace {

// condor_reconfig and condor_off: a command to the master of MACHINE (this
// machine by default, found by its Master ad), answered with a
// CommandReply; `done` words the success.
template <class Message>
int to_master(const char* tool, const char* usage, const std::vector<std::string>& args, Message message,
              const std::string& done, std::ostream& out, std::ostream& err) {
  auto p = parse(args, {"config"}, tool, usage, err);
  if (!p) return 2;
  if (p->positional.size() > 1) {
    err << "cara " << tool << ": expected at most one machine name\n" << usage;
    return 2;
  }
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara " << tool << ": " << cfg.error() << "\n";
    return 2;
  }
  // Without a name: this machine.
  std::string machine;
  if (!p->positional.empty()) {
    machine = p->positional.front();
  } else if (auto host = cfg->string("FULL_HOSTNAME"); host && !host->empty()) {
    machine = *host;
  } else {
    err << "cara " << tool << ": no machine named and FULL_HOSTNAME is not set\n" << usage;
    return 2;
  }
  int rc = 0;
  auto client = PoolClient::open(*cfg, tool, err, rc);
  if (!client) return rc;
  auto node =
      join_advertised(*client, collector::AdType::Master,
                      "Name == " + classad::unparse(classad::Value::string(machine)), "master " + machine);
  if (!node) {
    err << "cara " << tool << ": " << node.error() << "\n";
    return 1;
  }
  const auto master = actors::daemon_in<actors::master_actor>(node->daemons);
  if (!master) {
    err << "cara " << tool << ": " << machine << " runs no master\n";
    return 1;
  }
  caf::actor_system& sys = client->system();
  caf::scoped_actor self{sys};
  self->request(master, 30s, std::move(message))
      .receive(
          [&](actors::CommandReply& r) {
            if (r.ok) {
              out << "Sent " << done << " to " << machine << ": " << r.error << "\n";
            } else {
              err << "cara " << tool << ": " << machine << ": " << r.error << "\n";
              rc = 1;
            }
          },
          [&](caf::error& e) {
            err << "cara " << tool << ": the master of " << machine << " did not answer: " << sys.render(e)
                << "\n";
            rc = 1;
          });
  return rc;
}

}  // namespace

int run_reconfig(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  return to_master("reconfig", kReconfigUsage, args, actors::ReconfigRequest{}, "reconfig", out, err);
}

int run_off(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::vector<std::string> rest;
  bool fast = false;
  for (const std::string& a : args) {
    if (is_flag(a, "graceful"))
      fast = false;
    else if (is_flag(a, "fast"))
      fast = true;
    else
      rest.push_back(a);
  }
  return to_master("off", kOffUsage, rest, actors::OffRequest{fast}, "off", out, err);
}

}  // namespace cara::apps
