// The had actor of a central manager (HTCondor's condor_had; DESIGN.md
// "High availability"; central-manager-configuration, "High Availability
// of the Central Manager"). The hads of HAD_LIST are one group: each sends
// the others a heartbeat every quarter of HAD_CONNECTION_TIMEOUT and
// monitors them (a central manager killed or cut off is noticed when its
// link drops, or at the latest after the timeout), keeps the election of
// model/ha/election.h, and tells its node's negotiator to be active or to
// stand by. The had decides only once its negotiator has said which
// accountant state it holds, so a new term is always above the stored one.
#pragma once

#include <caf/fwd.hpp>
#include <memory>

#include "actors/daemon_context.h"
#include "actors/ha_link.h"
#include "actors/interfaces.h"
#include "actors/pool_clock.h"
#include "model/ha/had_config.h"

namespace cara::actors {

struct HadSetup {
  ha::HadConfig config;
  std::size_t self = 0;  // this node's index in HAD_LIST
  std::shared_ptr<HaLink> link;
  DaemonContext context;
  PoolClock clock;  // when a role changed (HadStatus::since)
};

// The had of a node configured by `config` (HAD_LIST and the other knobs;
// the node named as `link` says). An error names what is wrong: no
// HAD_LIST, or a HAD_LIST that does not name this node.
Result<HadSetup> had_setup(const config::Config& config, std::shared_ptr<HaLink> link);

had_actor spawn_had(caf::actor_system& sys, HadSetup setup);

}  // namespace cara::actors
