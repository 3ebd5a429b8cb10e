// What the pool's command-line tools share: reading the configuration,
// their options, and the ways they reach a daemon (an administrative
// command answered with a CommandReply; the master of a named machine).
#pragma once

#include <caf/actor_system.hpp>
#include <caf/scoped_actor.hpp>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "actors/daemon_directory.h"
#include "actors/interfaces.h"
#include "apps/commands/arguments.h"
#include "apps/commands/pool_client.h"
#include "apps/commands/tool_options.h"
#include "model/classad/unparse.h"
#include "model/collector/ad_store.h"
#include "model/config/config.h"
#include "net/gate.h"

namespace cara::apps {

// The collector of the central manager the client joined, or why there is
// none.
Result<actors::collector_actor> central_collector(const PoolClient& client);

// The node whose `type` ads match `constraint` (a tool names a machine),
// found through the collector (the ads' MyAddress) and joined over TLS;
// `what` names it in messages.
Result<net::Joined> join_advertised(PoolClient& client, collector::AdType type, const std::string& constraint,
                                    const std::string& what);

// Sends an administrative command (answered with a CommandReply) and says
// what came of it: `done` on success, the daemon's reason otherwise.
template <class Handle, class Message>
int send_command(caf::actor_system& sys, const Handle& to, Message message, const std::string& tool,
                 const std::string& daemon, const std::string& done, std::ostream& out, std::ostream& err) {
  caf::scoped_actor self{sys};
  int rc = 0;
  self->request(to, std::chrono::seconds(10), std::move(message))
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

// condor_reconfig and condor_off: a command to the master of MACHINE (this
// machine by default, found by its Master ad), answered with a
// CommandReply; `done` words the success.
template <class Message>
int to_master(const char* tool, const char* usage, const std::vector<std::string>& args, Message message,
              const std::string& done, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << usage, 0);
  auto p = parse(args, {"config"}, tool, usage, err);
  if (!p) return kExitUserError;
  if (p->positional.size() > 1) {
    err << "cara " << tool << ": expected at most one machine name\n" << usage;
    return kExitUserError;
  }
  auto cfg = tool_config(option(*p, "config"), "TOOL");
  if (!cfg) {
    err << "cara " << tool << ": " << cfg.error() << "\n";
    return kExitUserError;
  }
  // Without a name: this machine.
  std::string machine;
  if (!p->positional.empty()) {
    machine = p->positional.front();
  } else if (auto host = cfg->string("FULL_HOSTNAME"); host && !host->empty()) {
    machine = *host;
  } else {
    err << "cara " << tool << ": no machine named and FULL_HOSTNAME is not set\n" << usage;
    return kExitUserError;
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
  self->request(master, std::chrono::seconds(30), std::move(message))
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

}  // namespace cara::apps
