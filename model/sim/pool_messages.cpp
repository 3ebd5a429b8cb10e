// The messages between a virtual pool's daemons, carried as the actors
// carry them (actors/schedd_claiming.cpp, actors/slot.cpp,
// actors/startd.cpp): the schedd's claim actions to the slots, the
// startd's actions back to the schedd, and the simulated job processes.
// Nothing here decides what happens to a claim or a job: the claim model,
// the queue and the startd do.
#include <variant>

#include "model/claim/claim_id.h"
#include "model/claim/leftovers.h"
#include "model/classad/eval.h"
#include "model/schedd/job_claim.h"
#include "model/schedd/job_order.h"
#include "model/sim/pool_engine.h"

namespace cara::sim {

using Engine = VirtualPool::Engine;
using startd::ActionKind;

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

double number_attr(const classad::ClassAd& ad, const char* name, double fallback) {
  classad::Value v = classad::evaluate_attr(ad, name);
  if (v.is_int()) return static_cast<double>(v.as_int());
  return v.is_real() ? v.as_real() : fallback;
}

std::string slot_full_name(const startd::Slot* s, const std::string& short_name, const std::string& machine) {
  if (s) {
    classad::Value v = classad::evaluate_attr(s->ad(), "Name");
    if (v.is_string()) return std::string(v.as_string());
  }
  return short_name + "@" + machine;
}

}  // namespace

// ---- slot handles -----------------------------------------------------

claim::SlotRef Engine::ref_of(const SlotKey& key) {
  auto it = refs.find(key);
  if (it != refs.end()) return it->second;
  const claim::SlotRef ref = ++last_ref;
  slot_of_ref.emplace(ref, key);
  refs.emplace(key, ref);
  return ref;
}

const SlotKey* Engine::key_of(claim::SlotRef ref) const {
  auto it = slot_of_ref.find(ref);
  return it == slot_of_ref.end() ? nullptr : &it->second;
}

void Engine::forget_ref(claim::SlotRef ref) {
  auto it = slot_of_ref.find(ref);
  if (it == slot_of_ref.end()) return;
  refs.erase(it->second);
  slot_of_ref.erase(it);
}

// ---- the schedd -------------------------------------------------------

void Engine::carry_out(claim::Outcome out) {
  if (out.queue_changed || out.claims_changed) mark_changed();
  if (out.reschedule) {
    times.requested = true;
    mark_changed();
  }
  for (claim::Action& action : out.actions)
    std::visit(Overloaded{
                   [&](claim::RequestClaim& r) { post([this, r] { request_claim(r); }); },
                   [&](claim::Activate& a) { post([this, a] { activate(a); }); },
                   [&](claim::Release& r) { post([this, r] { release(r); }); },
                   // A machine that leaves tells the schedd itself
                   // (remove_machine), and the schedd never restarts:
                   // nothing to watch, nothing to reconnect. A slot no
                   // longer watched is forgotten once what was sent to it
                   // before has arrived (the actor sends at once, then
                   // forgets): when no message is in flight.
                   [&](claim::Watch&) {},
                   [&](claim::Unwatch& w) { unwatched.push_back(w.slot); },
                   [&](claim::Reconnect&) {},
                   [&](claim::Note& n) {
                     if (n.warning) warn(std::move(n.text));
                   },
               },
               action);
}

void Engine::request_claim(const claim::RequestClaim& r) {
  const SlotKey* key = key_of(r.slot);
  const classad::ClassAd* job = queue->find(r.job);
  if (!key || !job || machines[key->machine].gone) return carry_out(claims->refused(r.claim_id));
  const SlotKey where = *key;
  SlotCall call{SlotCall::Claim, r.claim_id, where.slot};
  auto result = machines[where.machine].startd->deliver(
      where.slot, startd::ClaimRequest{r.claim_id, *job, r.preempting, r.preempt_dslots}, now);
  dispatch(where.machine, std::move(result), &call);
}

void Engine::activate(const claim::Activate& a) {
  const SlotKey* key = key_of(a.slot);
  const classad::ClassAd* job = queue->find(a.job);
  if (!key || !job || machines[key->machine].gone)
    return carry_out(claims->activated(a.claim_id, a.job, false, now));
  const SlotKey where = *key;
  Machine& m = machines[where.machine];
  auto held = m.holder.find(where.slot);
  if (held == m.holder.end() || held->second != a.claim_id)
    return carry_out(claims->activated(a.claim_id, a.job, false, now));
  m.activated[where.slot] = a.job;
  SlotCall call{SlotCall::Activate, a.claim_id, where.slot};
  auto result = m.startd->deliver(where.slot, startd::Activate{a.claim_id, schedd::public_view(*job)}, now);
  dispatch(where.machine, std::move(result), &call);
}

void Engine::release(const claim::Release& r) {
  const SlotKey* key = key_of(r.slot);
  if (!key || r.claim_id.empty() || machines[key->machine].gone) return;
  const SlotKey where = *key;
  dispatch(
      where.machine,
      machines[where.machine].startd->deliver(where.slot, startd::ReleaseClaim{r.claim_id, r.at_once}, now),
      nullptr);
}

