#include "actors/pool.h"

#include <algorithm>
#include <caf/actor_cast.hpp>
#include <caf/actor_system.hpp>
#include <caf/scoped_actor.hpp>
#include <caf/send.hpp>

#include "actors/daemons.h"
#include "actors/had.h"
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
  services.context = [log = spec.log, observer = spec.observer](const std::string&) {
    DaemonContext c;
    c.log = log;
    c.observer = observer;
    return c;
  };
  services.files = spec.files;
  services.accounts = spec.accounts;
  services.daemon_account = spec.daemon_account;
  services.runner = spec.runner;
  services.seed = spec.seed;
  services.durable = spec.durable;
  services.commit_gap = spec.commit_gap;
  return services;
}

NodeServices node_services(const PoolSpec& spec, std::shared_ptr<NodeConfig> config) {
  NodeServices services = node_services(spec);
  services.context = [base = services.context, config](const std::string& daemon) {
    DaemonContext c = base(daemon);
    c.node_config = config;
    return c;
  };
  return services;
}

Result<EmbeddedPool> spawn_pool(caf::actor_system& sys, const PoolSpec& spec) {
  std::vector<std::vector<std::string>> plans;
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    auto daemons = node::daemon_list(*spec.nodes[i]);
    if (!daemons) return Error{node_name(*spec.nodes[i], i) + ": " + daemons.error()};
    plans.push_back(std::move(*daemons));
  }
  const NodeServices pool_services = node_services(spec);
  // Each node its own services: a central manager with a HAD its own link
  // between had and negotiator, named in HAD_LIST by its FULL_HOSTNAME.
  std::vector<NodeServices> services(spec.nodes.size(), pool_services);
  if (!spec.node_configs.empty()) {
    if (spec.node_configs.size() != spec.nodes.size()) return Error{"a node configuration for every node"};
    for (std::size_t i = 0; i < spec.nodes.size(); ++i)
      services[i] = node_services(spec, spec.node_configs[i]);
  }
  bool high_availability = false;
  for (std::size_t i = 0; i < spec.nodes.size(); ++i)
    if (std::find(plans[i].begin(), plans[i].end(), "HAD") != plans[i].end()) {
      auto host = spec.nodes[i]->string("FULL_HOSTNAME");
      services[i].ha = std::make_shared<HaLink>(std::vector<std::string>{host ? *host : ""}, 0);
      high_availability = true;
    }

  EmbeddedPool pool;
  std::vector<collector_actor> collectors;
  std::vector<collector_actor> node_collector(spec.nodes.size());
  // Each phase spawns one kind of daemon on every node that runs it.
  auto phase = [&](const std::vector<std::string>& kinds, auto&& spawned) -> Status {
    for (std::size_t i = 0; i < spec.nodes.size(); ++i)
      for (const std::string& d : plans[i]) {
        if (std::find(kinds.begin(), kinds.end(), d) == kinds.end()) continue;
        // A central manager's negotiator asks its own collector first.
        std::vector<collector_actor> to = collectors;
        if (node_collector[i]) {
          std::erase(to, node_collector[i]);
          to.insert(to.begin(), node_collector[i]);
        }
        auto a = spawn_daemon(sys, d, services[i], spec.nodes[i], to);
        if (!a) return Error{node_name(*spec.nodes[i], i) + ": " + d + ": " + a.error()};
        pool.daemons.push_back(*a);
        spawned(i, d, *a);
      }
    return Ok{};
  };
  // A daemon that does not start stops the ones started before it.
  auto failed = [&](const std::string& why) -> Result<EmbeddedPool> {
    stop_pool(sys, pool);
    return Error{why};
  };
  Status s = phase({"COLLECTOR"}, [&](std::size_t i, const std::string&, const caf::actor& a) {
    collectors.push_back(caf::actor_cast<collector_actor>(a));
    node_collector[i] = collectors.back();
    if (services[i].ha) services[i].ha->set_collector(collectors.back());  // named in its had's heartbeats
  });
  if (!s) return failed(s.error());
  if (collectors.empty()) return failed("no node of the pool runs a COLLECTOR (DAEMON_LIST)");
  pool.collector = collectors.front();
  std::vector<std::pair<std::size_t, had_actor>> hads;  // node, had
  s = phase({"NEGOTIATOR", "HAD"}, [&](std::size_t i, const std::string& d, const caf::actor& a) {
    if (d == "HAD") {
      hads.emplace_back(i, caf::actor_cast<had_actor>(a));
      pool.hads.push_back(hads.back().second);
      return;
    }
    pool.negotiators.push_back(caf::actor_cast<negotiator_actor>(a));
    if (!pool.negotiator) pool.negotiator = pool.negotiators.back();
  });
  if (!s) return failed(s.error());
  // The hads of HAD_LIST know each other from the start (a networked node
  // reaches the others' through their gates).
  HadPeers peers;
  for (auto& [i, had] : hads) {
    auto setup = had_setup(*spec.nodes[i], services[i].ha);
    if (!setup) return failed(node_name(*spec.nodes[i], i) + ": HAD: " + setup.error());
    peers.members.push_back(static_cast<std::int32_t>(setup->self));
    peers.hads.push_back(had);
  }
  {
    caf::scoped_actor from{sys};  // a sender of this node (anonymous word is not taken)
    for (auto& [i, had] : hads) from->send(had, peers);
  }
  // Under high availability a schedd follows the active negotiator
  // through the collectors; otherwise it is told the one there is.
  for (NodeServices& n : services) n.negotiator = high_availability ? negotiator_actor{} : pool.negotiator;
  s = phase({"SCHEDD", "STARTD", "DEFRAG"}, [&](std::size_t, const std::string& d, const caf::actor& a) {
    if (d == "STARTD")
      pool.startds.push_back(caf::actor_cast<startd_actor>(a));
    else if (d == "SCHEDD" && !pool.schedd)
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
