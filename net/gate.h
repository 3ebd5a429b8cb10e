// A node's gate: the one actor a node publishes through CAF's middleman
// over TLS. A peer first proves who it is (GateHello, GateProof: a
// challenge signed with its pool certificate's key, checked against the
// pool CA), and the gate proves who this node is in return; then the gate
// hands out the node's daemons. The proven identities go to the node's
// Guard, which the daemons ask before acting for a remote sender.
#pragma once

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>
#include <chrono>
#include <map>
#include <memory>

#include "model/common/result.h"
#include "net/gate_messages.h"
#include "net/guard.h"
#include "net/pki.h"
#include "os/daemon_log.h"

namespace cara::net {

using gate_actor =
    caf::typed_actor<caf::replies_to<GateHello>::with<GateChallenge>,
                     caf::replies_to<GateProof>::with<GateWelcome>, caf::reacts_to<GateRegister>,
                     caf::replies_to<GateDirectoryQuery>::with<GateWelcome>>;

struct GateSetup {
  Credentials credentials;
  TrustAnchor anchor;
  std::shared_ptr<Guard> guard;
  std::shared_ptr<os::DaemonLog> log;
};

gate_actor spawn_gate(caf::actor_system& sys, GateSetup setup);

// The other side of the handshake, blocking (a node joining its central
// manager, a tool): connects to the gate at host:port over TLS, proves our
// identity, checks the gate's, records it in `guard` (may be null) and
// returns the peer's daemons by DAEMON_LIST name. Fails with a message
// naming the address when the connection, the TLS handshake (a foreign CA)
// or either proof fails, or nothing answers within `timeout`. `session` is
// what the peer's gate watches to know when we are gone (a node passes its
// gate); without one, join spawns one (Joined::session).
struct Joined {
  Identity peer;
  caf::node_id node;
  gate_actor gate;  // the peer's gate: GateDirectoryQuery asks it again
  // The session actor join spawned, if it did: the gate watches it for us.
  // It ends (and the peer forgets us) when the last copy of this goes,
  // which must be before the actor system.
  std::shared_ptr<const caf::actor> session;
  std::map<std::string, caf::actor> daemons;
};
Result<Joined> join(caf::actor_system& sys, const std::string& host, std::uint16_t port,
                    const Credentials& credentials, const TrustAnchor& anchor, Guard* guard,
                    std::chrono::milliseconds timeout, caf::actor session = {});

// Registers the gate's message types (every node and tool calls it).
void add_gate_message_types(caf::actor_system_config& cfg);

}  // namespace cara::net
