// The vocabulary of the slot state machine (policy-configuration, "Machine
// States", "Machine Activities", "State and Activity Transitions"): states,
// activities, the events that drive a slot and the actions it asks its
// driver to perform. The machine itself is slot.h.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "model/classad/classad.h"

namespace cara::startd {

enum class State { Owner, Unclaimed, Matched, Claimed, Preempting, Backfill, Drained };
enum class Activity { Idle, Benchmarking, Busy, Suspended, Retiring, Vacating, Killing };

const char* state_name(State s);
const char* activity_name(Activity a);

// How a drain evicts running jobs (condor_drain -how): graceful honours
// retirement, quick skips it but lets jobs vacate, fast kills at once.
enum class DrainSchedule { Graceful, Quick, Fast };

// ---- Events -----------------------------------------------------------

// Time passed: evaluate the policy and the timers.
struct Tick {};

// Readings of the machine, published in the slot ad (KeyboardIdle, LoadAvg,
// CondorLoadAvg, TotalLoadAvg, ConsoleIdle, CpuBusyTime...).
struct SensorUpdate {
  classad::ClassAd readings;
};

// The negotiator matched this slot (transitions C/6, L/32).
struct MatchNotified {
  std::string claim_id;
};

// A schedd claims the slot with a match's claim id and the job it will run
// (D/5, G/9, M/31). `preempting` is set when the negotiator matched it as a
// preemption of the current claim (a better user priority); a claim whose
// job the slot ranks higher (RANK) preempts too.
struct ClaimRequest {
  std::string claim_id;
  classad::ClassAd job;
  bool preempting = false;
  // ALLOW_PSLOT_PREEMPTION, for a claim on a partitionable slot: the
  // dynamic slots (short or full names) whose jobs are evicted to make room
  // when what is free does not fit the job (the negotiator's choice).
  std::vector<std::string> preempt_dslots;
};

// The claiming schedd starts a job on its claim (11).
struct Activate {
  std::string claim_id;
  classad::ClassAd job;
};

// The job's process ended (by itself or after a kill) (12, and the ends of
// retirement and preemption).
struct JobExited {
  std::string claim_id;
};

// The schedd gives the claim back (H).
struct ReleaseClaim {
  std::string claim_id;
  // The claim's job was held or removed (condor_rm, condor_hold): it
  // leaves now, without the retirement a release otherwise grants it.
  bool at_once = false;
};

// A preempting claim that is waiting on retirement was withdrawn (19).
struct PreemptingClaimWithdrawn {};

// ALLOW_PSLOT_PREEMPTION: the partitionable slot this dynamic slot was
// carved from took a better match that needs its resources. The job is
// evicted as for a better match (H/10; the negotiator picks only slots
// with no retirement left) and the claim ends, returning the resources.
struct EvictForPartition {};

// condor_vacate: evict the job (soft kill first unless fast) and go to
// Owner (F, H, J, K).
struct Vacate {
  bool fast = false;
};

// Start draining (N/36, P/37 and running claims per the schedule); the
// slot accepts only jobs that `start_expr` allows meanwhile (graceful
// draining's DEFRAG_DRAINING_START_EXPR), none when null.
struct Drain {
  DrainSchedule schedule = DrainSchedule::Graceful;
  classad::ExprPtr start_expr;
};
// Every slot of the machine has drained (33).
struct AllSlotsDrained {};
// Draining finalised or cancelled (O/34/35).
struct CancelDrain {};

struct BenchmarksDone {
  double mips = 0, kflops = 0;
};  // 4

struct BackfillStarted {};  // 26
struct BackfillExited {};   // 27, 29

// The startd shuts down: graceful retires jobs, fast kills them, peaceful
// waits for them however long they run.
struct Shutdown {
  enum class How { Graceful, Fast, Peaceful } how = How::Graceful;
};

using SlotEvent =
    std::variant<Tick, SensorUpdate, MatchNotified, ClaimRequest, Activate, JobExited, ReleaseClaim,
                 PreemptingClaimWithdrawn, EvictForPartition, Vacate, Drain, AllSlotsDrained, CancelDrain,
                 BenchmarksDone, BackfillStarted, BackfillExited, Shutdown>;

// ---- Actions ----------------------------------------------------------

enum class ActionKind {
  AcceptClaim,   // the claim holds the slot, idle: tell the schedd it may activate
  ClaimPending,  // the claim is granted once the slot is free (a job preempted, backfill
                 // killed): the schedd waits for its AcceptClaim (or ClaimEnded)
  RefuseClaim,   // the claim or activation is refused: `reason` says why
  StartJob,      // spawn the starter for the activated job
  SuspendJob,    // SIGSTOP the job's process group
  ContinueJob,   // SIGCONT
  SoftKill,      // the job's kill_sig (SIGTERM), once
  HardKill,      // SIGKILL
  ClaimEnded,    // tell the schedd its claim is over (released, preempted, evicted)
  RunBenchmarks,
  StartBackfill,
  KillBackfill,
  Advertise,  // the slot ad changed: send it to the collector
};

const char* action_name(ActionKind k);

struct SlotAction {
  ActionKind kind;
  std::string claim_id;
  std::string reason;
};

// What one step did: the actions to perform and the transitions taken, as
// labelled in the spec ("A/1", "H/13", ...), for logs and tests.
struct StepResult {
  std::vector<SlotAction> actions;
  std::vector<std::string> transitions;
};

}  // namespace cara::startd
