// The slot actor: one per slot, the address the negotiator and a schedd
// use for it. It keeps the slot's claim (the claim id is a secret: a
// claim, activation or release that does not carry it is refused), the
// schedd holding it (monitored: a schedd that dies releases its claim) and
// the starter of the running job. The state machine itself is stepped by
// the startd, which owns the machine's model (partitionable slots,
// STARTD_SLOT_ATTRS and draining span slots); the slot hands it events and
// carries out the actions it sends back.
#pragma once

#include <caf/fwd.hpp>
#include <memory>
#include <string>

#include "actors/daemon_context.h"
#include "actors/interfaces.h"
#include "actors/job_runner.h"

namespace cara::actors {

// What every slot of a machine shares: its startd, the job runner, and the
// startd's context, which decides who may announce a match (NEGOTIATOR; a
// null guard: everyone) and logs refusals in the startd's log.
struct SlotEnvironment {
  startd_actor startd;
  std::shared_ptr<JobRunner> runner;
  DaemonContext context;
};

slot_actor spawn_slot(caf::actor_system& sys, std::string name, std::shared_ptr<const SlotEnvironment> env);

}  // namespace cara::actors
