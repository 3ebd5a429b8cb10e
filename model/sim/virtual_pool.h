// A whole pool in virtual time (issue 29; DESIGN.md "the same negotiator
// and startd logic run in a real pool, in deterministic actor tests, and in
// the virtual-time simulator with no change"): the central manager's
// accountant and negotiation cycle (claim/cycle_claims.h), one access
// point's job queue and claims (schedd/job_queue.h, claim/schedd_claims.h)
// and every execution point's startd (startd/startd.h), driven by a clock
// that jumps from one event to the next.
//
// What the actors do between those models — carry a match to its slot and
// its schedd, a claim request to the startd and its answer back, an
// activation, a job's exit — is done here in the same order, each message
// taking no virtual time. A job "runs" for its SimulatedRunTime (seconds,
// from its ad; a job without one runs until it is removed or evicted), and
// a job that is killed (preempted, vacated, removed) leaves at once.
//
// Events are discrete and ordered by (time, order of scheduling), so a run
// is deterministic. Negotiation cycles follow NEGOTIATOR_INTERVAL and the
// schedd's reschedule requests as the real negotiator's do
// (cycle_timing.h), but a cycle with nothing changed since the last one is
// skipped: no job, slot, claim or priority setting changed, and no
// preemption by priority is possible (it alone could match differently as
// priorities decay). The accountant charges claims from their exact start
// to their exact end, so skipped cycles change no priority.
// Startds are evaluated at their own timers (Startd::next_deadline) and,
// when a slot policy expression is not a constant (it may turn with time,
// as PREEMPT after three days does), every POLLING_INTERVAL while the
// machine runs jobs; the schedd's periodic policy every
// PERIODIC_EXPR_INTERVAL while it has jobs and periodic expressions.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting/accountant.h"
#include "model/accounting/priority_edit.h"
#include "model/common/result.h"
#include "model/config/config_layers.h"
#include "model/negotiation/cycle_types.h"
#include "model/node/pool_event.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/submission.h"

namespace cara::sim {

// A machine of the pool: its host name and its STARTD configuration
// (after the pool's common layers).
struct MachineSetup {
  std::string name;
  std::vector<config::TextLayer> config;
};

struct PoolSetup {
  // What every node reads first (a pool's shared condor_config).
  std::vector<config::TextLayer> common;
  // The central manager's (NEGOTIATOR) and the access point's (SCHEDD)
  // own layers.
  std::vector<config::TextLayer> central_manager, access_point;
  std::vector<MachineSetup> machines;
  std::int64_t start = 0;  // the virtual clock at the start, seconds since the epoch
  std::uint64_t seed = 1;  // $RANDOM_INTEGER in submit files, random() in expressions
};

// What happened, for observers (the simulator's records, the library's
// callbacks): the pool's events, as a real pool's daemons report them.
using node::event_kind_name;
using node::PoolEvent;
using node::PoolEventKind;

struct PoolCounters {
  std::int64_t events = 0;  // timers fired and messages carried
  std::int64_t cycles = 0, cycles_skipped = 0;
  std::int64_t matches = 0, preemptions = 0;
  std::int64_t started = 0, finished = 0, killed = 0;
};

class VirtualPool {
 public:
  // Reads every node's configuration and starts the machines at
  // setup.start. An error names the layer's file and line, or the machine.
  static Result<std::unique_ptr<VirtualPool>> create(const PoolSetup& setup);
  ~VirtualPool();
  VirtualPool(const VirtualPool&) = delete;
  VirtualPool& operator=(const VirtualPool&) = delete;

  std::int64_t now() const;
  // Runs every event up to and including `until`, then sets the clock to
  // `until` (never backwards).
  void run_until(std::int64_t until);
  // Runs every event before `t`, then sets the clock to `t`: what is done
  // next happens before the events of `t`.
  void run_before(std::int64_t t);
  // The time of the next event, if any.
  std::optional<std::int64_t> next_event() const;

  // condor_submit at now(), as `owner` (the schedd's own submission path).
  schedd::SubmitOutcome submit(const schedd::Submission& submission);
  // condor_rm of the jobs `constraint` selects (a ClassAd expression over
  // job ads), at now(), as a queue super user; how many were removed.
  Result<std::size_t> remove(const std::string& constraint, const std::string& reason);
  // condor_userprio's changes, at now().
  Status edit_priority(const accounting::PriorityEdit& edit);

  // condor_reconfig at now(): `layers` are read after the node's own (as
  // a changed local configuration file is), and the node takes its new
  // configuration as its daemon does — the negotiator its policy, groups
  // and accountant settings; the schedd its queue policy and settings; a
  // startd its slots' policy expressions (its slot layout cannot change).
  // An error names the layer's file and line; the node keeps its old
  // configuration (machines: every new configuration is read before any is
  // taken, but a startd that refuses its own — a new slot layout — leaves
  // the ones before it reconfigured).
  enum class Node { CentralManager, AccessPoint, Machines };
  // A machine joins the pool at now(): its startd starts and advertises
  // (a new execution point's master starting). Its name must be new
  // among the machines in the pool.
  Status add_machine(const MachineSetup& machine);
  // The machine leaves at now(), as one that loses its power: its jobs
  // die with it (Killed), the schedd hears its claims are gone and
  // requeues their jobs (claim::ScheddClaims::slot_lost), and its slots
  // leave the collector, so the next cycle charges nobody for them.
  Status remove_machine(const std::string& name);
  // The job's run ends now: by itself (it exited 0) or `killed` (`why`).
  // For a pool whose jobs an outside simulator runs (Batsim's decision
  // component): its jobs carry no SimulatedRunTime, and the simulator
  // says when each ends. An error when the job is not running.
  Status end_job(schedd::JobId job, bool killed, const std::string& why = "");
  // Machines: those whose name begins with `prefix` (all when empty).
  Status reconfigure(Node node, const std::vector<config::TextLayer>& layers, const std::string& prefix = "");

  void set_observer(std::function<void(const PoolEvent&)> observer);

  // The central manager's accountant (priority_at(name, now()) for a
  // priority between cycles).
  const accounting::Accountant& accountant() const;
  const schedd::JobQueue& queue() const;
  // The last negotiation cycle's outcome (empty before the first).
  const negotiation::CycleResult& last_cycle() const;
  const PoolCounters& counters() const;
  // The pool's cores: the Cpus of its static and partitionable slots.
  double total_cores() const;
  // Every slot ad as its startd has it now. The negotiator's copy (the
  // collector's) may be older: a startd sends a slot's ad again only when
  // an action changed the slot (startd::changes_ad), as the actor does.
  std::vector<classad::ClassAd> slot_ads() const;
  // How many slots the schedd holds a number for: those its claims deal
  // with now (a slot it no longer watches is forgotten, as the schedd
  // actor forgets its handle). For tests.
  std::size_t slots_tracked() const;
  // Warnings met (charges refused, the schedd's notes), in order: the
  // first thousand (a year-long run may meet millions of alike ones).
  const std::vector<std::string>& warnings() const;

  struct Engine;

 private:
  explicit VirtualPool(std::unique_ptr<Engine> engine);
  std::unique_ptr<Engine> e_;
};

}  // namespace cara::sim
