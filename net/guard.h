// A node's guard: which remote node proved which identity (through the
// gate), and whether a message's sender may act at a permission level.
// Daemons ask it on every handler a remote peer can reach; a refusal is
// logged with the peer. A message from this node's own process is trusted
// (the local front ends check their callers themselves); a message without
// a sender, or from a node that never proved who it is, is refused.
#pragma once

#include <caf/fwd.hpp>
#include <caf/node_id.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "net/authorization.h"
#include "os/daemon_log.h"

namespace cara::net {

class Guard {
 public:
  Guard(Authorization authorization, std::shared_ptr<os::DaemonLog> log)
      : authorization_(std::make_shared<const Authorization>(std::move(authorization))),
        log_(std::move(log)) {}

  // Records that `node` proved `who`.
  void admit(const caf::node_id& node, Identity who);
  // Forgets `node` (its connection is gone).
  void forget(const caf::node_id& node);
  std::optional<Identity> identity(const caf::node_id& node) const;

  // nullopt when `sender` may act at level `p` on this node's `daemon`;
  // otherwise the reason, which is also logged: in `log` (the daemon's
  // own), else in the guard's.
  std::optional<std::string> refuse(Permission p, const caf::strong_actor_ptr& sender,
                                    const caf::node_id& local, std::string_view daemon,
                                    os::DaemonLog* log = nullptr) const;
  // The same for an identity proven some other way (a local socket's peer
  // credentials).
  std::optional<std::string> refuse(Permission p, const Identity& who, std::string_view daemon) const;

  // The rules in force; a reconfiguration replaces them (condor_reconfig
  // applies new ALLOW_*/DENY_* lists without a restart).
  std::shared_ptr<const Authorization> authorization() const;
  void set_authorization(Authorization authorization);

 private:
  std::shared_ptr<const Authorization> authorization_;  // guarded by mutex_
  std::shared_ptr<os::DaemonLog> log_;
  mutable std::mutex mutex_;
  std::map<caf::node_id, Identity> peers_;
};

// Whether the message an actor handles was sent from its own node (an
// anonymous message could come from anywhere): only such a sender may
// rewire a daemon (its collectors, view hosts, a gate's directory).
template <class Self>
bool from_this_node(Self* self) {
  auto sender = self->current_sender();
  return sender && sender->node() == self->system().node();
}

// For an actor: the refusal for the message being handled, or nullopt,
// logged in `log` when given. A null guard allows everything (an embedded
// pool).
template <class Self>
std::optional<std::string> refused(Self* self, const std::shared_ptr<const Guard>& guard, Permission p,
                                   std::string_view daemon, os::DaemonLog* log = nullptr) {
  if (!guard) return std::nullopt;
  return guard->refuse(p, self->current_sender(), self->system().node(), daemon, log);
}

}  // namespace cara::net
