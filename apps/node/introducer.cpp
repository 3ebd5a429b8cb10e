#include "apps/node/introducer.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>
#include <chrono>

#include "net/address.h"

namespace cara::apps {
namespace {

struct Parts {
  const net::Credentials& creds;
  const net::TrustAnchor& anchor;
  std::shared_ptr<net::Guard> guard;
  std::shared_ptr<os::DaemonLog> log;
  caf::actor session;
};

actors::introducer_actor::behavior_type introducer(actors::introducer_actor::pointer self,
                                                   std::shared_ptr<const Parts> p) {
  return {
      [self, p](actors::JoinNodes& j) {
        actors::NodesJoined out;
        for (const std::string& address : j.addresses) {
          auto where = net::parse_host_port(address, "MyAddress");
          if (!where) {
            out.failures.push_back(where.error());
            continue;
          }
          auto joined = net::join(self->system(), where->host, where->port, p->creds, p->anchor,
                                  p->guard.get(), std::chrono::seconds(10), p->session);
          if (!joined) {
            out.failures.push_back("cannot join " + address + ": " + joined.error());
            continue;
          }
          p->log->info("joined " + address + " (" + joined->peer.text() + ") for this node's daemons");
          ++out.joined;
        }
        return out;
      },
  };
}

}  // namespace

actors::introducer_actor spawn_introducer(caf::actor_system& sys, const net::Credentials& creds,
                                          const net::TrustAnchor& anchor, std::shared_ptr<net::Guard> guard,
                                          std::shared_ptr<os::DaemonLog> log, caf::actor session) {
  // A join waits for the peer's proof, so it runs on a thread of its own.
  auto parts = std::make_shared<const Parts>(
      Parts{creds, anchor, std::move(guard), std::move(log), std::move(session)});
  return sys.spawn<caf::detached>(introducer, std::move(parts));
}

}  // namespace cara::apps
