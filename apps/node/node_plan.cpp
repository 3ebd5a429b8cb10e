#include "apps/node/node_plan.h"

#include <algorithm>

#include "model/node/daemon_list.h"

namespace cara::apps {
namespace {

Result<std::string> required_file(const config::Config& c, const std::string& knob) {
  auto v = c.string(knob);
  if (!v) return Error{v.error()};
  if (v->empty())
    return Error{knob + " is not set: a node needs a certificate of the pool CA (see `cara keygen`)"};
  return *v;
}

}  // namespace

bool NodePlan::runs(const std::string& daemon) const {
  return std::find(daemons.begin(), daemons.end(), daemon) != daemons.end();
}

Result<NodePlan> plan_node(const config::Config& c) {
  NodePlan p;
  auto daemons = node::daemon_list(c);
  if (!daemons) return Error{daemons.error()};
  p.daemons = std::move(*daemons);
  auto hosts = c.list("COLLECTOR_HOST");
  if (!hosts) return Error{hosts.error()};
  for (const std::string& h : *hosts) {
    auto hp = parse_host_port(h, "COLLECTOR_HOST");
    if (!hp) return Error{hp.error()};
    p.collectors.push_back(*hp);
  }
  auto views = c.list("CONDOR_VIEW_HOST");
  if (!views) return Error{views.error()};
  for (const std::string& h : *views) {
    auto hp = parse_host_port(h, "CONDOR_VIEW_HOST");
    if (!hp) return Error{hp.error()};
    p.view_hosts.push_back(*hp);
  }
  if (p.collectors.empty() && !p.runs("COLLECTOR"))
    return Error{"COLLECTOR_HOST (or CONDOR_HOST) is not set: where is the central manager?"};
  if (p.runs("COLLECTOR") && !p.collectors.empty()) {
    p.port = p.collectors.front().port;
    p.port_knob = "COLLECTOR_HOST (this node's collector)";
  }
  if (c.defined("SHARED_PORT_PORT")) {
    auto port = c.integer("SHARED_PORT_PORT");
    if (!port) return Error{port.error()};
    if (*port <= 0 || *port > 65535) return Error{"SHARED_PORT_PORT: a port of 1-65535 expected"};
    p.port = static_cast<std::uint16_t>(*port);
    p.port_knob = "SHARED_PORT_PORT";
  }
  if (auto nic = c.string("NETWORK_INTERFACE"); nic && !nic->empty() && *nic != "*") p.bind = *nic;
  p.advertise = p.bind != "0.0.0.0"              ? p.bind
                : c.string("FULL_HOSTNAME").ok() ? *c.string("FULL_HOSTNAME")
                                                 : "";
  for (auto [knob, into] :
       {std::pair{"AUTH_SSL_SERVER_CERTFILE", &p.certificate}, std::pair{"AUTH_SSL_SERVER_KEYFILE", &p.key},
        std::pair{"AUTH_SSL_SERVER_CAFILE", &p.ca}}) {
    auto v = required_file(c, knob);
    if (!v) return Error{v.error()};
    *into = *v;
  }
  for (auto [knob, into] : {std::pair{"LOG", &p.log_dir}, std::pair{"SPOOL", &p.spool},
                            std::pair{"SCHEDD_SOCKET", &p.schedd_socket}}) {
    auto v = c.string(knob);
    if (!v) return Error{v.error()};
    *into = *v;
  }
  for (auto [knob, into] : {std::pair{"NODE_HEARTBEAT_INTERVAL", &p.heartbeat_interval},
                            std::pair{"NODE_CONNECTION_TIMEOUT", &p.connection_timeout},
                            std::pair{"NODE_COLLECTOR_CHECK_INTERVAL", &p.collector_check_interval}}) {
    if (!c.defined(knob)) continue;
    auto v = c.real(knob);
    if (!v || *v <= 0) return Error{std::string(knob) + ": a positive number of seconds expected"};
    *into = *v;
  }
  for (auto [knob, into] : {std::pair{"SHUTDOWN_GRACEFUL_TIMEOUT", &p.shutdown_graceful},
                            std::pair{"SHUTDOWN_FAST_TIMEOUT", &p.shutdown_fast},
                            std::pair{"MASTER_UPDATE_INTERVAL", &p.master_update_interval}}) {
    auto v = c.integer(knob);
    if (!v) return Error{v.error()};
    if (*v < 0) return Error{std::string(knob) + " must not be negative (seconds)"};
    *into = *v;
  }
  return p;
}

}  // namespace cara::apps
