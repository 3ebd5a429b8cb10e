// What happened in a pool, for observers: the simulator's records
// (model/sim), and the library API's callbacks in virtual time (the
// simulator's engine reports them) and in real time (the daemons' actors
// report them: actors/pool_observer.h). One vocabulary for both, so that
// an embedding program sees the same events either way.
#pragma once

#include <cstdint>
#include <string>

#include "model/schedd/job_status.h"

namespace cara::node {

enum class PoolEventKind {
  Submitted,  // a job was queued
  Matched,    // the negotiator matched a job (or an autocluster's next job) to a slot
  Claimed,    // the slot granted the schedd its claim
  Started,    // the job began to run on the slot
  Finished,   // the job's run ended by itself
  Killed,     // the job's run was ended: preempted, vacated, removed, held
  Removed,    // the job left the queue without completing
  Cycle,      // a negotiation cycle ran
};
const char* event_kind_name(PoolEventKind kind);

struct PoolEvent {
  PoolEventKind kind = PoolEventKind::Submitted;
  std::int64_t time = 0;
  schedd::JobId job;
  std::string submitter;  // the job's accounting principal (AccountingGroup, else User)
  std::string slot;       // the slot's name (slot1_1@host)
  double cores = 0;       // the slot's Cpus (Started, Finished, Killed)
  std::string detail;     // Killed: why; Matched: the match's reason; Cycle: matches
};

}  // namespace cara::node
