// The node side of actors/introducer.h: a detached actor (net::join
// blocks) that joins other nodes' gates for this node's daemons, with the
// node's certificate, CA and guard, the node's gate as the session the
// peers watch.
#pragma once

#include <caf/fwd.hpp>
#include <memory>

#include "actors/introducer.h"
#include "net/gate.h"
#include "os/daemon_log.h"

namespace cara::apps {

actors::introducer_actor spawn_introducer(caf::actor_system& sys, const net::Credentials& creds,
                                          const net::TrustAnchor& anchor, std::shared_ptr<net::Guard> guard,
                                          std::shared_ptr<os::DaemonLog> log, caf::actor session);

}  // namespace cara::apps