// What the queue let go of since the last look: completed and removed jobs
// leave it, as the schedd's store would take them to the history.
void Engine::settle_queue() {
  queue->take_events();
  queue->take_touched();
  for (const classad::ClassAd& job : queue->take_finished())
    if (schedd::job_status(job) == schedd::JobStatus::Removed)
      notify(PoolEvent{
          PoolEventKind::Removed, now, schedd::job_id(job), schedd::submitter_name(job), {}, 0, {}});
}

void Engine::plan_periodic() {
  if (periodic_pending || queue->size() == 0) return;
  const schedd::PeriodicPolicy& p = queue->policy().periodic;
  if (!job_periodic && !p.hold && !p.release && !p.remove) return;
  periodic_pending = true;
  at(now + std::max<std::int64_t>(1, schedd_settings.periodic_interval), TimerKind::Periodic);
}

void Engine::periodic() {
  if (queue->evaluate_periodic(now) > 0) {
    mark_changed();
    carry_out(claims->stop_unwanted());  // held or removed by the policy: off their slots
  }
  settle_queue();
  plan_periodic();
}

// ---- the startds ------------------------------------------------------

// As the startd actor's dispatch: each action to its slot, the answer to
// `call` from the actions about its claim, ads that changed to the
// collector (here: a change the negotiator's next cycle sees).
void Engine::dispatch(std::size_t mi, startd::StartdResult result, const SlotCall* call) {
  Machine& m = machines[mi];
  touch(mi);
  bool deferred = false;
  // The schedd's claim model takes a refusal without its reason (the
  // slot's warning says it), as the schedd actor's does.
  bool refused = false;
  std::optional<claim::Grant> grant;
  bool started = false;
  const bool claim_call = call && call->kind == SlotCall::Claim;
  for (startd::StartdAction& a : result.actions) {
    const bool for_call = call && a.action.claim_id == call->claim_id;
    const SlotKey key{mi, a.slot};
    if (startd::changes_ad(a.action.kind)) m.changed.insert(a.slot);
    switch (a.action.kind) {
      case ActionKind::Advertise: break;
      case ActionKind::RefuseClaim:
        if (for_call) refused = true;
        break;
      case ActionKind::ClaimPending:
        if (for_call && claim_call) {
          waiting.insert(a.action.claim_id);
          deferred = true;
        }
        break;
      case ActionKind::AcceptClaim: {
        m.holder[a.slot] = a.action.claim_id;
        const startd::Slot* s = m.startd->slot(a.slot);
        claim::Grant g{ref_of(key), a.slot, s ? s->ad() : classad::ClassAd{}, {}, {}};
        if (for_call && claim_call) {
          waiting.erase(a.action.claim_id);
          grant = std::move(g);
        } else if (waiting.erase(a.action.claim_id)) {
          // The preempted jobs have left: the waiting claim's answer.
          const std::string id = a.action.claim_id;
          post([this, id, g = std::move(g)]() mutable { carry_out(claims->granted(id, std::move(g))); });
        }
        break;
      }
      case ActionKind::StartJob:
        if (for_call) started = true;
        start_run(key, a.action.claim_id);
        break;
      case ActionKind::SuspendJob:
      case ActionKind::ContinueJob: suspend_run(key, a.action.kind == ActionKind::SuspendJob); break;
      case ActionKind::SoftKill:
      case ActionKind::HardKill:
        // A simulated job leaves at its first signal.
        if (auto r = run_on.find(key); r != run_on.end()) {
          const std::uint64_t serial = r->second;
          const std::string why = a.action.reason.empty() ? "evicted" : a.action.reason;
          post([this, serial, why] { end_run(serial, true, why); });
        }
        break;
      case ActionKind::ClaimEnded: {
        if (for_call && claim_call) {
          refused = true;
          waiting.erase(a.action.claim_id);
          break;
        }
        if (waiting.erase(a.action.claim_id)) {
          const std::string id = a.action.claim_id;
          post([this, id] { carry_out(claims->refused(id)); });
          break;
        }
        auto held = m.holder.find(a.slot);
        if (held == m.holder.end()) break;
        if (!a.action.claim_id.empty() && a.action.claim_id != held->second) break;
        const std::string id = held->second, reason = a.action.reason;
        m.holder.erase(held);
        post([this, id, reason] { carry_out(claims->ended(id, reason, now)); });
        break;
      }
      case ActionKind::RunBenchmarks:
      case ActionKind::StartBackfill:
      case ActionKind::KillBackfill: break;
    }
  }
  if (!result.actions.empty()) mark_changed();
  if (call && call->kind == SlotCall::Claim && !deferred) {
    if (grant && !refused) {
      // CLAIM_PARTITIONABLE_LEFTOVERS: the rest of the partitionable slot
      // comes with the grant, announced to the slot first.
      const startd::Slot* pslot = m.startd->slot(call->slot);
      const claim::LeftoverCase asked{schedd_settings.claim_leftovers, true, grant->slot_name != call->slot};
      if (pslot && claim::offers_leftovers(asked, pslot->ad())) {
        ++claim_counter;
        grant->leftover_claim_id =
            claim::make_claim_id(m.name + "/" + call->slot + "." + std::to_string(claim_counter), "leftover");
        grant->leftover_ad = pslot->ad();
        dispatch(mi, m.startd->deliver(call->slot, startd::MatchNotified{grant->leftover_claim_id}, now),
                 nullptr);
      }
      notify(PoolEvent{PoolEventKind::Claimed,
                       now,
                       {},
                       {},
                       slot_full_name(m.startd->slot(grant->slot_name), grant->slot_name, m.name),
                       0,
                       call->claim_id});
      const std::string id = call->claim_id;
      post([this, id, g = std::move(*grant)]() mutable { carry_out(claims->granted(id, std::move(g))); });
    } else {
      const std::string id = call->claim_id;
      post([this, id] { carry_out(claims->refused(id)); });
    }
  }
  if (call && call->kind == SlotCall::Activate) {
    const std::string id = call->claim_id;
    const schedd::JobId job = m.activated[call->slot];
    const bool ok = started && !refused;
    post([this, id, job, ok] { carry_out(claims->activated(id, job, ok, now)); });
  }
  plan_machine(mi);
}

