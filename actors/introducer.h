// A node's introductions: a daemon that must message daemons on nodes
// that never joined its own (a negotiator on a node of its own, sharding
// the pool: central-manager-configuration, "Running Multiple Negotiators
// in One Pool") asks its node to join their gates first. Joining is the
// handshake of net/gate.h: both nodes then know the other's proven
// identity, which every daemon's guard asks before it acts for a remote
// sender. Nodes join only their central managers on their own, so a
// central manager's negotiator never needs this.
#pragma once

#include <caf/meta/type_name.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace cara::actors {

// The nodes' addresses, "<host:port>" as their ads' MyAddress has them.
struct JoinNodes {
  std::vector<std::string> addresses;
};
template <class I>
typename I::result_type inspect(I& f, JoinNodes& x) {
  return f(caf::meta::type_name("JoinNodes"), x.addresses);
}

// How many were joined, and why each other one was not.
struct NodesJoined {
  std::int32_t joined = 0;
  std::vector<std::string> failures;
};
template <class I>
typename I::result_type inspect(I& f, NodesJoined& x) {
  return f(caf::meta::type_name("NodesJoined"), x.joined, x.failures);
}

using introducer_actor = caf::typed_actor<caf::replies_to<JoinNodes>::with<NodesJoined>>;

}  // namespace cara::actors
