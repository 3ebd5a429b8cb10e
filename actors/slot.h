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

#include "actors/interfaces.h"
#include "actors/job_runner.h"
#include "net/guard.h"

namespace cara::actors {

// `guard` (null: everyone) decides who may announce a match (NEGOTIATOR).
slot_actor spawn_slot(caf::actor_system& sys, std::string name, startd_actor startd,
                      std::shared_ptr<JobRunner> runner, std::shared_ptr<const net::Guard> guard);

}  // namespace cara::actors
