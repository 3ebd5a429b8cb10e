#include "actors/pool.h"

#include <algorithm>
#include <caf/actor_cast.hpp>
#include <caf/actor_system.hpp>
#include <caf/send.hpp>

#include "actors/daemons.h"
#include "model/node/daemon_list.h"

namespace cara::actors {
namespace {

std::string node_name(const config::Config& config, std::size_t index) {
  auto host = config.string("FULL_HOSTNAME");
  return "node " + std::to_string(index + 1) + (host && !host->empty() ? " (" + *host + ")" : "");
}

}  // namespace

NodeServices node_services(const PoolSpec& spec) {
  NodeServices services;
  services.clock = spec.clock;
  services.context = [log = spec.log](const std::string&) {
    DaemonContext c;
    c.log = log;
    return c;
  };
  services.files = spec.files;
  services.accounts = spec.accounts;
  services.daemon_account = spec.daemon_account;
  services.runner = spec.runner;
  services.seed = spec.seed;
  services.durable = spec.durable;
  return services;
}

Result<EmbeddedPool> spawn_pool(caf::actor_system& sys, const PoolSpec& spec) {
  std::vector<std::vector<std::string>> plans;
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    auto daemons = node::daemon_list(*spec.nodes[i]);
    if (!daemons) return Error{node_name(*spec.nodes[i], i) + ": " + daemons.error()};
    plans.push_back(std::move(*daemons));
  }
  NodeServices services = node_services(spec);

  EmbeddedPool pool;
  std::vector<collector_actor> collectors;
  // Each phase spawns one kind of daemon on every node that runs it.
  auto phase = [&](const std::vector<std::string>& kinds, auto&& spawned) -> Status {
    for (std::size_t i = 0; i < spec.nodes.size(); ++i)
      for (const std::string& d : plans[i]) {
        if (std::find(kinds.begin(), kinds.end(), d) == kinds.end()) continue;
        auto a = spawn_daemon(sys, d, services, spec.nodes[i], collectors);
        if (!a) return Error{node_name(*spec.nodes[i], i) + ": " + d + ": " + a.error()};
        pool.daemons.push_back(*a);
        spawned(d, *a);
      }
    return Ok{};
  };
  // A daemon that does not start stops the ones started before it.
  auto failed = [&](const std::string& why) -> Result<EmbeddedPool> {
    stop_pool(sys, pool);
    return Error{why};
  };
  Status s = phase({"COLLECTOR"}, [&](const std::string&, const caf::actor& a) {
    collectors.push_back(caf::actor_cast<collector_actor>(a));
  });
  if (!s) return failed(s.error());
  if (collectors.empty()) return failed("no node of the pool runs a COLLECTOR (DAEMON_LIST)");
  pool.collector = collectors.front();
  s = phase({"NEGOTIATOR"}, [&](const std::string&, const caf::actor& a) {
    if (!pool.negotiator) pool.negotiator = caf::actor_cast<negotiator_actor>(a);
  });
  if (!s) return failed(s.error());
  services.negotiator = pool.negotiator;
  s = phase({"SCHEDD", "STARTD"}, [&](const std::string& d, const caf::actor& a) {
    if (d == "STARTD")
      pool.startds.push_back(caf::actor_cast<startd_actor>(a));
    else if (!pool.schedd)
      pool.schedd = caf::actor_cast<schedd_actor>(a);
  });
  if (!s) return failed(s.error());
  return pool;
}

void stop_pool(caf::actor_system&, const EmbeddedPool& pool) {
  // The startds first and the collectors last, as they were spawned the
  // other way round.
  for (auto it = pool.daemons.rbegin(); it != pool.daemons.rend(); ++it)
    caf::anon_send_exit(*it, caf::exit_reason::user_shutdown);
}

}  // namespace cara::actors
