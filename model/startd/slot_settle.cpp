// Preemption (retiring, vacating, killing) and settling: after each event
// the slot takes every transition its policy expressions and timers allow
// (policy-configuration, "Policy Settings"; slot.h).
#include <algorithm>
#include <cmath>

#include "model/classad/eval.h"
#include "model/startd/slot.h"

namespace cara::startd {
namespace {

constexpr int kMaxSettleSteps = 16;  // transitions one event may chain

}  // namespace

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
    // (TotalMachineDrainingBadput, in cpu-seconds).
    drain_badput_ += run_time() * cpus();
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