// The machine's next timer, and its policy polls while it runs jobs.
void Engine::plan_machine(std::size_t mi) {
  Machine& m = machines[mi];
  if (auto d = m.startd->next_deadline(); d && (!m.deadline_at || *d < *m.deadline_at)) {
    m.deadline_at = std::max(*d, now);
    at(*m.deadline_at, TimerKind::Deadline, mi);
  }
  if (m.polled && !m.poll_pending && m.startd->has_running_jobs()) {
    m.poll_pending = true;
    at(now + m.poll_interval, TimerKind::Poll, mi);
  }
}

void Engine::start_run(const SlotKey& key, const std::string& claim_id) {
  Machine& m = machines[key.machine];
  auto act = m.activated.find(key.slot);
  const classad::ClassAd* job = act == m.activated.end() ? nullptr : queue->find(act->second);
  if (!job) return;
  const startd::Slot* s = m.startd->slot(key.slot);
  Run r;
  r.where = key;
  r.claim_id = claim_id;
  r.job = act->second;
  r.submitter = schedd::submitter_name(*job);
  r.slot_name = slot_full_name(s, key.slot, m.name);
  r.cores = s ? number_attr(s->ad(), "Cpus", 1) : 1;
  r.started = r.resumed = now;
  const double run_time = number_attr(*job, "SimulatedRunTime", -1);
  if (run_time >= 0) r.left = static_cast<std::int64_t>(run_time + 0.5);
  const std::uint64_t serial = ++run_serial;
  if (r.left) {
    at(now + *r.left, TimerKind::Exit, serial);
    r.exit_timer = timer_seq;
  }
  ++counters.started;
  notify(PoolEvent{PoolEventKind::Started, now, r.job, r.submitter, r.slot_name, r.cores, {}});
  run_on[key] = serial;
  runs.emplace(serial, std::move(r));
}

void Engine::suspend_run(const SlotKey& key, bool suspend) {
  auto on = run_on.find(key);
  if (on == run_on.end()) return;
  Run& r = runs.at(on->second);
  if (r.suspended == suspend) return;
  r.suspended = suspend;
  if (suspend) {
    if (r.left) r.left = std::max<std::int64_t>(0, *r.left - (now - r.resumed));
    r.exit_timer = 0;  // its pending exit no longer counts
  } else {
    r.resumed = now;
    if (r.left) {
      at(now + *r.left, TimerKind::Exit, on->second);
      r.exit_timer = timer_seq;
    }
  }
  const std::string id = r.claim_id;
  post([this, id, suspend] { carry_out(claims->suspended(id, suspend, now)); });
}

// The job's process ended: the startd hears first, so that the schedd's
// next activation finds the claim idle, and the schedd hears of the end
// before anything the startd did about it (the slot actor's order).
void Engine::end_run(std::uint64_t serial, bool killed, const std::string& why) {
  auto it = runs.find(serial);
  if (it == runs.end()) return;
  Run r = std::move(it->second);
  runs.erase(it);
  run_on.erase(r.where);
  machines[r.where.machine].activated.erase(r.where.slot);
  if (killed) {
    ++counters.killed;
  } else {
    ++counters.finished;
  }
  notify(PoolEvent{killed ? PoolEventKind::Killed : PoolEventKind::Finished, now, r.job, r.submitter,
                   r.slot_name, r.cores, why});
  auto result = machines[r.where.machine].startd->deliver(r.where.slot, startd::JobExited{r.claim_id}, now);
  claim::JobEnd end;
  end.by_signal = killed;
  end.code = killed ? 9 : 0;
  end.evicted = killed;
  end.job = r.job;
  post([this, id = r.claim_id, end] { carry_out(claims->job_ended(id, end, now)); });
  // What the startd does next (the claim ended at its worklife, say)
  // reaches the schedd through the slot: after the job's end.
  dispatch(r.where.machine, std::move(result), nullptr);
}

}  // namespace cara::sim
