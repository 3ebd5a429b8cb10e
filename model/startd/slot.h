// One slot's state machine (policy-configuration, "State and Activity
// Transitions"): it takes an event and the time and returns the actions
// to perform, so the slot actor and the simulator drive the same code
// (DESIGN.md). It owns the slot ad the policy expressions are evaluated
// against (MY = slot, TARGET = the claim's job).
//
// Every transition of the spec is implemented and labelled in
// StepResult::transitions with its letter and/or number ("A/1", "H/13").
// After an event the machine settles: it keeps taking the transitions its
// expressions and timers allow (so a released claim goes Preempting ->
// Owner -> Unclaimed in one step when IS_OWNER is false).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/classad/classad.h"
#include "model/startd/slot_policy.h"
#include "model/startd/slot_state.h"

namespace cara::startd {

class Slot {
 public:
  // `base` holds the slot's fixed attributes (Name, SlotID, Cpus, Memory,
  // Start, Rank, ...); the machine adds its state, timers, claim and
  // sensor readings to it. `local_offset` (seconds east of UTC) gives
  // ClockMin and ClockDay.
  Slot(classad::ClassAd base, SlotPolicy policy, std::int64_t now, std::int32_t local_offset = 0);
  // The same, with a policy shared by the slots that have it alike (a
  // machine's slots of one type): a slot keeps little of its own.
  Slot(classad::ClassAd base, std::shared_ptr<const SlotPolicy> policy, std::int64_t now,
       std::int32_t local_offset = 0);

  StepResult step(const SlotEvent& event, std::int64_t now);

  State state() const { return state_; }
  Activity activity() const { return activity_; }
  // The slot ad as of the last step.
  const classad::ClassAd& ad() const { return ad_; }
  // The claim the slot serves (empty when unclaimed).
  const std::string& claim_id() const;
  bool job_running() const { return claim_ && claim_->running; }
  // The next time a timer fires (match timeout, retirement, vacating,
  // killing timeout), if any; drivers also tick periodically for
  // time-dependent expressions.
  std::optional<std::int64_t> next_deadline() const;

  // Whether START (or a drain's expression) accepts `job` now.
  bool would_start(const classad::ClassAd& job) const;
  // Whether the slot holds a claim from before a drain began (the jobs a
  // graceful drain waits for).
  bool holds_pre_drain_claim() const { return draining_ && claim_ && !claim_->interruptible; }

  // What draining has cost on this slot, in cpu-seconds (the machine's
  // TotalMachineDrainingBadput and TotalMachineDrainingUnclaimedTime add
  // these up): the run time of jobs a drain cut short, and the time the
  // slot stood Drained, up to the last step.
  double drain_badput() const { return drain_badput_; }
  double drain_unclaimed() const;
  // What draining from the last step on would take on this slot: when it
  // would be empty (seconds from now) and the cpu-seconds of work lost,
  // gracefully (the job runs out its retirement, then is evicted without
  // a checkpoint) and quickly (evicted now, vacating as usual). Nothing
  // for a slot without a running job.
  struct DrainForecast {
    double graceful_seconds = 0, quick_seconds = 0;
    double graceful_badput = 0, quick_badput = 0;
  };
  DrainForecast drain_forecast() const;

  // Replaces the fixed attributes (a reconfiguration or a resource change).
  // The ad is no longer chained: chain it again.
  void set_base(classad::ClassAd base, std::int64_t now);
  // Sets the attributes of `amounts` (offered_amounts(): what a
  // partitionable slot offers now), the rest of the ad as it is: what
  // set_base() with the base ad made anew and chain_to() the same machine
  // would show, without making the whole ad again at every carve.
  void set_offered(const classad::ClassAd& amounts, std::int64_t now);
  // A reconfiguration: the policy the slot evaluates from now on.
  void set_policy(std::shared_ptr<const SlotPolicy> policy) {
    policy_ = std::move(policy);
    forget_forecast();
  }
  const SlotPolicy& policy() const { return *policy_; }
  // Chains the slot's ad to its machine's (the attributes the machine's
  // slots have in common, classad.h) and drops what it holds alike. Only
  // the slot's own attributes then take memory of their own.
  void chain_to(const classad::ClassAd& machine);
  // Sees the machine's ad as it is now (after the startd changed it),
  // keeping the slot's own attributes as they are.
  void rechain(const classad::ClassAd& machine) {
    ad_.chain_to(machine);
    forget_forecast();
  }
  // The same when only the machine's drain figures changed: they are made
  // from the slots' forecasts, so a forecast reading them would be circular,
  // and each slot keeps the forecast it has.
  void rechain_after_drain_figures(const classad::ClassAd& machine) { ad_.chain_to(machine); }

