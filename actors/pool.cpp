#include "actors/pool.h"

#include <caf/actor_system.hpp>
#include <caf/send.hpp>

#include "actors/collector.h"
#include "actors/negotiator.h"
#include "actors/schedd.h"
#include "actors/startd.h"
#include "os/system_host.h"

namespace cara::actors {

Result<EmbeddedPool> spawn_pool(caf::actor_system& sys, const PoolSpec& spec) {
  EmbeddedPool pool;
  auto policy = collector::CollectorPolicy::from_config(*spec.central_manager);
  if (!policy) return Error{"central manager: " + policy.error()};
  CollectorSetup collector;
  collector.policy = std::move(*policy);
  collector.clock = spec.clock;
  collector.context.log = spec.log;
  pool.collector = spawn_collector(sys, std::move(collector));
  const std::vector<collector_actor> collectors{pool.collector};

  NegotiatorSetup n;
  n.config = spec.central_manager;
  n.clock = spec.clock;
  n.context.log = spec.log;
  n.collectors = collectors;
  n.seed = spec.seed;
  auto negotiator = spawn_negotiator(sys, std::move(n));
  if (!negotiator) return Error{"negotiator: " + negotiator.error()};
  pool.negotiator = *negotiator;

  ScheddSetup schedd;
  schedd.config = spec.access_point;
  schedd.clock = spec.clock;
  schedd.context.log = spec.log;
  schedd.collectors = collectors;
  schedd.negotiator = pool.negotiator;
  schedd.files = spec.files ? spec.files : std::make_shared<os::SystemHost>();
  schedd.accounts = spec.accounts;
  auto s = spawn_schedd(sys, std::move(schedd));
  if (!s) return Error{"schedd: " + s.error()};
  pool.schedd = *s;

  for (std::size_t i = 0; i < spec.execution_points.size(); ++i) {
    StartdSetup ep;
    ep.config = spec.execution_points[i];
    ep.clock = spec.clock;
    ep.context.log = spec.log;
    ep.collectors = collectors;
    ep.runner = spec.runner;
    ep.accounts = spec.accounts;
    ep.daemon_account = spec.daemon_account;
    auto startd = spawn_startd(sys, std::move(ep));
    if (!startd) return Error{"execution point " + std::to_string(i + 1) + ": " + startd.error()};
    pool.startds.push_back(*startd);
  }
  return pool;
}

void stop_pool(caf::actor_system&, const EmbeddedPool& pool) {
  for (const startd_actor& s : pool.startds) caf::anon_send_exit(s, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(pool.schedd, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(pool.negotiator, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(pool.collector, caf::exit_reason::user_shutdown);
}

}  // namespace cara::actors
