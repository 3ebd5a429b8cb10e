// How a startd splits its partitionable slots (policy-configuration-ep-ap,
// "Partitionable slots"; startd.h): a claim carves a dynamic slot sized for
// the job, the partitionable slot advertises what it has left, and with
// ALLOW_PSLOT_PREEMPTION a claim waits for the dynamic slots it preempts.
#include <algorithm>

#include "model/startd/startd.h"

namespace cara::startd {

Result<classad::ClassAd> Startd::base_ad(const SlotDescription& d) {
  const std::tuple<int, int, int> key{d.id, d.type, static_cast<int>(d.kind)};
  auto it = ad_knobs_.find(key);
  if (it == ad_knobs_.end()) {
    auto knobs = slot_ad_knobs(config_, machine_, d.id, d.type, d.kind);
    if (!knobs) return Error{knobs.error()};
    it = ad_knobs_.emplace(key, std::move(*knobs)).first;
  }
  return base_slot_ad(it->second, machine_, d);
}

// The partitionable slot advertises what it has left: only its amounts
// change (its other attributes are the configuration's and the machine's).
void Startd::refresh_partition(Entry& parent, std::int64_t now) {
  parent.description.resources = parent.partition->available();
  parent.slot->set_offered(offered_amounts(machine_, parent.description), now);
}

Result<Startd::Entry*> Startd::carve(Entry& parent, const ClaimRequest& claim, std::int64_t now) {
  auto want = parent.partition->request_of(claim.job, parent.slot->ad(), *parent.carve_policy,
                                           classad::EvalEnv{now, local_offset_, nullptr, nullptr});
  if (!want) return Error{want.error()};
  // The job must be willing to run on what it would get, and the
  // partitionable slot's START must accept it.
  auto dynamic = parent.partition->carve(*want);
  if (!dynamic) return Error{"the partitionable slot has not enough left for this job"};
  Entry e;
  e.description.kind = SlotKind::Dynamic;
  e.description.id = parent.description.id;
  e.description.type = parent.description.type;
  e.description.sub_id = dynamic->sub_id;
  e.description.resources = dynamic->resources;
  e.description.slot_total = dynamic->resources;
  e.description.custom_ids = dynamic->custom_ids;
  auto base = base_ad(e.description);
  // The dynamic slots of one slot type evaluate one policy, read from the
  // configuration once (a simulated year carves a million of them).
  const std::pair<int, int> type{parent.description.id, parent.description.type};
  std::shared_ptr<const SlotPolicy>& policy = carved_policies_[type];
  Status read = Ok{};
  if (!policy) {
    auto p = SlotPolicy::from_config(config_, type.first, type.second);
    if (p)
      policy = shared_policy(std::move(*p));
    else
      read = Error{p.error()};
  }
  if (!base || !read) {
    if (!policy) carved_policies_.erase(type);
    parent.partition->release(*dynamic);
    return Error{!base ? base.error() : read.error()};
  }
  e.slot = std::make_unique<Slot>(std::move(*base), policy, now, local_offset_);
  e.slot->chain_to(machine_ad_);
  const std::string parent_name = parent.description.short_name();
  slots_.push_back(std::move(e));  // `parent` may move: find it again
  ++layout_version_;
  Entry* added = &slots_.back();
  refresh_partition(*find(parent_name), now);
  return added;
}

// A claim on a partitionable slot: a dynamic slot carved for the job, or
// room made for it by preempting the dynamic slots the negotiator chose.
void Startd::claim_partition(Entry& parent, const ClaimRequest& claim, std::int64_t now, StartdResult& out) {
  const std::string name = parent.description.short_name();
  // Only a job the partitionable slot would START gets a dynamic slot.
  if (!parent.slot->would_start(claim.job)) {
    out.actions.push_back(StartdAction{
        name, SlotAction{ActionKind::RefuseClaim, claim.claim_id, "START is not true for this job"}});
    return;
  }
  auto dyn = carve(parent, claim, now);
  if (dyn) {
    collect((*dyn)->description.short_name(), (*dyn)->slot->step(claim, now), out);
    return;
  }
  if (claim.preempt_dslots.empty()) {
    out.actions.push_back(
        StartdAction{name, SlotAction{ActionKind::RefuseClaim, claim.claim_id, dyn.error()}});
    return;
  }
  preempt_for(parent, claim, now, out);
}

// "When the condor_schedd claims the partitionable slot, the dynamic slots
// are preempted, such that their resources are returned to the
// partitionable slot for use by the new job" (policy-configuration,
// pslot preemption). Each named slot must be a busy dynamic slot of
// `parent`, and their resources with what is free must fit the job.
void Startd::preempt_for(Entry& parent, const ClaimRequest& claim, std::int64_t now, StartdResult& out) {
  const std::string name = parent.description.short_name();
  auto refuse = [&](const std::string& why) {
    out.actions.push_back(StartdAction{name, SlotAction{ActionKind::RefuseClaim, claim.claim_id, why}});
  };
  auto want = parent.partition->request_of(claim.job, parent.slot->ad(), *parent.carve_policy,
                                           classad::EvalEnv{now, local_offset_, nullptr, nullptr});
  if (!want) return refuse(want.error());
  Resources room = parent.partition->available();
  std::vector<std::string> victims;
  for (const std::string& full : claim.preempt_dslots) {
    const std::string v = full.substr(0, full.find('@'));
    Entry* d = find(v);
    if (!d || d->description.kind != SlotKind::Dynamic || d->description.id != parent.description.id ||
        d->slot->state() != State::Claimed)
      return refuse(v + " is not a claimed dynamic slot of " + name + ": nothing to preempt");
    if (std::find(victims.begin(), victims.end(), v) != victims.end()) continue;
    victims.push_back(v);
    room += d->description.resources;
  }
  if (!want->fits_within(room))
    return refuse("preempting " + std::to_string(victims.size()) +
                  " dynamic slots would still leave too little for this job");
  for (const std::string& v : victims) collect(v, find(v)->slot->step(EvictForPartition{}, now), out);
  out.actions.push_back(
      StartdAction{name, SlotAction{ActionKind::ClaimPending, claim.claim_id, "preempting dynamic slots"}});
  waiting_.push_back(WaitingCarve{name, claim, std::move(victims)});
}

// Claims whose preempted dynamic slots are all gone get their own.
void Startd::carve_waiting(std::int64_t now, StartdResult& out) {
  for (std::size_t i = 0; i < waiting_.size();) {
    WaitingCarve& w = waiting_[i];
    std::erase_if(w.victims, [this](const std::string& v) { return find(v) == nullptr; });
    if (!w.victims.empty()) {
      ++i;
      continue;
    }
    const WaitingCarve done = std::move(w);
    waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(i));
    Entry* parent = find(done.parent);
    std::string why;
    if (!parent || !parent->slot->would_start(done.claim.job)) {
      why = "START is no longer true for this job";
    } else if (auto dyn = carve(*parent, done.claim, now)) {
      StepResult step = (*dyn)->slot->step(done.claim, now);
      // Nobody waits for a refusal now: the claim ends.
      for (SlotAction& a : step.actions)
        if (a.kind == ActionKind::RefuseClaim)
          a = SlotAction{ActionKind::ClaimEnded, done.claim.claim_id, a.reason};
      collect((*dyn)->description.short_name(), std::move(step), out);
      continue;
    } else {
      why = dyn.error();
    }
    out.actions.push_back(
        StartdAction{done.parent, SlotAction{ActionKind::ClaimEnded, done.claim.claim_id, why}});
  }
}

}  // namespace cara::startd