 private:
  enum class Reason { None, Owner, Vacate, BetterMatch, Release, Shutdown, Drain, WorkLife };

  struct Claim {
    std::string id;
    classad::ClassAd job;  // the claiming request, then the running job
    std::int64_t claimed_at = 0;
    double rank = 0;
    bool running = false;
    std::int64_t job_start = 0;
    std::int64_t suspended_total = 0;
    std::int64_t suspended_since = 0;  // when suspended now
    bool interruptible = false;        // accepted while draining: no retirement
    // drain_forecast() as of the last change: the startd adds up every
    // slot's after each event, and evaluating the policy and the job's
    // retirement and vacate times for every running slot each time was a
    // tenth of a busy execution point's work.
    mutable std::optional<DrainForecast> forecast;
  };
  void forget_forecast() {
    if (claim_) claim_->forecast.reset();
  }

  // Transitions.
  void enter(State s, Activity a, const char* label);
  void settle();
  void handle(const MatchNotified& e);
  void handle(const ClaimRequest& e);
  void handle(const Activate& e);
  void handle(const JobExited& e);
  void handle(const ReleaseClaim& e);
  void handle(const PreemptingClaimWithdrawn& e);
  void handle(const EvictForPartition& e);
  void handle(const Vacate& e);
  void handle(const Drain& e);
  void handle(const AllSlotsDrained& e);
  void handle(const CancelDrain& e);
  void handle(const BenchmarksDone& e);
  void handle(const BackfillStarted& e);
  void handle(const BackfillExited& e);
  void handle(const Shutdown& e);
  void handle(const SensorUpdate& e);
  void handle(const Tick&) {}

  bool accept_claim(const ClaimRequest& e, const char* label);
  void retire(Reason why, const char* label);
  void preempt(Reason why, bool fast, const char* label);
  void finish_preemption();
  void end_claim(const std::string& why);
  void job_ended();

  // Policy evaluation, MY = the slot ad, TARGET = the claim's job when
  // `with_job`.
  classad::Value eval(const classad::ExprPtr& e, bool with_job) const;
  bool is_true(const classad::ExprPtr& e, bool with_job) const;
  bool is_false(const classad::ExprPtr& e, bool with_job) const;
  const PolicyExprs& exprs() const;
  double number_or(const classad::ExprPtr& e, bool with_job, double fallback) const;
  double run_time() const;
  double cpus() const;  // the slot's Cpus (1 when it has none)
  double retirement_granted() const;
  double retirement_left() const;
  double vacate_time() const;
  double vacate_allowance() const;
  void refresh_ad();
  void act(ActionKind kind, std::string reason = {});

  classad::ClassAd ad_;
  std::shared_ptr<const SlotPolicy> policy_;
  std::int32_t local_offset_;
  std::int64_t now_;

  State state_ = State::Owner;
  Activity activity_ = Activity::Idle;
  std::int64_t entered_state_, entered_activity_;

  // Boxed: most slots of a pool hold no claim, or only one (a slot is a
  // hundred thousand times in memory: TARGETS.md).
  std::unique_ptr<Claim> claim_;
  std::unique_ptr<Claim> pending_;  // a preempting claim waiting for the current job to leave
  std::string matched_id_;
  std::int64_t matched_at_ = 0;
  std::unique_ptr<ClaimRequest> backfill_claim_;  // a claim waiting for backfill to stop
  bool backfill_matched_ = false;

  Reason reason_ = Reason::None;  // why the current claim is being retired or preempted
  bool retiring_ = false;
  std::int64_t vacate_deadline_ = 0;
  std::int64_t killing_since_ = 0;
  bool kill_escalated_ = false;
  bool peaceful_ = false;

  bool draining_ = false;
  DrainSchedule drain_schedule_ = DrainSchedule::Graceful;
  classad::ExprPtr drain_start_;
  double drain_unclaimed_ = 0;  // cpu-seconds spent Drained, before the current stretch
  double drain_badput_ = 0;     // job cpu-seconds lost to draining
  std::int64_t drained_since_ = 0;

  std::int64_t last_benchmark_ = 0;
  StepResult* out_ = nullptr;  // the result being built by step()
};

}  // namespace cara::startd
