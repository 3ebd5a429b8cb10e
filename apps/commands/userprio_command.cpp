// cara userprio: the negotiator's accountant over TLS (condor_userprio);
// its options and tables are userprio_view.h's.
#include <ctime>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "apps/commands/userprio_view.h"
#include "model/classad/unparse.h"

namespace cara::apps {
namespace {

using namespace std::chrono_literals;

std::vector<classad::ClassAd> ads(std::vector<actors::WireAd>& wire) {
  std::vector<classad::ClassAd> out;
  for (actors::WireAd& w : wire) out.push_back(std::move(w.ad));
  return out;
}

// The node of the negotiator a -name names (it may run apart from the
// central manager, one of several sharding the pool), found by its
// Negotiator ad and joined: the node knows us while the result lives.
Result<net::Joined> named_negotiator(PoolClient& client, const std::string& name) {
  auto node =
      join_advertised(client, collector::AdType::Negotiator,
                      "Name == " + classad::unparse(classad::Value::string(name)), "negotiator " + name);
  if (!node) return Error{node.error()};
  if (!actors::daemon_in<actors::negotiator_actor>(node->daemons))
    return Error{"negotiator " + name + ": its node runs no negotiator now"};
  return node;
}

// One change, to the active negotiator: under high availability a standby
// says so, and the next central manager is asked; with -name, to that
// negotiator only. Empty when done, else why not.
std::string send_edit(PoolClient& client, caf::scoped_actor& self, const UserprioEdit& e,
                      const actors::negotiator_actor& named) {
  caf::actor_system& sys = client.system();
  const actors::UserprioCommand command{e.command, e.name, e.value, e.duration};
  std::string refusal = "no negotiator answered";
  // Whether `n` answered for good (done, or refused for a reason other
  // than standing by).
  auto ask = [&](const actors::negotiator_actor& n) {
    bool answered = false;
    self->request(n, 10s, command)
        .receive(
            [&](actors::CommandReply& r) {
              answered = r.ok || r.error.find("stands by") == std::string::npos;
              refusal = r.ok ? "" : r.error;
            },
            [&](caf::error& e) { refusal = "the negotiator did not answer: " + sys.render(e); });
    return answered;
  };
  if (named) {
    ask(named);
    return refusal;
  }
  for (const HostPort& cm : client.centrals()) {
    // Joined while asked: the node forgets us when `other` goes.
    auto other = client.join(cm);
    const auto n =
        other ? actors::daemon_in<actors::negotiator_actor>(other->daemons) : actors::negotiator_actor{};
    if (n && ask(n)) return refusal;
  }
  return refusal;
}

}  // namespace

int run_userprio(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kUserprioUsage, kExitOk);
  auto o = parse_userprio_options(args);
  if (!o) {
    err << "cara userprio: " << o.error() << "\n" << kUserprioUsage;
    return kExitUserError;
  }
  auto cfg = tool_config(o->config, "TOOL");
  if (!cfg) {
    err << "cara userprio: " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = kExitOk;
  auto client = PoolClient::open(*cfg, "userprio", err, rc, o->pool);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  actors::negotiator_actor named;
  std::optional<net::Joined> named_node;  // joined until the command ends
  if (o->name) {
    auto n = named_negotiator(*client, *o->name);
    if (!n) {
      err << "cara userprio: " << n.error() << "\n";
      return kExitUnreachable;
    }
    named_node = std::move(*n);
    named = actors::daemon_in<actors::negotiator_actor>(named_node->daemons);
  }
  const net::Joined* joined = &client->central();
  const auto negotiator = named ? named : actors::daemon_in<actors::negotiator_actor>(joined->daemons);
  if (!negotiator) {
    err << "cara userprio: the central manager (" << joined->peer.text()
        << ") runs no negotiator (several negotiators sharding the pool: name one with -name)\n";
    return kExitUnreachable;
  }
  caf::scoped_actor self{sys};
  AccountantView view;
  bool answered = false;
  self->request(negotiator, 10s, actors::UserprioQuery{})
      .receive(
          [&](actors::UserprioReply& r) {
            view = AccountantView{ads(r.records), ads(r.groups), ads(r.claims), r.last_update};
            answered = true;
          },
          [&](caf::error& e) {
            err << "cara userprio: the negotiator did not answer: " << sys.render(e) << "\n";
          });
  if (!answered) return kExitUnreachable;
  if (o->edits.empty()) {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    out << format_userprio(*o, view, static_cast<std::int64_t>(now),
                           static_cast<std::int32_t>(local.tm_gmtoff));
    return kExitOk;
  }
  // Every change is checked before the first is sent: a mistyped name
  // changes nothing.
  for (const UserprioEdit& e : o->edits) {
    auto target = check_edit_target(e, view);
    if (!target) {
      err << "cara userprio: -" << e.command << ": " << target.error() << "\n";
      return kExitUserError;
    }
    if (*target) err << "cara userprio: note: " << **target << "\n";
  }
  for (const UserprioEdit& e : o->edits) {
    if (std::string why = send_edit(*client, self, e, named); !why.empty()) {
      err << "cara userprio: -" << e.command << " " << e.name << ": " << why << "\n";
      return kExitUserError;
    }
    out << describe_edit(e) << "\n";
  }
  return kExitOk;
}

}  // namespace cara::apps
