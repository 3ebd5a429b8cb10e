#include "model/claim/schedd_claims.h"

#include "model/classad/eval.h"
#include "model/classad/match.h"

namespace cara::claim {
namespace {

// FailedToCreateProcess: the job could not be started (HTCondor's code 6).
constexpr int kHoldStartFailed = 6;

// An event that sets off another: both outcomes as one, actions in order.
void append(Outcome& into, Outcome more) {
  for (Action& a : more.actions) into.actions.push_back(std::move(a));
  into.queue_changed = into.queue_changed || more.queue_changed;
  into.claims_changed = into.claims_changed || more.claims_changed;
  into.reschedule = into.reschedule || more.reschedule;
}

std::string describe(const JobEnd& end) {
  if (!end.error.empty()) return "held: " + end.error;
  if (end.evicted) return "evicted";
  if (end.by_signal) return "killed by signal " + std::to_string(end.code);
  return "exited with code " + std::to_string(end.code);
}

// Whether the queue still wants `job` run: it is there, idle (being
// started) or running.
bool wanted(const schedd::JobQueue& queue, JobId job) {
  const classad::ClassAd* ad = queue.find(job);
  if (!ad) return false;
  const auto s = schedd::job_status(*ad);
  return s == schedd::JobStatus::Idle || s == schedd::JobStatus::Running || s == schedd::JobStatus::Suspended;
}

}  // namespace

bool ScheddClaims::is_idle(JobId job) const {
  const classad::ClassAd* ad = queue_->find(job);
  return ad && schedd::job_status(*ad) == schedd::JobStatus::Idle;
}

// The next job a claim may run: one the match was made for, else any idle
// job of the submitter the slot would take.
std::optional<JobId> ScheddClaims::next_job(const std::string& submitter, const std::vector<JobId>& job_ids,
                                            const classad::ClassAd& slot_ad) const {
  for (const JobId& id : job_ids)
    if (!busy(id) && is_idle(id)) return id;
  std::optional<JobId> found;
  queue_->for_each_idle_job(submitter, [&](const classad::ClassAd& job) {
    const JobId id = schedd::job_id(job);
    if (busy(id) || !classad::symmetric_match(job, slot_ad)) return true;
    found = id;
    return false;
  });
  return found;
}

Outcome ScheddClaims::offered(Offer offer) {
  Outcome out;
  std::optional<JobId> job = next_job(offer.submitter, offer.job_ids, offer.slot_ad);
  if (!job) return out;  // nothing left to run: the match times out at the slot
  busy_.insert(*job);
  watch(offer.slot, out);
  out.actions.push_back(
      RequestClaim{offer.claim_id, offer.slot, *job, offer.preempting, offer.preempt_dslots});
  const std::string id = offer.claim_id;
  asking_[id] = Asking{std::move(offer), *job};
  return out;
}

Outcome ScheddClaims::refused(const std::string& claim_id) {
  Outcome out;
  auto it = asking_.find(claim_id);
  if (it == asking_.end()) return out;
  busy_.erase(it->second.job);
  const SlotRef slot = it->second.offer.slot;
  asking_.erase(it);
  unwatch_if_unused(slot, out);
  out.reschedule = true;
  return out;
}

Outcome ScheddClaims::granted(const std::string& claim_id, Grant grant) {
  Outcome out;
  auto it = asking_.find(claim_id);
  if (it == asking_.end()) return out;
  Asking asked = std::move(it->second);
  asking_.erase(it);
  busy_.erase(asked.job);

  HeldClaim c;
  c.id = claim_id;
  c.slot = grant.slot;
  c.slot_name = grant.slot_name;
  c.slot_ad = grant.slot_ad.attributes().empty() ? std::move(asked.offer.slot_ad) : std::move(grant.slot_ad);
  // RemoteHost names the slot as the pool does: slot1_1@host.
  classad::Value full = classad::evaluate_attr(c.slot_ad, "Name");
  if (full.is_string()) c.slot_name = std::string(full.as_string());
  c.submitter = asked.offer.submitter;
  c.job_ids = std::move(asked.offer.job_ids);
  HeldClaim& held = held_.emplace(claim_id, std::move(c)).first->second;
  watch(held.slot, out);  // the dynamic slot carved for a preempting claim
  const std::string submitter = held.submitter;
  if (is_idle(asked.job) && !busy(asked.job))
    activate(held, asked.job, out);
  else
    reuse_or_release(claim_id, out);
  if (!grant.leftover_claim_id.empty()) {
    // Scheduler matchmaking (CLAIM_PARTITIONABLE_LEFTOVERS): the rest of
    // the partitionable slot for the submitter's next job that fits,
    // without waiting for a cycle; the claim of that one offers what is
    // left after it, and so on.
    Offer rest;
    rest.claim_id = std::move(grant.leftover_claim_id);
    rest.submitter = submitter;
    rest.slot_name = asked.offer.slot_name;
    rest.slot_ad = std::move(grant.leftover_ad);
    rest.slot = asked.offer.slot;
    append(out, offered(std::move(rest)));
  }
  unwatch_if_unused(asked.offer.slot, out);
  return out;
}

Outcome ScheddClaims::ended(const std::string& claim_id, const std::string& reason, std::int64_t now) {
  Outcome out;
  lose(claim_id, "the slot ended it: " + reason, now, out);
  return out;
}

Outcome ScheddClaims::slot_lost(SlotRef slot, const std::string& reason, std::int64_t now) {
  Outcome out;
  std::vector<std::string> lost;
  for (const auto& [id, c] : held_)
    if (c.slot == slot) lost.push_back(id);
  for (const std::string& id : lost) lose(id, "the slot is gone: " + reason, now, out);
  std::vector<std::string> unanswered;
  for (const auto& [id, a] : asking_)
    if (a.offer.slot == slot) unanswered.push_back(id);
  for (const std::string& id : unanswered) {
    append(out, refused(id));
  }
  return out;
}

// The job on a claim that ended without an exit: back to Idle.
void ScheddClaims::lose(const std::string& claim_id, const std::string& why, std::int64_t now, Outcome& out) {
  auto it = held_.find(claim_id);
  if (it == held_.end()) return;
  if (it->second.job) {
    const JobId job = *it->second.job;
    out.actions.push_back(Note{
        true, "claim on " + it->second.slot_name + " lost (" + why + "); job " + job.str() + " runs again"});
    busy_.erase(job);
    if (queue_->find(job)) {
      check(queue_->unbind_claim(job), out, [&] { return "job " + job.str() + ": its claim not forgotten"; });
      if (!is_idle(job))
        check(queue_->evict(job, now), out, [&] { return "job " + job.str() + " not put back to Idle"; });
    }
  }
  const SlotRef slot = it->second.slot;
  held_.erase(it);
  unwatch_if_unused(slot, out);
  out.queue_changed = true;
}

Outcome ScheddClaims::activated(const std::string& claim_id, JobId job, bool ok, std::int64_t now) {
  Outcome out;
  auto c = held_.find(claim_id);
  if (c != held_.end() && c->second.job != job) return out;  // its exit overtook the answer
  if (ok && c != held_.end()) {
    const Status s = queue_->start(job, c->second.slot_name, now);
    check(s, out, [&] { return "job " + job.str() + " not marked running on " + c->second.slot_name; });
    out.queue_changed = s.ok();
    return out;
  }
  busy_.erase(job);
  if (queue_->find(job)) {
    check(queue_->unbind_claim(job), out, [&] { return "job " + job.str() + ": its claim not forgotten"; });
    out.queue_changed = true;
  }
  if (c != held_.end()) {
    c->second.job.reset();
    release(claim_id, out);  // CLAIM_WORKLIFE over, or the slot will not run it
  }
  out.reschedule = true;
  return out;
}

Outcome ScheddClaims::job_ended(const std::string& claim_id, const JobEnd& end, std::int64_t now) {
  Outcome out;
  auto it = held_.find(claim_id);
  if (it == held_.end() || !it->second.job) return out;
  if (end.job && *end.job != *it->second.job) return out;
  HeldClaim& c = it->second;
  const JobId job = *c.job;
  c.job.reset();
  busy_.erase(job);
  auto who = [&] { return "job " + job.str() + " on " + c.slot_name; };
  if (queue_->find(job))
    check(queue_->unbind_claim(job), out, [&] { return who() + ": its claim not forgotten"; });
  // A quick job's exit can overtake the answer to its activation: it ran,
  // so it is started first (its events stay in order).
  if (is_idle(job) && end.error.empty())
    check(queue_->start(job, c.slot_name, now), out, [&] { return who() + " not marked running"; });
  if (!end.error.empty()) {
    check(queue_->hold(job, "Error from " + c.slot_name + ": " + end.error,
                       end.hold_code > 0 ? end.hold_code : kHoldStartFailed, 0, now),
          out, [&] { return who() + " not held"; });
  } else if (end.evicted) {
    check(queue_->evict(job, now), out, [&] { return who() + " not put back to Idle"; });
    c.ending = true;
  } else {
    check(queue_->complete(job, schedd::JobExit{end.by_signal, end.code}, now), out,
          [&] { return who() + ": its exit not recorded"; });
  }
  out.actions.push_back(Note{false, who() + ": " + describe(end)});
  out.queue_changed = true;
  reuse_or_release(claim_id, out);
  return out;
}

Outcome ScheddClaims::suspended(const std::string& claim_id, bool suspended, std::int64_t now) {
  Outcome out;
  auto it = held_.find(claim_id);
  if (it == held_.end() || !it->second.job) return out;
  const JobId job = *it->second.job;
  const Status s = suspended ? queue_->suspend(job, now) : queue_->unsuspend(job, now);
  check(s, out, [&] {
    return "job " + job.str() + (suspended ? " not marked suspended" : " not marked running again");
  });
  out.queue_changed = s.ok();
  return out;
}

Outcome ScheddClaims::stop_unwanted() {
  Outcome out;
  std::vector<std::string> unwanted;
  for (const auto& [id, c] : held_)
    if (c.job && !wanted(*queue_, *c.job)) unwanted.push_back(id);
  for (const std::string& id : unwanted) {
    HeldClaim& c = held_[id];
    const JobId job = *c.job;
    busy_.erase(job);
    if (queue_->find(job))
      check(queue_->unbind_claim(job), out, [&] { return "job " + job.str() + ": its claim not forgotten"; });
    const classad::ClassAd* ad = queue_->find(job);
    const auto status = ad ? schedd::job_status(*ad) : std::nullopt;
    out.actions.push_back(Note{false, "job " + job.str() + " on " + c.slot_name + " stopped: it is " +
                                          (status ? std::string(schedd::job_status_name(*status)) : "gone")});
    c.job.reset();
    release(id, out, true);
    out.queue_changed = true;
  }
  return out;
}

// The claim is recorded with the job before the activation goes out: a
// schedd that crashes after sending it finds the job's claim in its store
// and asks the slot (restored), so the job never runs twice at once.
void ScheddClaims::activate(HeldClaim& c, JobId job, Outcome& out) {
  if (!queue_->find(job)) return;
  busy_.insert(job);
  c.job = job;
  check(queue_->bind_claim(job, schedd::JobClaim{c.id, c.slot_name}), out,
        [&] { return "job " + job.str() + ": its claim not recorded"; });
  out.queue_changed = true;
  out.actions.push_back(Activate{c.id, c.slot, job});
}

void ScheddClaims::requeue(JobId job, const std::string& why, std::int64_t now, Outcome& out) {
  busy_.erase(job);
  out.reschedule = true;
  if (!queue_->find(job)) return;
  out.actions.push_back(Note{true, "job " + job.str() + " runs again: " + why});
  check(queue_->unbind_claim(job), out, [&] { return "job " + job.str() + ": its claim not forgotten"; });
  const auto status = schedd::job_status(*queue_->find(job));
  if (status == schedd::JobStatus::Running || status == schedd::JobStatus::Suspended)
    check(queue_->evict(job, now), out, [&] { return "job " + job.str() + " not put back to Idle"; });
  out.queue_changed = true;
}

Outcome ScheddClaims::restored(std::int64_t now) {
  Outcome out;
  std::vector<JobId> bound;
  for (const auto& [id, job] : queue_->jobs())
    if (schedd::job_claim(job)) bound.push_back(id);
  for (const JobId& id : bound) {
    const classad::ClassAd& job = *queue_->find(id);
    const schedd::JobClaim claim = *schedd::job_claim(job);
    const std::int64_t lease = schedd::job_lease_duration(job);
    if (lease <= 0) {
      requeue(id, "it has no lease (JobLeaseDuration) to outlive the schedd", now, out);
      continue;
    }
    busy_.insert(id);
    reconnecting_[claim.claim_id] = Reconnecting{id, claim.slot, schedd::submitter_name(job), now + lease};
    out.actions.push_back(Note{false, "job " + id.str() + ": reconnecting to its claim on " + claim.slot});
    out.actions.push_back(Reconnect{claim.claim_id, claim.slot, id, false});
  }
  return out;
}

Outcome ScheddClaims::reconnected(const std::string& claim_id, SlotRef slot, Reconnection answer,
                                  classad::ClassAd slot_ad, std::int64_t now) {
  Outcome out;
  auto it = reconnecting_.find(claim_id);
  if (it == reconnecting_.end()) return out;
  const Reconnecting r = std::move(it->second);
  reconnecting_.erase(it);
  if (answer == Reconnection::Gone || !queue_->find(r.job)) {
    requeue(r.job, "its claim on " + r.slot_name + " is gone", now, out);
    return out;
  }
  HeldClaim c;
  c.id = claim_id;
  c.slot = slot;
  c.slot_name = r.slot_name;
  c.slot_ad = std::move(slot_ad);
  c.submitter = r.submitter;
  held_.emplace(claim_id, std::move(c));
  watch(slot, out);
  if (answer == Reconnection::Idle) {
    // The slot never started the job: the claim is ours to reuse.
    requeue(r.job, "the claim on " + r.slot_name + " holds no job", now, out);
    reuse_or_release(claim_id, out);
    return out;
  }
  held_[claim_id].job = r.job;
  auto status = [&] { return schedd::job_status(*queue_->find(r.job)); };
  auto who = [&] { return "job " + r.job.str() + " on " + r.slot_name; };
  // The activation reached the slot before the old schedd heard back.
  if (status() == schedd::JobStatus::Idle && answer != Reconnection::Exited)
    check(queue_->start(r.job, r.slot_name, now), out, [&] { return who() + " not marked running"; });
  if (answer == Reconnection::Suspended && status() == schedd::JobStatus::Running)
    check(queue_->suspend(r.job, now), out, [&] { return who() + " not marked suspended"; });
  if (answer == Reconnection::Running && status() == schedd::JobStatus::Suspended)
    check(queue_->unsuspend(r.job, now), out, [&] { return who() + " not marked running again"; });
  out.actions.push_back(Note{false, who() + ": reconnected to its claim"});
  out.queue_changed = true;
  // Held or removed while the schedd was away: it leaves the slot now.
  if (!wanted(*queue_, r.job)) append(out, stop_unwanted());
  return out;
}

Outcome ScheddClaims::reconnect_failed(const std::string& claim_id, const std::string& reason,
                                       std::int64_t now) {
  Outcome out;
  auto it = reconnecting_.find(claim_id);
  if (it == reconnecting_.end()) return out;
  if (now >= it->second.deadline) {
    const Reconnecting r = std::move(it->second);
    reconnecting_.erase(it);
    requeue(r.job, "its lease ran out before " + r.slot_name + " could be reached (" + reason + ")", now,
            out);
    return out;
  }
  out.actions.push_back(Reconnect{claim_id, it->second.slot_name, it->second.job, true});
  return out;
}

// Reuse the claim for another job, or give it back.
void ScheddClaims::reuse_or_release(const std::string& claim_id, Outcome& out) {
  auto it = held_.find(claim_id);
  if (it == held_.end() || it->second.ending) return;
  if (auto next = next_job(it->second.submitter, it->second.job_ids, it->second.slot_ad))
    activate(it->second, *next, out);
  else
    release(claim_id, out);
}

void ScheddClaims::release(const std::string& claim_id, Outcome& out, bool at_once) {
  auto it = held_.find(claim_id);
  if (it == held_.end()) return;
  const SlotRef slot = it->second.slot;
  out.actions.push_back(Release{claim_id, slot, at_once});
  held_.erase(it);
  unwatch_if_unused(slot, out);
  out.claims_changed = true;
}

// A slot is watched once while any claim is on it or asked of it: claims
// on a partitionable slot share it, and one unwatch drops every watch. A
// count per slot keeps this O(log n) per claim (a scan of every claim
// made a cycle of n matches quadratic).
void ScheddClaims::watch(SlotRef slot, Outcome& out) {
  if (++watched_[slot] == 1) out.actions.push_back(Watch{slot});
}

void ScheddClaims::unwatch_if_unused(SlotRef slot, Outcome& out) {
  auto it = watched_.find(slot);
  if (it == watched_.end() || --it->second > 0) return;
  watched_.erase(it);
  out.actions.push_back(Unwatch{slot});
}

}  // namespace cara::claim
