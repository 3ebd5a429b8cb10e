// What one `cara master` node runs and where, read from its configuration
// (pure: no CAF). DAEMON_LIST names the daemons (MASTER is the node
// itself); COLLECTOR_HOST (default CONDOR_HOST) the central managers as
// host[:port] (port 9618 by default); the node listens on SHARED_PORT_PORT,
// or on its collector's port when it runs one; NETWORK_INTERFACE is the
// address it binds and advertises. TLS files are HTCondor's
// AUTH_SSL_SERVER_CERTFILE / _KEYFILE / _CAFILE.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "apps/node/tls_system.h"
#include "model/common/result.h"
#include "model/config/config.h"
#include "net/address.h"

namespace cara::apps {

using net::HostPort;
using net::parse_host_port;

struct NodePlan {
  std::vector<std::string> daemons;  // COLLECTOR, NEGOTIATOR, SCHEDD, STARTD, in DAEMON_LIST order
  std::vector<HostPort> collectors;
  std::vector<HostPort> view_hosts;  // CONDOR_VIEW_HOST: where a collector forwards its updates
  std::string bind = "0.0.0.0";
  std::string advertise;  // host part of MyAddress
  std::uint16_t port = 9618;
  std::string port_knob = "the default port";  // what chose `port`, for messages
  std::string certificate, key, ca;
  std::string log_dir, spool, schedd_socket;
  double heartbeat_interval = kHeartbeatInterval;  // seconds; NODE_HEARTBEAT_INTERVAL
  double connection_timeout = 5;                   // seconds; NODE_CONNECTION_TIMEOUT
  double collector_check_interval = 2;             // seconds; NODE_COLLECTOR_CHECK_INTERVAL
  // How long the node's daemons may take to stop gracefully (jobs retire
  // and vacate), and then fast (jobs are killed), before the master exits
  // anyway (condor_master's SHUTDOWN_GRACEFUL_TIMEOUT, SHUTDOWN_FAST_TIMEOUT).
  std::int64_t shutdown_graceful = 1800, shutdown_fast = 300;
  std::int64_t master_update_interval = 300;  // MASTER_UPDATE_INTERVAL

  bool runs(const std::string& daemon) const;
};

Result<NodePlan> plan_node(const config::Config& config);

}  // namespace cara::apps
