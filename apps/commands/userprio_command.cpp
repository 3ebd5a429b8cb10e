// cara userprio: the negotiator's accountant over TLS (condor_userprio).
#include <iomanip>
#include <sstream>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_support.h"
#include "model/classad/eval.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

constexpr const char* kUserprioUsage = "usage: cara userprio [--config FILE] [-setfactor NAME FACTOR]\n";

}  // namespace

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
    const actors::UserprioCommand command{"setfactor", setfactor->first, factor, 0};
    // Under high availability only the active negotiator takes changes:
    // a standby says so, and the next central manager is asked.
    std::string refusal;
    for (const HostPort& cm : client->centrals()) {
      auto other = client->join(cm);
      const auto n =
          other ? actors::daemon_in<actors::negotiator_actor>(other->daemons) : actors::negotiator_actor{};
      if (!n) continue;
      bool answered = false;
      self->request(n, 10s, command)
          .receive(
              [&](actors::CommandReply& r) {
                answered = r.ok || r.error.find("stands by") == std::string::npos;
                refusal = r.ok ? "" : r.error;
              },
              [&](caf::error& e) { refusal = "the negotiator did not answer: " + sys.render(e); });
      if (!answered) continue;
      if (!refusal.empty()) {
        err << "cara userprio: " << refusal << "\n";
        return 1;
      }
      out << done.str() << "\n";
      return 0;
    }
    err << "cara userprio: " << (refusal.empty() ? "no negotiator answered" : refusal) << "\n";
    return 1;
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
              // A space after each column, however long the value: the
              // table is read by scripts too.
              out << std::setw(39) << (n.is_string() ? std::string(n.as_string()) : "?") << ' '
                  << std::setw(15) << classad::unparse(pr) << ' ' << classad::unparse(f) << "\n";
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

}  // namespace cara::apps
