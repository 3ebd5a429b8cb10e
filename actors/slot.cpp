#include "actors/slot.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "actors/starter.h"
#include "model/claim/claim_gate.h"
#include "model/claim/claim_id.h"
#include "model/claim/schedd_claims.h"
#include "model/classad/eval.h"
#include "model/schedd/job_claim.h"
#include "model/startd/slot_state.h"
#include "net/guard.h"

namespace cara::actors {
namespace {

using startd::ActionKind;

// Every request to the startd is local; it answers at once, except a
// claim that preempts (its answer comes when the slot is free).
constexpr auto kStartdTimeout = std::chrono::seconds(30);

// A claim as the slot knows it: its secret and the schedd holding it.
struct Holder {
  std::string claim_id;
  schedd_actor schedd;
};

struct SlotState {
  std::shared_ptr<const SlotEnvironment> env;
  std::string slot;                        // its short name
  Holder claim;                            // the claim on the slot
  std::unique_ptr<claim::ClaimGate> gate;  // made when first announced to: most slots are matched seldom
  classad::ClassAd job;                    // the activated job
  schedd::JobId job_id;
  starter_actor starter;
  bool vacating = false;   // a kill was ordered: the job is being evicted
  bool suspended = false;  // the job is suspended
  // The job's end until its schedd says it is stored: a schedd that dies
  // first hears of it when it reconnects (ReconnectJob).
  std::optional<JobFinished> unacked;
  // The claim's schedd is gone and the job's lease runs: the claim and the
  // job (or its end) wait for a schedd that reconnects. A lease timer
  // counts only for the lease it was set for.
  bool in_lease = false;
  std::int32_t lease_serial = 0;
  // An activation was taken and its job not started yet (the startd's
  // StartJob order is on its way): the job is the claim's as much as a
  // running one, so a schedd that dies meanwhile leaves it its lease.
  bool activating = false;
  static inline const char* name = "slot";
};

using Self = slot_actor::stateful_pointer<SlotState>;

void call_startd(Self self, SlotCallKind kind, const std::string& claim_id) {
  self->request(self->state.env->startd, kStartdTimeout,
                SlotCall{self->state.slot, kind, claim_id, {}, false, {}, {}, false})
      .then([](const ClaimReply&) {});
}

void warn(Self self, const std::string& what) {
  self->state.env->context.warning("slot " + self->state.slot + ": " + what);
}

// The claim's schedd is watched while it holds the claim: a schedd that
// dies gives its claim back.
void drop(Self self, Holder& h) {
  if (h.schedd) self->demonitor(h.schedd.address());
  h = Holder{};
}

void hold(Self self, Holder& h, std::string claim_id, schedd_actor schedd) {
  drop(self, h);
  h.claim_id = std::move(claim_id);
  h.schedd = std::move(schedd);
  if (h.schedd) self->monitor(h.schedd);
}

void tell(const Self& self, const Holder& h, auto message) {
  if (h.schedd) self->send(h.schedd, std::move(message));
}

// A reply to JobFinished does not take this long: the schedd answers once
// the job's end is stored.
constexpr auto kFinishAckTimeout = std::chrono::seconds(60);

// The job's end goes to the claim's schedd and is kept until it says it
// stored it; without a schedd it waits for one that reconnects, during
// the lease only.
void send_end(Self self, const schedd_actor& to, JobFinished f) {
  self->request(to, kFinishAckTimeout, f)
      .then(
          [self, id = f.claim_id, job = f.job_id](const CommandReply&) {
            auto& u = self->state.unacked;
            if (u && u->claim_id == id && u->job_id == job) u.reset();
          },
          // The schedd died (its down message follows) or is stuck: the
          // end is kept for a schedd that reconnects.
          [](caf::error&) {});
}

void report_end(Self self, JobFinished f) {
  auto& st = self->state;
  if (!st.claim.schedd) {
    if (st.in_lease) st.unacked = std::move(f);
    return;
  }
  st.unacked = f;
  send_end(self, st.claim.schedd, std::move(f));
}

// The claim's schedd is gone: a running job (or one whose end is not
// stored yet) keeps its claim for the job's lease, waiting for the schedd
// to come back; otherwise, or when the lease is 0, the claim is released
// as if the schedd had asked (policy-configuration, H).
void schedd_lost(Self self) {
  auto& st = self->state;
  st.claim.schedd = schedd_actor{};
  const std::int64_t lease =
      st.starter || st.activating || st.unacked ? schedd::job_lease_duration(st.job) : 0;
  if (lease <= 0) {
    st.unacked.reset();
    call_startd(self, SlotCallKind::Release, st.claim.claim_id);
    return;
  }
  st.in_lease = true;
  self->state.env->context.info("slot " + st.slot + ": the schedd of job " + st.job_id.str() +
                                " is gone; the claim waits " + std::to_string(lease) +
                                " s (JobLeaseDuration) for it to reconnect");
  self->delayed_send(self, std::chrono::seconds(lease), Timer{++st.lease_serial});
}

void lease_ran_out(Self self) {
  auto& st = self->state;
  st.in_lease = false;
  st.unacked.reset();
  if (st.claim.claim_id.empty()) return;
  warn(self, "job " + st.job_id.str() + ": its schedd did not reconnect within the lease; the claim ends");
  call_startd(self, SlotCallKind::Release, st.claim.claim_id);
}

// The startd did not start the activated job. A schedd that died while it
// was asked left the claim its lease for that job alone: nothing waits for
// it now.
void activation_failed(Self self) {
  auto& st = self->state;
  st.activating = false;
  if (!st.in_lease || st.starter || st.unacked) return;
  st.in_lease = false;
  ++st.lease_serial;
  call_startd(self, SlotCallKind::Release, st.claim.claim_id);
}

// A schedd asks for the claim its store names (ReconnectJob).
ReconnectReply reconnect(Self self, ReconnectJob& r) {
  using claim::Reconnection;
  auto& st = self->state;
  auto answer = [](Reconnection state, std::string why = {}) {
    return ReconnectReply{static_cast<std::int32_t>(state), std::move(why)};
  };
  const bool ended_here = st.unacked && st.unacked->claim_id == r.claim_id && st.unacked->job_id == r.job_id;
  if (!ended_here && (st.claim.claim_id.empty() || r.claim_id != st.claim.claim_id))
    return answer(Reconnection::Gone, "no claim with this id on " + st.slot);
  if (r.claim_id == st.claim.claim_id) {
    hold(self, st.claim, r.claim_id, r.schedd);
    st.in_lease = false;
    ++st.lease_serial;  // the lease timer set counts no more
  }
  self->state.env->context.info("slot " + st.slot + ": job " + r.job_id.str() + ": its schedd reconnected");
  if (ended_here) return answer(Reconnection::Exited);
  if (st.starter && st.job_id == r.job_id)
    return answer(st.suspended ? Reconnection::Suspended : Reconnection::Running);
  return answer(Reconnection::Idle);
}

claim::ClaimGate& gate(Self self) {
  auto& g = self->state.gate;
  if (!g) g = std::make_unique<claim::ClaimGate>();
  return *g;
}

// The gate's clock: the actor clock in whole seconds (virtual in tests).
std::int64_t gate_now(Self self) {
  return std::chrono::duration_cast<std::chrono::seconds>(self->clock().now().time_since_epoch()).count();
}

ClaimReply claim_refused(std::string why) {
  ClaimReply r;
  r.reason = std::move(why);
  return r;
}

// A claim with an announced id goes to the startd, which decides; its
// answer is the claim's one answer, at once or when the slot is free.
void claim(Self self, ClaimSlot c, caf::typed_response_promise<ClaimReply> rp) {
  self->request(self->state.env->startd, caf::infinite,
                SlotCall{self->state.slot, SlotCallKind::Claim, c.claim_id, std::move(c.job), c.preempting,
                         c.schedd, std::move(c.preempt_dslots), c.leftovers})
      .then([rp](ClaimReply& r) mutable { rp.deliver(std::move(r)); },
            [rp](caf::error& e) mutable {
              rp.deliver(claim_refused("the startd did not answer: " + caf::to_string(e)));
            });
}

void signal_job(Self self, JobSignal signal) {
  if (self->state.starter) self->send(self->state.starter, StarterSignal{signal});
}

// No default: every action of the slot's state machine is named here, so
// a new one does not compile until it is placed.
void carry_out(Self self, const SlotOrder& o) {
  auto& st = self->state;
  switch (o.action) {
    case ActionKind::AcceptClaim:
      // A new claim: what an earlier one left is no one's now.
      st.unacked.reset();
      st.in_lease = false;
      st.activating = false;
      hold(self, st.claim, o.claim_id, o.schedd);
      break;
    case ActionKind::StartJob:
      st.activating = false;
      st.vacating = false;
      st.suspended = false;
      st.starter = spawn_starter(self->system(), st.job, o.account, self, st.env->runner);
      self->link_to(st.starter);  // a slot that ends takes its job with it
      break;
    case ActionKind::SuspendJob:
    case ActionKind::ContinueJob: {
      const bool suspend = o.action == ActionKind::SuspendJob;
      st.suspended = suspend;
      signal_job(self, suspend ? JobSignal::Suspend : JobSignal::Continue);
      tell(self, st.claim, JobSuspension{st.claim.claim_id, st.job_id, suspend});
      break;
    }
    case ActionKind::SoftKill:
    case ActionKind::HardKill:
      st.vacating = true;
      signal_job(self, o.action == ActionKind::SoftKill ? JobSignal::SoftKill : JobSignal::HardKill);
      break;
    case ActionKind::ClaimEnded:
      if (o.claim_id.empty() || o.claim_id == st.claim.claim_id) {
        tell(self, st.claim, ClaimEnded{st.claim.claim_id, o.reason});
        drop(self, st.claim);
      }
      break;
    // Answered by the reply to the call (RefuseClaim, ClaimPending), or the
    // startd's own work (benchmarks, backfill, advertising).
    case ActionKind::ClaimPending:
    case ActionKind::RefuseClaim:
    case ActionKind::RunBenchmarks:
    case ActionKind::StartBackfill:
    case ActionKind::KillBackfill:
    case ActionKind::Advertise: break;
  }
}

// Handlers capture `self` only: what they need is in the state, and the
// machine-wide part of it is shared (TARGETS.md: memory per slot).
slot_actor::behavior_type slot_behavior(Self self, std::string name,
                                        std::shared_ptr<const SlotEnvironment> env) {
  self->state.slot = std::move(name);
  self->state.env = std::move(env);
  self->set_down_handler([self](caf::down_msg& d) {
    // The claim's schedd is gone (crashed, or its node unreachable): the
    // claim is released as if it had asked (policy-configuration, H).
    auto& st = self->state;
    if (st.claim.claim_id.empty() || d.source != st.claim.schedd) return;
    schedd_lost(self);
  });
  return {
      [self](SlotMatched& m) {
        if (self->state.env->context.refused(self, net::Permission::Negotiator, "slot " + self->state.slot))
          return;
        // Claim ids come from other nodes: each is checked once, here, on
        // the way in (model/claim/claim_id.h).
        if (Status ok = claim::check_claim_id(m.claim_id); !ok)
          return warn(self, "a match refused: " + ok.error());
        // A negotiator that lost its role cannot hand the slot out
        // (model/claim/term_fence.h).
        if (!gate(self).announce_match(m.claim_id, m.term, gate_now(self)))
          return warn(self, "a match of term " + std::to_string(m.term) + " refused: term " +
                                std::to_string(gate(self).newest_term()) + " was seen");
        call_startd(self, SlotCallKind::Match, m.claim_id);
      },
      [self](ClaimSlot& c) -> caf::result<ClaimReply> {
        if (Status ok = claim::check_claim_id(c.claim_id); !ok) {
          warn(self, "a claim refused: " + ok.error());
          return claim_refused(ok.error());
        }
        if (!self->state.gate || !self->state.gate->admit(c.claim_id, gate_now(self))) {
          // A guess, or a match from a negotiator this slot does not take
          // matches from: the announcement always comes first.
          warn(self, "a claim refused: no match was announced for it");
          return claim_refused("no match was announced for this claim on " + self->state.slot);
        }
        auto rp = self->make_response_promise<ClaimReply>();
        claim(self, std::move(c), rp);
        return rp;
      },
      [self](ActivateClaim& a) -> caf::result<ActivateReply> {
        auto& st = self->state;
        if (Status ok = claim::check_claim_id(a.claim_id); !ok) return ActivateReply{false, ok.error()};
        if (st.claim.claim_id.empty() || a.claim_id != st.claim.claim_id)
          return ActivateReply{false, "no claim with this id on " + st.slot};
        st.unacked.reset();  // the schedd moved on: it stored the last job's end
        st.job = a.job.ad;
        st.job_id = schedd::job_id(a.job.ad);
        st.activating = true;
        // The startd decides whom the job runs as, knowing who asks (read
        // before the response promise takes the sender over).
        auto sender = self->current_sender();
        auto rp = self->make_response_promise<ActivateReply>();
        self->request(st.env->startd, kStartdTimeout,
                      SlotCall{st.slot,
                               SlotCallKind::Activate,
                               a.claim_id,
                               std::move(a.job),
                               false,
                               caf::actor_cast<schedd_actor>(sender),
                               {},
                               false,
                               a.owner_uid,
                               a.owner_gid})
            .then(
                [self, rp](ClaimReply& r) mutable {
                  if (!r.ok) activation_failed(self);
                  rp.deliver(ActivateReply{r.ok, r.reason});
                },
                [self, rp](caf::error& e) mutable {
                  activation_failed(self);
                  rp.deliver(ActivateReply{false, "the startd did not answer: " + caf::to_string(e)});
                });
        return rp;
      },
      [self](ReleaseSlot& r) {
        // The claim, or one waiting for this slot's job to leave (the
        // startd knows those).
        if (r.claim_id.empty()) return;
        if (Status ok = claim::check_claim_id(r.claim_id); !ok)
          return warn(self, "a release ignored: " + ok.error());
        call_startd(self, r.at_once ? SlotCallKind::ReleaseAtOnce : SlotCallKind::Release, r.claim_id);
      },
      [self](SlotOrder& o) {
        // Only the slot's own startd gives orders.
        if (!net::from_this_node(self)) return warn(self, "an order from another node ignored");
        carry_out(self, o);
      },
      [self](StarterExit& e) {
        if (!net::from_this_node(self)) return warn(self, "a job exit from another node ignored");
        auto& st = self->state;
        st.starter = nullptr;
        // The startd first, so that the schedd's next activation finds the
        // claim idle (messages from one sender arrive in order).
        call_startd(self, SlotCallKind::JobExited, st.claim.claim_id);
        report_end(self, JobFinished{st.claim.claim_id, st.job_id, e.by_signal, e.code, e.error, st.vacating,
                                     e.hold_code});
        st.vacating = false;
        st.suspended = false;
      },
      [self](ReconnectJob& r) -> caf::result<ReconnectReply> {
        if (Status ok = claim::check_claim_id(r.claim_id); !ok) {
          warn(self, "a reconnection refused: " + ok.error());
          return ReconnectReply{static_cast<std::int32_t>(claim::Reconnection::Gone), ok.error()};
        }
        ReconnectReply reply = reconnect(self, r);
        // The answer first, then the job's end it announces: the schedd
        // takes the claim back before it hears how its job ended.
        auto rp = self->make_response_promise<ReconnectReply>();
        const bool exited = reply.state == static_cast<std::int32_t>(claim::Reconnection::Exited);
        rp.deliver(std::move(reply));
        if (exited && r.schedd) send_end(self, r.schedd, *self->state.unacked);
        return rp;
      },
      [self](DrainRequest& d) -> caf::delegated<CommandReply> {
        // The defrag daemon reaches a machine through its slot ads: the
        // startd answers, judging the request's own sender (a delegated
        // message keeps it).
        return self->delegate(self->state.env->startd, std::move(d));
      },
      [self](Timer t) {
        if (!net::from_this_node(self)) return warn(self, "a timer from another node ignored");
        auto& st = self->state;
        if (st.in_lease && t.what == st.lease_serial && !st.claim.schedd) lease_ran_out(self);
      },
  };
}

}  // namespace

slot_actor spawn_slot(caf::actor_system& sys, std::string name, std::shared_ptr<const SlotEnvironment> env) {
  return sys.spawn(slot_behavior, std::move(name), std::move(env));
}

}  // namespace cara::actors
