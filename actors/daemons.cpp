#include "actors/daemons.h"

#include <caf/actor_cast.hpp>
#include <caf/actor_system.hpp>

#include "actors/collector.h"
#include "actors/defrag.h"
#include "actors/had.h"
#include "actors/negotiator.h"
#include "actors/schedd.h"
#include "actors/startd.h"
#include "os/system_host.h"

namespace cara::actors {
namespace {

template <class Handle>
Result<caf::actor> untyped(Result<Handle> spawned) {
  if (!spawned) return Error{spawned.error()};
  return caf::actor_cast<caf::actor>(*spawned);
}

// What every daemon but the collector takes alike from its node.
template <class Setup>
Setup common(const std::string& name, const NodeServices& node, std::shared_ptr<const config::Config> config,
             std::vector<collector_actor> collectors) {
  Setup setup;
  setup.config = std::move(config);
  setup.clock = node.clock;
  setup.context = node.context(name);
  setup.collectors = std::move(collectors);
  return setup;
}

}  // namespace

Result<caf::actor> spawn_daemon(caf::actor_system& sys, const std::string& name, const NodeServices& node,
                                std::shared_ptr<const config::Config> config,
                                std::vector<collector_actor> collectors) {
  if (name == "COLLECTOR") {
    auto policy = collector::CollectorPolicy::from_config(*config);
    if (!policy) return Error{policy.error()};
    auto history = collector::PoolHistoryPolicy::from_config(*config);
    if (!history) return Error{history.error()};
    CollectorSetup setup;
    setup.policy = std::move(*policy);
    setup.history = std::move(*history);
    setup.clock = node.clock;
    setup.context = node.context(name);
    if (node.durable) {
      auto log = config->string("COLLECTOR_PERSISTENT_AD_LOG");
      if (log) setup.persistent_ad_log = *log;
    }
    auto collector = spawn_collector(sys, std::move(setup));
    if (!collector) return Error{collector.error()};
    return caf::actor_cast<caf::actor>(*collector);
  }
  if (name == "NEGOTIATOR") {
    auto setup = common<NegotiatorSetup>(name, node, std::move(config), std::move(collectors));
    setup.seed = node.seed;
    setup.durable = node.durable;
    setup.ha = node.ha;
    setup.address = node.address;
    setup.introducer = node.introducer;
    return untyped(spawn_negotiator(sys, std::move(setup)));
  }
  if (name == "HAD") {
    if (!node.ha) return Error{"HAD: this node has no link between a had and its negotiator"};
    auto setup = had_setup(*config, node.ha);
    if (!setup) return Error{setup.error()};
    setup->context = node.context(name);
    setup->clock = node.clock;
    return caf::actor_cast<caf::actor>(spawn_had(sys, std::move(*setup)));
  }
  if (name == "SCHEDD") {
    auto setup = common<ScheddSetup>(name, node, std::move(config), std::move(collectors));
    setup.negotiator = node.negotiator;
    setup.files = node.files ? node.files : std::make_shared<os::SystemHost>();
    setup.middleman = node.middleman;
    setup.accounts = node.accounts;
    setup.durable = node.durable;
    setup.commit_gap = node.commit_gap;
    return untyped(spawn_schedd(sys, std::move(setup)));
  }
  if (name == "STARTD") {
    auto setup = common<StartdSetup>(name, node, std::move(config), std::move(collectors));
    setup.runner = node.runner ? node.runner : std::make_shared<ProcessRunner>();
    setup.address = node.address;
    setup.accounts = node.accounts;
    setup.daemon_account = node.daemon_account;
    return untyped(spawn_startd(sys, std::move(setup)));
  }
  if (name == "DEFRAG") {
    auto setup = common<DefragSetup>(name, node, std::move(config), std::move(collectors));
    setup.seed = node.seed;
    return untyped(spawn_defrag(sys, std::move(setup)));
  }
  return Error{"DAEMON_LIST: unknown daemon '" + name +
               "'; expected COLLECTOR, NEGOTIATOR, HAD, SCHEDD, STARTD, DEFRAG"};
}

}  // namespace cara::actors
