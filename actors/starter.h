// The starter actor: one per running job (DESIGN.md). It starts the job
// through a JobRunner as the account the startd chose (a job no account
// may run is reported at once, to be held), turns the slot's orders into signals (suspend =
// SIGSTOP, continue = SIGCONT, soft kill = the job's KillSig, hard kill =
// SIGKILL) and reports the exit to its slot, then ends.
#pragma once

#include <caf/fwd.hpp>
#include <memory>

#include "actors/interfaces.h"
#include "actors/job_runner.h"

namespace cara::actors {

starter_actor spawn_starter(caf::actor_system& sys, classad::ClassAd job, startd::RunAs account,
                            slot_actor slot, std::shared_ptr<JobRunner> runner);

}  // namespace cara::actors
