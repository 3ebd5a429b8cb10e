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

// The startd's `context` decides who may announce a match (NEGOTIATOR; a
// null guard: everyone) and logs refusals in the startd's log.
slot_actor spawn_slot(caf::actor_system& sys, std::string name, startd_actor startd,
                      std::shared_ptr<JobRunner> runner, DaemonContext context);

}  // namespace cara::actors
