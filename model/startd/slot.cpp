#include "model/startd/slot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/claim/claim_id.h"
#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "model/startd/slot_ad.h"

namespace cara::startd {
namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

const classad::ExprPtr& false_expr() {
  static const classad::ExprPtr f = classad::make_literal_expr(false);
  return f;
}

// The names refresh_ad() sets at every step of every slot, and those the
// policy reads of the job as often, interned once.
struct RefreshNames {
  classad::Interned state = classad::intern_spelling("State");
  classad::Interned activity = classad::intern_spelling("Activity");
  classad::Interned entered_state = classad::intern_spelling("EnteredCurrentState");
  classad::Interned entered_activity = classad::intern_spelling("EnteredCurrentActivity");
  classad::Interned last_benchmark = classad::intern_spelling("LastBenchmark");
  classad::Interned draining = classad::intern_spelling("Draining");
  classad::Interned remote_owner = classad::intern_spelling("RemoteOwner");
  classad::Interned remote_user = classad::intern_spelling("RemoteUser");
  classad::Interned accounting_group = classad::intern_spelling("AccountingGroup");
  classad::Interned current_rank = classad::intern_spelling("CurrentRank");
  classad::Interned concurrency_limits = classad::intern_spelling("ConcurrencyLimits");
  classad::Interned public_claim_id = classad::intern_spelling("PublicClaimId");
  classad::Interned job_start = classad::intern_spelling("JobStart");
  classad::Interned max_job_retirement_time = classad::intern_spelling("MaxJobRetirementTime");
  classad::Interned start = classad::intern_spelling("Start");
  classad::Interned requirements = classad::intern_spelling("Requirements");
  classad::Symbol owner = classad::intern("Owner");
  classad::Symbol user = classad::intern("User");
  classad::Symbol cpus = classad::intern("Cpus");
  classad::Symbol job_max_vacate_time = classad::intern("JobMaxVacateTime");
};
const RefreshNames& names() {
  static const RefreshNames n;
  return n;
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
  forget_forecast();
  // Keep the sensor readings and dynamic attributes: they are rewritten by
  // refresh_ad() or the next SensorUpdate.
  for (const classad::Attribute& a : ad_.attributes()) {
    if (!base.find(a.symbol)) base.insert(a);
  }
  ad_ = std::move(base);  // flat: every attribute it showed, and the new base
  refresh_ad();
  ad_.shrink_to_fit();
}

void Slot::set_offered(const classad::ClassAd& amounts, std::int64_t now) {
  now_ = now;
  forget_forecast();
  for (const classad::Attribute& a : amounts.attributes()) ad_.insert(a);
  refresh_ad();
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
  forget_forecast();
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
  forget_forecast();
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
    if (state_ == State::Drained) drain_unclaimed_ += static_cast<double>(now_ - drained_since_) * cpus();
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

double Slot::cpus() const {
  double c = 1;
  classad::evaluate_attr(ad_, names().cpus).number(c);
  return c;
}

double Slot::drain_unclaimed() const {
  return drain_unclaimed_ +
         (state_ == State::Drained ? static_cast<double>(now_ - drained_since_) * cpus() : 0);
}

Slot::DrainForecast Slot::drain_forecast() const {
  DrainForecast f;
  if (!claim_ || !claim_->running) return f;
  if (claim_->forecast) return *claim_->forecast;
  // A peaceful shutdown's endless retirement counts as ten years.
  const double retire = std::min(retirement_left(), 10 * 365 * 86400.0);
  const double run = run_time(), vacate = vacate_time(), c = cpus();
  f.graceful_seconds = retire + vacate;
  f.quick_seconds = vacate;
  f.graceful_badput = c * (run + retire);
  f.quick_badput = c * run;
  claim_->forecast = f;
  return f;
}

// Seconds of retirement the running job is granted: the smaller of the
// machine's MAXJOBRETIREMENTTIME and the job's MaxJobRetirementTime
// ("can only be used to take less than the time granted by the
// condor_startd, never more"; policy-configuration, MAXJOBRETIREMENTTIME).
double Slot::retirement_granted() const {
  if (!claim_ || !claim_->running || claim_->interruptible) return 0;  // interruptible: started draining
  double allowed = std::max(0.0, number_or(policy_->max_job_retirement_time, true, 0));
  if (const classad::Attribute* a = claim_->job.find(names().max_job_retirement_time.symbol)) {
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
  const classad::Attribute* a = claim_->job.find(names().job_max_vacate_time);
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
  const RefreshNames& n = names();
  ad_.set(n.state, state_name(state_));
  ad_.set(n.activity, activity_name(activity_));
  ad_.set(n.entered_state, entered_state_);
  ad_.set(n.entered_activity, entered_activity_);
  set_clock_attributes(ad_, now_, local_offset_);
  ad_.set(n.last_benchmark, last_benchmark_);
  ad_.set(n.draining, draining_);
  if (claim_) {
    const std::pair<classad::Symbol, const classad::Interned*> shown[] = {
        {n.owner, &n.remote_owner},
        {n.user, &n.remote_user},
        {n.accounting_group.symbol, &n.accounting_group}};
    for (const auto& [attr, target] : shown) {
      if (const classad::Attribute* a = claim_->job.find(attr))
        ad_.insert(*target, a->expr);
      else
        ad_.erase(*target);
    }
    // The slot advertises its user's accounting principal, as the
    // negotiator names submitters: group.user@uid_domain (HTCondor's
    // startd publishes AccountingGroup with the domain of the job's User).
    const classad::Value group = classad::evaluate_attr(claim_->job, n.accounting_group.symbol);
    const classad::Value user = classad::evaluate_attr(claim_->job, n.user);
    if (group.is_string() && user.is_string() && group.as_string().find('@') == std::string_view::npos) {
      const std::string_view u = user.as_string();
      const auto at = u.find('@');
      if (at != std::string_view::npos)
        ad_.set(n.accounting_group, std::string(group.as_string()) + std::string(u.substr(at)));
    }
    ad_.set(n.current_rank, claim_->rank);
    // The licenses its job holds: the negotiator counts them against the
    // concurrency limits in the next cycles (HTCondor's startd advertises
    // the job's ConcurrencyLimits too).
    if (const classad::Attribute* limits = claim_->job.find(n.concurrency_limits.symbol))
      ad_.insert(n.concurrency_limits, limits->expr);
    else
      ad_.erase(n.concurrency_limits);
    // The claim id is "<public part>#<secret>": only the public part is
    // shown (an id without one shows nothing), or anyone who may read the
    // collector could claim the slot.
    if (const std::string_view shown_id = claim::public_claim_id(claim_->id); !shown_id.empty())
      ad_.set(n.public_claim_id, shown_id);
    else
      ad_.erase(n.public_claim_id);
    if (claim_->running) {
      ad_.set(n.job_start, claim_->job_start);
      // With JobStart, tells the negotiator whether the job is still within
      // its retirement time: "By default the condor_negotiator will not
      // match jobs to a slot with retirement time remaining"
      // (NEGOTIATOR_CONSIDER_EARLY_PREEMPTION).
      ad_.set(n.max_job_retirement_time, retirement_granted());
    } else {
      ad_.erase(n.job_start);
      ad_.erase(n.max_job_retirement_time);
    }
  } else {
    for (const classad::Interned* attr :
         {&n.remote_owner, &n.remote_user, &n.accounting_group, &n.job_start, &n.max_job_retirement_time,
          &n.public_claim_id, &n.concurrency_limits})
      ad_.erase(*attr);
    ad_.set(n.current_rank, 0.0);
  }
  // Requirements is START as advertised; False while Matched, Preempting or
  // Drained so the slot is not matched again (policy-configuration,
  // "Matched State", "Preempting State"). While draining, START is the
  // drain's expression or False.
  classad::ExprPtr start = policy_->start;
  if (draining_) start = drain_start_ ? drain_start_ : false_expr();
  ad_.insert(n.start, start);
  const bool closed = state_ == State::Matched || state_ == State::Preempting || state_ == State::Drained;
  ad_.insert(n.requirements, closed ? false_expr() : start);
}

}  // namespace cara::startd
