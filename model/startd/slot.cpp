#include "model/startd/slot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/startd/slot_ad.h"

namespace cara::startd {
namespace {

constexpr int kMaxSettleSteps = 16;  // transitions one event may chain
constexpr double kForever = std::numeric_limits<double>::infinity();

const classad::ExprPtr& false_expr() {
  static const classad::ExprPtr f = classad::make_literal_expr(false);
  return f;
}

}  // namespace

Slot::Slot(classad::ClassAd base, SlotPolicy policy, std::int64_t now, std::int32_t local_offset)
    : Slot(std::move(base), std::make_shared<const SlotPolicy>(std::move(policy)), now, local_offset) {}

Slot::Slot(classad::ClassAd base, std::shared_ptr<const SlotPolicy> policy, std::int64_t now,
           std::int32_t local_offset)
    : ad_(std::move(base)),
      policy_(std::move(policy)),
      local_offset_(local_offset),
      now_(now),
      entered_state_(now),
      entered_activity_(now) {
  refresh_ad();
  ad_.shrink_to_fit();  // a startd keeps one ad per slot for its life (TARGETS.md: memory per slot)
}

void Slot::set_base(classad::ClassAd base, std::int64_t now) {
  now_ = now;
  // Keep the sensor readings and dynamic attributes: they are rewritten by
  // refresh_ad() or the next SensorUpdate.
  for (const classad::Attribute& a : ad_.attributes()) {
    if (!base.find(a.symbol)) base.insert(a.name, a.expr);
  }
  ad_ = std::move(base);  // flat: every attribute it showed, and the new base
  refresh_ad();
  ad_.shrink_to_fit();
}

bool Slot::would_start(const classad::ClassAd& job) const {
  if (draining_ && !drain_start_) return false;
  classad::EvalEnv env;
  env.now = now_;
  env.local_offset = local_offset_;
  bool b = false;
  const classad::ExprPtr& start = draining_ ? drain_start_ : policy_->start;
  return classad::evaluate(*start, &ad_, &job, env).bool_equiv(b) && b;
}

void Slot::chain_to(const classad::ClassAd& machine) {
  ad_.chain_to(machine);
  ad_.drop_inherited();
  ad_.shrink_to_fit();
}

const std::string& Slot::claim_id() const {
  static const std::string none;
  return claim_ ? claim_->id : none;
}

StepResult Slot::step(const SlotEvent& event, std::int64_t now) {
  StepResult result;
  out_ = &result;
  now_ = std::max(now_, now);
  const State state_before = state_;
  const Activity activity_before = activity_;
  refresh_ad();
  std::visit([this](const auto& e) { handle(e); }, event);
  settle();
  refresh_ad();
  if (state_ != state_before || activity_ != activity_before || std::holds_alternative<SensorUpdate>(event)) {
    act(ActionKind::Advertise);
  }
  out_ = nullptr;
  return result;
}

void Slot::act(ActionKind kind, std::string reason) {
  if (!out_) return;
  // One advertisement per step is enough.
  if (kind == ActionKind::Advertise) {
    for (const SlotAction& a : out_->actions) {
      if (a.kind == ActionKind::Advertise) return;
    }
  }
  std::string claim = claim_ ? claim_->id : std::string();
  out_->actions.push_back(SlotAction{kind, std::move(claim), std::move(reason)});
}

void Slot::enter(State s, Activity a, const char* label) {
  if (s != state_) {
    if (state_ == State::Drained) drain_unclaimed_ += static_cast<double>(now_ - drained_since_);
    if (s == State::Drained) drained_since_ = now_;
    entered_state_ = now_;
  }
  if (s != state_ || a != activity_) entered_activity_ = now_;
  state_ = s;
  activity_ = a;
  if (out_ && label) out_->transitions.emplace_back(label);
  refresh_ad();
}

// ---- Evaluation ---------------------------------------------------------

classad::Value Slot::eval(const classad::ExprPtr& e, bool with_job) const {
  classad::EvalEnv env;
  env.now = now_;
  env.local_offset = local_offset_;
  const classad::ClassAd* job = with_job && claim_ ? &claim_->job : nullptr;
  return classad::evaluate(*e, &ad_, job, env);
}

bool Slot::is_true(const classad::ExprPtr& e, bool with_job) const {
  bool b = false;
  return eval(e, with_job).bool_equiv(b) && b;
}

// "Locally evaluates to FALSE": false, not undefined.
bool Slot::is_false(const classad::ExprPtr& e, bool with_job) const {
  bool b = true;
  return eval(e, with_job).bool_equiv(b) && !b;
}

double Slot::number_or(const classad::ExprPtr& e, bool with_job, double fallback) const {
  double d;
  classad::Value v = eval(e, with_job);
  return !v.is_string() && v.number(d) && std::isfinite(d) ? d : fallback;
}

const PolicyExprs& Slot::exprs() const {
  // Vanilla jobs (JobUniverse 5) use the _VANILLA variants.
  if (claim_) {
    const classad::Attribute* u = claim_->job.find("JobUniverse");
    if (u && u->is_literal() && u->literal().is_int() && u->literal().as_int() == 5) return policy_->vanilla;
  }
  return policy_->normal;
}

// Seconds the running job has run, not counting time spent suspended.
double Slot::run_time() const {
  std::int64_t suspended = claim_->suspended_total;
  if (activity_ == Activity::Suspended) suspended += now_ - claim_->suspended_since;
  return static_cast<double>(now_ - claim_->job_start - suspended);
}

// Seconds of retirement the running job is granted: the smaller of the
// machine's MAXJOBRETIREMENTTIME and the job's MaxJobRetirementTime
// ("can only be used to take less than the time granted by the
// condor_startd, never more"; policy-configuration, MAXJOBRETIREMENTTIME).
double Slot::retirement_granted() const {
  if (!claim_ || !claim_->running || claim_->interruptible) return 0;  // interruptible: started draining
  double allowed = std::max(0.0, number_or(policy_->max_job_retirement_time, true, 0));
  if (const classad::Attribute* a = claim_->job.find("MaxJobRetirementTime")) {
    classad::EvalEnv env;
    env.now = now_;
    classad::Value v = classad::evaluate(*a->expr, &claim_->job, &ad_, env);
    double job;
    if (!v.is_string() && v.number(job) && std::isfinite(job))
      allowed = std::min(allowed, std::max(0.0, job));
  }
  return allowed;
}

// Seconds of retirement the running job has left, counted from JobStart
// without the time spent suspended; a peaceful shutdown grants forever, a
// vacate or a quick or fast drain nothing.
double Slot::retirement_left() const {
  if (!claim_ || !claim_->running || claim_->interruptible) return 0;
  if (peaceful_) return kForever;
  if (reason_ == Reason::Vacate || (reason_ == Reason::Drain && drain_schedule_ != DrainSchedule::Graceful))
    return 0;
  return std::max(0.0, retirement_granted() - run_time());
}

// The vacating time X the job gets: MachineMaxVacateTime, or the job's
// JobMaxVacateTime when smaller; when larger, retirement time left is
// converted into vacating time up to JobMaxVacateTime.
double Slot::vacate_time() const {
  double machine = std::max(0.0, number_or(policy_->machine_max_vacate_time, true, 600));
  if (!claim_) return machine;
  const classad::Attribute* a = claim_->job.find("JobMaxVacateTime");
  if (!a) return machine;
  classad::EvalEnv env;
  env.now = now_;
  classad::Value v = classad::evaluate(*a->expr, &claim_->job, &ad_, env);
  double job;
  if (v.is_string() || !v.number(job) || !std::isfinite(job)) return machine;
  job = std::max(0.0, job);
  if (job <= machine) return job;
  double left = retirement_left();
  return std::min(job, std::max(machine, left));
}

// How long before the end of retirement the eviction starts: the vacating
// time when the job will be vacated, nothing when it will be killed
// (MAXJOBRETIREMENTTIME: "a preempted job will be soft-killed X seconds
// before the end of its retirement time").
double Slot::vacate_allowance() const {
  return is_true(exprs().want_vacate, true) ? vacate_time() : 0;
}

// ---- The ad -------------------------------------------------------------

void Slot::refresh_ad() {
  ad_.set("State", state_name(state_));
  ad_.set("Activity", activity_name(activity_));
  ad_.set("EnteredCurrentState", entered_state_);
  ad_.set("EnteredCurrentActivity", entered_activity_);
  set_clock_attributes(ad_, now_, local_offset_);
  ad_.set("LastBenchmark", last_benchmark_);
  double unclaimed =
      drain_unclaimed_ + (state_ == State::Drained ? static_cast<double>(now_ - drained_since_) : 0);
  ad_.set("TotalMachineDrainingUnclaimedTime", static_cast<std::int64_t>(unclaimed));
  ad_.set("TotalMachineDrainingBadput", static_cast<std::int64_t>(drain_badput_));
  ad_.set("Draining", draining_);
  if (claim_) {
    for (const char* attr : {"Owner", "User", "AccountingGroup"}) {
      const classad::Attribute* a = claim_->job.find(attr);
      std::string target = std::string(attr) == "Owner"  ? "RemoteOwner"
                           : std::string(attr) == "User" ? "RemoteUser"
                                                         : "AccountingGroup";
      if (a)
        ad_.insert(target, a->expr);
      else
        ad_.erase(target);
    }
    // The slot advertises its user's accounting principal, as the
    // negotiator names submitters: group.user@uid_domain (HTCondor's
    // startd publishes AccountingGroup with the domain of the job's User).
    const classad::Value group = classad::evaluate_attr(claim_->job, "AccountingGroup");
    const classad::Value user = classad::evaluate_attr(claim_->job, "User");
    if (group.is_string() && user.is_string() && group.as_string().find('@') == std::string_view::npos) {
      const std::string_view u = user.as_string();
      const auto at = u.find('@');
      if (at != std::string_view::npos)
        ad_.set("AccountingGroup", std::string(group.as_string()) + std::string(u.substr(at)));
    }
    ad_.set("CurrentRank", claim_->rank);
    // The claim id is "<public part>#<secret>": only the public part is
    // shown (an id without one shows nothing), or anyone who may read the
    // collector could claim the slot.
    if (const auto hash = claim_->id.find('#'); hash != std::string::npos)
      ad_.set("PublicClaimId", claim_->id.substr(0, hash));
    else
      ad_.erase("PublicClaimId");
    if (claim_->running) {
      ad_.set("JobStart", claim_->job_start);
      // With JobStart, tells the negotiator whether the job is still within
      // its retirement time: "By default the condor_negotiator will not
      // match jobs to a slot with retirement time remaining"
      // (NEGOTIATOR_CONSIDER_EARLY_PREEMPTION).
      ad_.set("MaxJobRetirementTime", retirement_granted());
    } else {
      ad_.erase("JobStart");
      ad_.erase("MaxJobRetirementTime");
    }
  } else {
    for (const char* attr : {"RemoteOwner", "RemoteUser", "AccountingGroup", "JobStart",
                             "MaxJobRetirementTime", "PublicClaimId"})
      ad_.erase(attr);
    ad_.set("CurrentRank", 0.0);
  }
  // Requirements is START as advertised; False while Matched, Preempting or
  // Drained so the slot is not matched again (policy-configuration,
  // "Matched State", "Preempting State"). While draining, START is the
  // drain's expression or False.
  classad::ExprPtr start = policy_->start;
  if (draining_) start = drain_start_ ? drain_start_ : false_expr();
  ad_.insert("Start", start);
  const bool closed = state_ == State::Matched || state_ == State::Preempting || state_ == State::Drained;
  ad_.insert("Requirements", closed ? false_expr() : start);
}

// ---- Event handlers -------------------------------------------------------

void Slot::handle(const SensorUpdate& e) {
  for (const classad::Attribute& a : e.readings.attributes()) ad_.insert(a.name, a.expr);
}

void Slot::handle(const MatchNotified& e) {
  switch (state_) {
    case State::Owner:
    case State::Unclaimed:
      matched_id_ = e.claim_id;
      matched_at_ = now_;
      enter(State::Matched, Activity::Idle, state_ == State::Owner ? "C" : "C/6");
      break;
    case State::Backfill:
      // The backfill job must go first (28), then Matched (32).
      matched_id_ = e.claim_id;
      matched_at_ = now_;
      backfill_matched_ = true;
      if (activity_ != Activity::Killing) {
        enter(State::Backfill, Activity::Killing, "28");
        act(ActionKind::KillBackfill, "matched");
      }
      break;
    default: break;  // already claimed: the claim request decides
  }
}

bool Slot::accept_claim(const ClaimRequest& e, const char* label) {
  Claim c;
  c.id = e.claim_id;
  c.job = e.job;
  c.claimed_at = now_;
  std::unique_ptr<Claim> previous = std::move(claim_);
  claim_ = std::make_unique<Claim>(std::move(c));
  // While draining, only the drain's START (DEFRAG_DRAINING_START_EXPR)
  // admits jobs, and they get no retirement time.
  const bool willing = would_start(e.job);
  if (!willing) {
    claim_ = std::move(previous);
    act(ActionKind::RefuseClaim, draining_ ? "the slot is draining" : "START is not true for this job");
    return false;
  }
  claim_->rank = number_or(policy_->rank, true, 0);
  claim_->interruptible = draining_;
  matched_id_.clear();
  enter(State::Claimed, Activity::Idle, label);
  act(ActionKind::AcceptClaim);
  return true;
}

void Slot::handle(const ClaimRequest& e) {
  switch (state_) {
    case State::Owner:
    case State::Unclaimed: accept_claim(e, "D/5"); return;
    case State::Matched:
      if (!matched_id_.empty() && matched_id_ != e.claim_id) {
        act(ActionKind::RefuseClaim, "the slot is matched to another claim");
        return;
      }
      accept_claim(e, "G/9");
      return;
    case State::Backfill:
      backfill_claim_ = std::make_unique<ClaimRequest>(e);
      if (out_) out_->actions.push_back(SlotAction{ActionKind::ClaimPending, e.claim_id, "backfill"});
      if (activity_ != Activity::Killing) {
        enter(State::Backfill, Activity::Killing, "28");
        act(ActionKind::KillBackfill, "claimed");
      }
      return;
    case State::Claimed: {
      // A preempting claim: the negotiator found a better user priority,
      // or the slot ranks the new job higher than the current one (RANK).
      if (pending_ || retiring_) {
        act(ActionKind::RefuseClaim, "the slot is already being preempted");
        return;
      }
      Claim candidate;
      candidate.id = e.claim_id;
      candidate.job = e.job;
      candidate.claimed_at = now_;
      std::unique_ptr<Claim> current = std::move(claim_);
      claim_ = std::make_unique<Claim>(candidate);
      const bool willing = !draining_ && is_true(policy_->start, true);
      const double new_rank = number_or(policy_->rank, true, 0);
      claim_ = std::move(current);
      if (!willing || (!e.preempting && !(new_rank > claim_->rank))) {
        act(ActionKind::RefuseClaim, willing ? "the slot is claimed and does not rank this job higher"
                                             : "START is not true for this job");
        return;
      }
      candidate.rank = new_rank;
      pending_ = std::make_unique<Claim>(std::move(candidate));
      if (out_) out_->actions.push_back(SlotAction{ActionKind::ClaimPending, pending_->id, "preempting"});
      if (claim_->running) {
        retire(Reason::BetterMatch, "H/13");
      } else {
        preempt(Reason::BetterMatch, false, "H/10");
      }
      return;
    }
    default: act(ActionKind::RefuseClaim, std::string("the slot is ") + state_name(state_));
  }
}

void Slot::handle(const Activate& e) {
  if (!claim_ || claim_->id != e.claim_id || state_ != State::Claimed || activity_ != Activity::Idle) {
    act(ActionKind::RefuseClaim, "no idle claim " + e.claim_id);
    return;
  }
  // CLAIM_WORKLIFE: an older claim takes no more jobs.
  const double worklife = number_or(policy_->claim_worklife, true, 1200);
  if (worklife >= 0 && static_cast<double>(now_ - claim_->claimed_at) > worklife) {
    act(ActionKind::RefuseClaim, "CLAIM_WORKLIFE has expired");
    preempt(Reason::WorkLife, false, "H/10");
    return;
  }
  if (draining_ && !claim_->interruptible) {
    act(ActionKind::RefuseClaim, "the slot is draining");
    preempt(Reason::Drain, false, "H/10");
    return;
  }
  claim_->job = e.job;
  claim_->running = true;
  claim_->job_start = now_;
  claim_->suspended_total = 0;
  claim_->rank = number_or(policy_->rank, true, 0);
  enter(State::Claimed, Activity::Busy, "11");
  act(ActionKind::StartJob);
}

// The job is gone; its claim stays (Claimed/Idle) unless the slot was
// preempting or retiring.
void Slot::job_ended() {
  if (!claim_) return;
  if (activity_ == Activity::Suspended) claim_->suspended_total += now_ - claim_->suspended_since;
  claim_->running = false;
}

void Slot::handle(const JobExited& e) {
  if (!claim_ || claim_->id != e.claim_id || !claim_->running) return;
  job_ended();
  if (state_ == State::Preempting) {
    finish_preemption();
    return;
  }
  if (retiring_) {
    // The job finished during retirement: nothing left to evict (18).
    enter(State::Preempting, Activity::Vacating, "18");
    finish_preemption();
    return;
  }
  enter(State::Claimed, Activity::Idle, "12");
  const double worklife = number_or(policy_->claim_worklife, true, 1200);
  if (worklife >= 0 && static_cast<double>(now_ - claim_->claimed_at) >= worklife)
    preempt(Reason::WorkLife, false, "H/10");
}

void Slot::handle(const ReleaseClaim& e) {
  if (pending_ && pending_->id == e.claim_id) {
    handle(PreemptingClaimWithdrawn{});
    return;
  }
  if (!claim_ || claim_->id != e.claim_id || state_ != State::Claimed) return;
  if (claim_->running) {
    retire(Reason::Release, "H/13");
  } else {
    preempt(Reason::Release, false, "H/10");
  }
}

void Slot::handle(const PreemptingClaimWithdrawn&) {
  if (!pending_) return;
  if (out_)
    out_->actions.push_back(SlotAction{ActionKind::ClaimEnded, pending_->id, "preempting claim withdrawn"});
  pending_.reset();
  // Retiring only for the preempting claim: back to work (19).
  if (state_ == State::Claimed && retiring_ && reason_ == Reason::BetterMatch) {
    retiring_ = false;
    reason_ = Reason::None;
    if (activity_ == Activity::Retiring) enter(State::Claimed, Activity::Busy, "19");
  }
}

void Slot::handle(const EvictForPartition&) {
  if (state_ == State::Claimed) preempt(Reason::BetterMatch, false, "H/10");
}

void Slot::handle(const Vacate& e) {
  switch (state_) {
    case State::Matched:
      matched_id_.clear();
      enter(State::Owner, Activity::Idle, "F/8");
      break;
    case State::Claimed: preempt(Reason::Vacate, e.fast, "H/10"); break;
    case State::Preempting:
      if (e.fast && activity_ == Activity::Vacating) {
        enter(State::Preempting, Activity::Killing, "21");
        killing_since_ = now_;
        act(ActionKind::HardKill, "fast vacate");
      }
      break;
    case State::Backfill:
      if (activity_ != Activity::Killing) {
        enter(State::Backfill, Activity::Killing, "K/28");
        act(ActionKind::KillBackfill, "vacate");
      }
      break;
    default: break;
  }
}

void Slot::handle(const Drain& e) {
  draining_ = true;
  drain_schedule_ = e.schedule;
  drain_start_ = e.schedule == DrainSchedule::Graceful ? e.start_expr : nullptr;
  // A graceful drain with a START expression keeps idle slots open to
  // interruptible jobs until the retiring ones are done (the startd then
  // drains quickly); otherwise idle slots are drained at once.
  const bool open = drain_start_ != nullptr;
  switch (state_) {
    case State::Owner:
      if (!open) enter(State::Drained, Activity::Retiring, "N/36");
      break;
    case State::Unclaimed:
      if (!open) enter(State::Drained, Activity::Retiring, "P/37");
      break;
    case State::Matched:
      matched_id_.clear();
      enter(State::Owner, Activity::Idle, "F/8");
      enter(State::Drained, Activity::Retiring, "N/36");
      break;
    case State::Claimed:
      if (!claim_->running) {
        preempt(Reason::Drain, false, "H/10");
      } else if (e.schedule == DrainSchedule::Graceful) {
        retire(Reason::Drain, "H/13");
      } else {
        preempt(Reason::Drain, e.schedule == DrainSchedule::Fast, "H/10");
      }
      break;
    case State::Backfill:
      if (activity_ != Activity::Killing) {
        enter(State::Backfill, Activity::Killing, "28");
        act(ActionKind::KillBackfill, "draining");
      }
      break;
    default: break;
  }
}

void Slot::handle(const AllSlotsDrained&) {
  if (state_ == State::Drained && activity_ == Activity::Retiring)
    enter(State::Drained, Activity::Idle, "33");
}

void Slot::handle(const CancelDrain&) {
  if (!draining_) return;
  draining_ = false;
  drain_start_.reset();
  if (state_ == State::Drained)
    enter(State::Owner, Activity::Idle, activity_ == Activity::Retiring ? "O/34" : "O/35");
}

void Slot::handle(const BenchmarksDone& e) {
  if (state_ != State::Unclaimed || activity_ != Activity::Benchmarking) return;
  last_benchmark_ = now_;
  ad_.set("Mips", e.mips);
  ad_.set("KFlops", e.kflops);
  enter(State::Unclaimed, Activity::Idle, "4");
}

void Slot::handle(const BackfillStarted&) {
  if (state_ == State::Backfill && activity_ == Activity::Idle) enter(State::Backfill, Activity::Busy, "26");
}

void Slot::handle(const BackfillExited&) {
  if (state_ != State::Backfill) return;
  if (activity_ == Activity::Busy) {
    // The backfill client stopped by itself: respawn it (27).
    enter(State::Backfill, Activity::Idle, "27");
    act(ActionKind::StartBackfill, "respawn");
    return;
  }
  if (activity_ != Activity::Killing) return;
  enter(State::Backfill, Activity::Idle, "29");
  if (backfill_claim_) {
    ClaimRequest c = std::move(*backfill_claim_);
    backfill_claim_.reset();
    backfill_matched_ = false;
    accept_claim(c, "M/31");
  } else if (backfill_matched_) {
    backfill_matched_ = false;
    enter(State::Matched, Activity::Idle, "L/32");
  } else if (draining_) {
    enter(State::Drained, Activity::Retiring, "K");
  } else {
    enter(State::Owner, Activity::Idle, "K/30");
  }
}

void Slot::handle(const Shutdown& e) {
  if (state_ == State::Claimed && claim_ && claim_->running) {
    if (e.how == Shutdown::How::Fast) {
      preempt(Reason::Shutdown, true, "H/10");
    } else {
      peaceful_ = e.how == Shutdown::How::Peaceful;
      retire(Reason::Shutdown, "H/13");
    }
  } else if (state_ == State::Claimed) {
    preempt(Reason::Shutdown, e.how == Shutdown::How::Fast, "H/10");
  } else if (state_ == State::Backfill && activity_ != Activity::Killing) {
    enter(State::Backfill, Activity::Killing, "K/28");
    act(ActionKind::KillBackfill, "shutdown");
  } else if (state_ == State::Matched) {
    matched_id_.clear();
    enter(State::Owner, Activity::Idle, "F/8");
  } else if (state_ == State::Preempting && activity_ == Activity::Vacating && e.how == Shutdown::How::Fast) {
    // A graceful shutdown that ran out of time turns fast: the job being
    // vacated is killed (21).
    enter(State::Preempting, Activity::Killing, "21");
    killing_since_ = now_;
    kill_escalated_ = false;
    act(ActionKind::HardKill, "fast shutdown");
  }
}

// ---- Preemption -----------------------------------------------------------

void Slot::retire(Reason why, const char* label) {
  if (reason_ == Reason::None || why != Reason::BetterMatch) reason_ = why;
  retiring_ = true;
  if (activity_ == Activity::Busy) enter(State::Claimed, Activity::Retiring, label);
}

// Claimed -> Preempting: Vacating when WANT_VACATE (and not fast), else
// Killing; with no job running the preemption is over at once.
void Slot::preempt(Reason why, bool fast, const char* label) {
  if (why != Reason::BetterMatch || reason_ == Reason::None) reason_ = why;
  retiring_ = false;
  if (!claim_ || !claim_->running) {
    enter(State::Preempting, Activity::Vacating, label);
    finish_preemption();
    return;
  }
  if (why == Reason::Drain) {
    // Draining cuts this job short: its run so far is badput
    // (TotalMachineDrainingBadput).
    drain_badput_ += run_time();
  }
  if (activity_ == Activity::Suspended) {
    // A suspended job must run to hear its signal.
    claim_->suspended_total += now_ - claim_->suspended_since;
    act(ActionKind::ContinueJob, "to deliver the eviction signal");
  }
  if (!fast && is_true(exprs().want_vacate, true)) {
    vacate_deadline_ = now_ + static_cast<std::int64_t>(std::ceil(vacate_time()));
    enter(State::Preempting, Activity::Vacating, label);
    act(ActionKind::SoftKill);
  } else {
    killing_since_ = now_;
    kill_escalated_ = false;
    enter(State::Preempting, Activity::Killing, label);
    act(ActionKind::HardKill);
  }
}

void Slot::end_claim(const std::string& why) {
  if (claim_ && out_) out_->actions.push_back(SlotAction{ActionKind::ClaimEnded, claim_->id, why});
  claim_.reset();
}

// The evicted job is gone: hand the slot to the preempting claim (I/23,
// I/24), or back to the owner (J/22, J/25), or to draining.
void Slot::finish_preemption() {
  const bool was_killing = activity_ == Activity::Killing;
  static const char* const why_names[] = {"",         "owner",    "vacated",  "preempted by a better match",
                                          "released", "shutdown", "draining", "claim worklife expired"};
  const std::string why = why_names[static_cast<int>(reason_)];
  if (pending_) {
    end_claim(why);
    claim_ = std::move(pending_);
    claim_->claimed_at = now_;
    reason_ = Reason::None;
    retiring_ = false;
    peaceful_ = false;
    enter(State::Claimed, Activity::Idle, was_killing ? "I/24" : "I/23");
    act(ActionKind::AcceptClaim);  // the waiting schedd may activate now
    return;
  }
  end_claim(why);
  reason_ = Reason::None;
  retiring_ = false;
  peaceful_ = false;
  if (draining_) {
    enter(State::Drained, Activity::Retiring, was_killing ? "J/25" : "J/22");
  } else {
    enter(State::Owner, Activity::Idle, was_killing ? "J/25" : "J/22");
  }
}

// ---- Settling: expressions and timers -------------------------------------

void Slot::settle() {
  for (int step = 0; step < kMaxSettleSteps; ++step) {
    const State s = state_;
    const Activity a = activity_;
    // Suspending and continuing are decided once per evaluation, as the
    // startd polls: SUSPEND and CONTINUE both true must not flap within
    // one step.
    if (step > 0 && out_ && !out_->transitions.empty()) {
      const std::string& last = out_->transitions.back();
      if (last == "14" || last == "15" || last == "20") return;
    }
    switch (state_) {
      case State::Owner:
        if (draining_ && !drain_start_) {
          enter(State::Drained, Activity::Retiring, "N/36");
        } else if (!is_true(policy_->is_owner, false)) {
          enter(State::Unclaimed, Activity::Idle, "A/1");
        }
        break;
      case State::Unclaimed:
        if (activity_ != Activity::Idle) break;
        if (is_true(policy_->is_owner, false)) {
          enter(State::Owner, Activity::Idle, "B/2");
        } else if (policy_->enable_backfill && is_true(policy_->start_backfill, false)) {
          enter(State::Backfill, Activity::Idle, "E/7");
          act(ActionKind::StartBackfill);
        } else if (is_true(policy_->run_benchmarks, false)) {
          enter(State::Unclaimed, Activity::Benchmarking, "3");
          act(ActionKind::RunBenchmarks);
        }
        break;
      case State::Matched:
        if (is_false(policy_->start, false) || now_ - matched_at_ >= policy_->match_timeout) {
          matched_id_.clear();
          enter(State::Owner, Activity::Idle, "F/8");
        }
        break;
      case State::Claimed:
        if (activity_ == Activity::Idle) {
          // START with the claim's job as TARGET, as HTCondor evaluates it
          // for a claim: a START that tests job attributes with =?= (the
          // thesis's SLOT_TYPE_2_START) is false without a job.
          if (is_false(policy_->start, true)) preempt(Reason::Owner, false, "H/10");
          break;
        }
        if (activity_ == Activity::Busy) {
          const PolicyExprs& p = exprs();
          if (is_true(p.want_suspend, true)) {
            if (is_true(p.suspend, true)) {
              claim_->suspended_since = now_;
              enter(State::Claimed, Activity::Suspended, "14");
              act(ActionKind::SuspendJob);
            }
          } else if (is_true(p.preempt, true)) {
            retire(Reason::Owner, "H/13");
          }
          break;
        }
        if (activity_ == Activity::Suspended) {
          const PolicyExprs& p = exprs();
          if (retiring_ && retirement_left() <= vacate_allowance()) {
            preempt(reason_, false, "17");
          } else if (is_true(p.continue_job, true)) {
            claim_->suspended_total += now_ - claim_->suspended_since;
            enter(State::Claimed, retiring_ ? Activity::Retiring : Activity::Busy, retiring_ ? "16" : "15");
            act(ActionKind::ContinueJob);
          } else if (!retiring_ && is_true(p.preempt, true)) {
            claim_->suspended_total += now_ - claim_->suspended_since;
            retiring_ = true;
            reason_ = Reason::Owner;
            enter(State::Claimed, Activity::Retiring, "16");
            act(ActionKind::ContinueJob);
          }
          break;
        }
        if (activity_ == Activity::Retiring) {
          const PolicyExprs& p = exprs();
          if (retirement_left() <= vacate_allowance()) {
            preempt(reason_, false, "18");
          } else if (is_true(p.want_suspend, true) && is_true(p.suspend, true)) {
            claim_->suspended_since = now_;
            enter(State::Claimed, Activity::Suspended, "20");
            act(ActionKind::SuspendJob);
          }
        }
        break;
      case State::Preempting:
        if (activity_ == Activity::Vacating && claim_ && claim_->running) {
          if (is_true(exprs().kill, true) || now_ >= vacate_deadline_) {
            killing_since_ = now_;
            kill_escalated_ = false;
            enter(State::Preempting, Activity::Killing, "21");
            act(ActionKind::HardKill);
          }
        } else if (activity_ == Activity::Killing && !kill_escalated_ &&
                   now_ - killing_since_ >= policy_->killing_timeout) {
          // KILLING_TIMEOUT: the starter did not finish the kill; kill it
          // and its children.
          kill_escalated_ = true;
          act(ActionKind::HardKill, "KILLING_TIMEOUT");
        }
        break;
      case State::Backfill:
        if (activity_ != Activity::Killing && is_true(policy_->evict_backfill, false)) {
          enter(State::Backfill, Activity::Killing, "K/28");
          act(ActionKind::KillBackfill, "EVICT_BACKFILL");
        }
        break;
      case State::Drained: break;
    }
    if (s == state_ && a == activity_) return;
  }
}

std::optional<std::int64_t> Slot::next_deadline() const {
  switch (state_) {
    case State::Matched: return matched_at_ + policy_->match_timeout;
    case State::Claimed:
      if (activity_ == Activity::Retiring) {
        double wait = retirement_left() - vacate_allowance();
        if (std::isfinite(wait)) return now_ + static_cast<std::int64_t>(std::max(0.0, std::ceil(wait)));
      }
      return std::nullopt;
    case State::Preempting:
      if (activity_ == Activity::Vacating) return vacate_deadline_;
      if (activity_ == Activity::Killing && !kill_escalated_)
        return killing_since_ + policy_->killing_timeout;
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace cara::startd
