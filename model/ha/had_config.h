// The high-availability knobs of a central manager (central-manager-
// configuration, "High Availability of the Central Manager" and its sample
// configuration), read once here. In caracara every daemon of a node
// shares the node's port, so HAD_LIST names the central managers' nodes as
// host[:port], like COLLECTOR_HOST (port 9618 by default), in the same
// order as CONDOR_HOST; REPLICATION_LIST is accepted for HTCondor's
// configuration files, and replication runs over the same links.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::ha {

struct HadMember {
  std::string host;
  std::uint16_t port = 9618;
  bool port_given = false;
  std::string text() const { return host + ":" + std::to_string(port); }
};

// How long a node waits for a remote node's gate to answer, or to join it
// (apps/node/daemon_watch.cpp): a central manager that restarted is
// reached again by the others within HAD_CONNECTION_TIMEOUT (their watch's
// cadence) plus twice this: a question to its old gate, or a join, in
// flight as it came back and left unanswered while it started, then the
// join that reaches it.
inline constexpr std::int64_t kJoinTimeoutMs = 2000;

// The error of a HAD (or its negotiator) on a node whose HAD_LIST is empty.
inline constexpr const char* kEmptyHadList =
    "HAD: HAD_LIST is empty: it lists the central managers, this one among them";

struct HadConfig {
  std::vector<HadMember> members;  // HAD_LIST, in order: the first is the primary
  bool use_primary = false;        // HAD_USE_PRIMARY
  // HAD_CONNECTION_TIMEOUT, in milliseconds (HTCondor takes whole seconds;
  // a fraction is accepted for tests): a central manager not heard from
  // for this long counts as down.
  std::int64_t connection_timeout_ms = 5000;
  // HAD_USE_REPLICATION: the active negotiator's accountant goes to the
  // standbys. HTCondor's default is False; caracara's is True, since a
  // failover must not forget usage (issue 22).
  bool use_replication = true;
  // HAD_REPLICATION_SYNC (caracara's): the cycle's matches wait for the
  // standbys' durable acknowledgement of the accountant they follow from.
  bool sync_replication = true;

  // The knobs of `config`; nullopt when HAD_LIST is empty (no HA: a HAD or
  // a highly available negotiator then says kEmptyHadList). Errors
  // name the knob: an entry that is no host[:port], HAD_CONTROLLEE other
  // than NEGOTIATOR, a timeout that is not positive.
  static Result<std::optional<HadConfig>> from_config(const config::Config& config);

  // Which member this node is: the entry whose host is one of `names` (the
  // node's host name, its address) and whose port is `port` (0, or an
  // entry without a port: any). Nullopt when none is.
  std::optional<std::size_t> self_index(const std::vector<std::string>& names, std::uint16_t port) const;

  // Heartbeats go out this often: a quarter of the timeout, so that three
  // may be lost before a peer counts as down.
  std::int64_t heartbeat_ms() const { return std::max<std::int64_t>(1, connection_timeout_ms / 4); }
  // How long a had that starts only listens: until the others had time to
  // reach it again (their next watch round, an attempt in flight as it
  // came back, a join) and a timeout to hear their heartbeats. One that
  // decided sooner would take the role from a running active one each time
  // a standby restarts.
  std::int64_t startup_listen_ms() const { return 2 * connection_timeout_ms + 2 * kJoinTimeoutMs; }
};

}  // namespace cara::ha
