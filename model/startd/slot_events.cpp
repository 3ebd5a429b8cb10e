// The slot's event handlers (policy-configuration, "condor_startd Policy
// Configuration": the states and activities a claim, an activation, a job's
// exit, a release, a vacate, draining, backfill and shutdown lead to).
// slot.cpp holds the slot's evaluation and ad, slot_settle.cpp preemption
// and the transitions that expressions and timers take.
#include <algorithm>

#include "model/classad/eval.h"
#include "model/startd/slot.h"

namespace cara::startd {

// ---- Event handlers -------------------------------------------------------

void Slot::handle(const SensorUpdate& e) {
  for (const classad::Attribute& a : e.readings.attributes()) ad_.insert(a);
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
  if (claim_->running && e.at_once) {
    preempt(Reason::Release, false, "H/10");
  } else if (claim_->running) {
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

}  // namespace cara::startd
