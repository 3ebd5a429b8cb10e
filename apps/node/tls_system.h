// The actor-system configuration every networked process shares — a
// `cara master` node and a tool that talks to one over TLS: the middleman
// with CAF's openssl module and the pool certificate, the scheduler suited
// to 2 cores (STACK-NOTES.md), CAF's own log off, and every message type of
// the daemons and the gate registered.
#pragma once

#include <caf/fwd.hpp>
#include <string>

#include "model/common/result.h"

namespace cara::apps {

// Seconds between the middleman's heartbeats of a process that does not
// say otherwise (a node reads NODE_HEARTBEAT_INTERVAL). A central manager
// drops a connection that stays silent for its NODE_CONNECTION_TIMEOUT
// (STACK-NOTES.md: failures are detected, never waited out), and the peer's
// proven identity goes with it: a tool or an emulated execution point that
// holds a session while it has nothing to say must still beat.
inline constexpr double kHeartbeatInterval = 0.25;

struct TlsFiles {
  std::string certificate, key, ca;
};

// Heartbeats every kHeartbeatInterval; a node sets its own after.
Status configure_tls_system(caf::actor_system_config& cfg, const TlsFiles& files);

}  // namespace cara::apps
