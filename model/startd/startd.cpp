#include "model/startd/startd.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>

#include "model/classad/eval.h"
#include "model/startd/slot_layout.h"
#include "model/startd/slot_policy.h"

namespace cara::startd {

Result<std::unique_ptr<Startd>> Startd::create(const config::Config& config, std::int64_t now,
                                               std::int32_t local_offset) {
  auto machine = machine_resources(config);
  if (!machine) return Error{machine.error()};
  auto plans = plan_slots(config, *machine);
  if (!plans) return Error{plans.error()};
  std::unique_ptr<Startd> s(new Startd(config, std::move(*machine), local_offset));
  auto attrs = config.list("STARTD_SLOT_ATTRS");
  if (!attrs) return Error{attrs.error()};
  s->slot_attrs_ = *attrs;
  for (const SlotPlan& p : *plans) {
    Entry e;
    e.description.kind = p.partitionable ? SlotKind::Partitionable : SlotKind::Static;
    e.description.id = p.id;
    e.description.type = p.type;
    e.description.resources = p.resources;
    e.description.slot_total = p.resources;
    e.description.custom_ids = p.custom_ids;
    auto base = base_slot_ad(s->config_, s->machine_, e.description);
    if (!base) return Error{base.error()};
    auto policy = SlotPolicy::from_config(s->config_, p.id, p.type);
    if (!policy) return Error{policy.error()};
    if (p.partitionable) {
      e.partition = std::make_unique<PartitionableSlot>(p.id, s->machine_, p.resources, p.custom_ids);
      auto carve = CarvePolicy::from_config(s->config_, p.id, p.type);
      if (!carve) return Error{carve.error()};
      e.carve_policy = std::move(*carve);
    }
    e.slot =
        std::make_unique<Slot>(std::move(*base), s->shared_policy(std::move(*policy)), now, local_offset);
    s->slots_.push_back(std::move(e));
  }
  // Each slot starts in Owner and is evaluated at once, as HTCondor's
  // startd does when it starts: with IS_OWNER false it is Unclaimed before
  // its first ad goes out (policy-configuration, Owner state, A/1).
  s->tick(now);
  s->share_common_attributes();
  s->clock_ = now;
  return s;
}

// The slots of a machine have most attributes alike (all but Name and
// SlotID on a machine of equal slots): those live once, in the machine ad
// the slot ads chain to (TARGETS.md: memory per slot).
void Startd::share_common_attributes() {
  std::vector<const classad::ClassAd*> ads;
  for (const Entry& e : slots_) ads.push_back(&e.slot->ad());
  machine_ad_ = classad::ClassAd::common_part(ads);
  for (Entry& e : slots_) e.slot->chain_to(machine_ad_);
}

std::shared_ptr<const SlotPolicy> Startd::shared_policy(SlotPolicy policy) {
  for (const auto& p : policies_)
    if (*p == policy) return p;
  policies_.push_back(std::make_shared<const SlotPolicy>(std::move(policy)));
  return policies_.back();
}

bool Startd::has_running_jobs() const {
  for (const Entry& e : slots_) {
    const State s = e.slot->state();
    const Activity a = e.slot->activity();
    if (s == State::Preempting || (s == State::Claimed && a != Activity::Idle) ||
        (s == State::Backfill && a != Activity::Idle))
      return true;
  }
  return false;
}

void Startd::update_machine_ad(const classad::ClassAd& attrs, bool drain_figures) {
  const classad::ClassAd before = machine_ad_;  // a copy shares: no cost
  for (const classad::Attribute& a : attrs.attributes()) machine_ad_.insert(a);
  if (machine_ad_.shares_with(before)) return;  // nothing new
  machine_ad_.shrink_to_fit();
  for (Entry& e : slots_)
    drain_figures ? e.slot->rechain_after_drain_figures(machine_ad_) : e.slot->rechain(machine_ad_);
}

void Startd::advance_clock(std::int64_t now) {
  if (now <= clock_) return;
  clock_ = now;
  classad::ClassAd clock;
  set_clock_attributes(clock, now, local_offset_);
  set_machine_attributes(clock);
}

namespace {

// The resources that make a layout. Disk and swap are not: they are
// measured free space, which moves between two readings of the same
// configuration.
bool same_layout_resources(const Resources& a, const Resources& b) {
  return a.cpus == b.cpus && a.memory == b.memory && a.custom == b.custom;
}

}  // namespace

Status Startd::reconfigure(const config::Config& config, std::int64_t now) {
  auto machine = machine_resources(config);
  if (!machine) return Error{machine.error()};
  auto plans = plan_slots(config, *machine);
  if (!plans) return Error{plans.error()};
  auto attrs = config.list("STARTD_SLOT_ATTRS");
  if (!attrs) return Error{attrs.error()};
  // The static and partitionable slots as they were laid out at start.
  std::vector<const Entry*> laid_out;
  for (const Entry& e : slots_)
    if (e.description.kind != SlotKind::Dynamic) laid_out.push_back(&e);
  bool same_layout = laid_out.size() == plans->size();
  for (std::size_t i = 0; same_layout && i < laid_out.size(); ++i) {
    const SlotDescription& d = laid_out[i]->description;
    const SlotPlan& p = (*plans)[i];
    same_layout = d.id == p.id && d.type == p.type &&
                  (d.kind == SlotKind::Partitionable) == p.partitionable &&
                  same_layout_resources(d.slot_total, p.resources);
  }
  if (!same_layout)
    return Error{
        "the slot layout changed (NUM_SLOTS, SLOT_TYPE_<N>, NUM_CPUS, MEMORY, ...): restart the startd "
        "to apply it"};
  // Everything is built first: an error leaves the slots as they were.
  struct Next {
    classad::ClassAd base;
    SlotPolicy policy;
    std::optional<CarvePolicy> carve;
  };
  std::vector<Next> next;
  for (const Entry& e : slots_) {
    auto base = base_slot_ad(config, *machine, e.description);
    if (!base) return Error{e.description.short_name() + ": " + base.error()};
    auto policy = SlotPolicy::from_config(config, e.description.id, e.description.type);
    if (!policy) return Error{e.description.short_name() + ": " + policy.error()};
    Next n{std::move(*base), std::move(*policy), std::nullopt};
    if (e.partition) {
      auto carve = CarvePolicy::from_config(config, e.description.id, e.description.type);
      if (!carve) return Error{e.description.short_name() + ": " + carve.error()};
      n.carve = std::move(*carve);
    }
    next.push_back(std::move(n));
  }
  config_ = config;
  machine_ = std::move(*machine);
  slot_attrs_ = std::move(*attrs);
  policies_.clear();
  carved_policies_.clear();
  ad_knobs_.clear();
  advance_clock(now);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Entry& e = slots_[i];
    e.slot->set_policy(shared_policy(std::move(next[i].policy)));
    e.slot->set_base(std::move(next[i].base), now);
    if (e.partition) e.carve_policy = std::move(next[i].carve);
  }
  if (!slot_attrs_.empty()) publish_slot_attrs();
  share_common_attributes();
  return Ok{};
}

std::vector<std::string> Startd::slot_names() const {
  std::vector<std::string> names;
  for_each_slot([&](std::string name, const Slot&) { names.push_back(std::move(name)); });
  return names;
}

void Startd::for_each_slot(const std::function<void(std::string name, const Slot& slot)>& visit) const {
  visit_slots([&](const SlotDescription& d, const Slot& slot) { visit(d.short_name(), slot); });
}

void Startd::visit_slots(
    const std::function<void(const SlotDescription& slot, const Slot& state)>& visit) const {
  std::vector<const Entry*> order;
  order.reserve(slots_.size());
  for (const Entry& e : slots_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(), [](const Entry* a, const Entry* b) {
    return std::pair(a->description.id, a->description.sub_id) <
           std::pair(b->description.id, b->description.sub_id);
  });
  for (const Entry* e : order) visit(e->description, *e->slot);
}

namespace {

// What a short name stands for: "slot3" is SlotID 3, "slot3_2" its dynamic
// slot 2. Compared as numbers: building every slot's name on each lookup
// made a call to a 250-slot machine cost 250 string allocations.
struct ShortName {
  int id = 0, sub_id = 0;
  bool dynamic = false;
};

std::optional<ShortName> parse_short_name(std::string_view name) {
  constexpr std::string_view prefix = "slot";
  if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
  ShortName n;
  const char* end = name.data() + name.size();
  auto [p, ec] = std::from_chars(name.data() + prefix.size(), end, n.id);
  if (ec != std::errc()) return std::nullopt;
  if (p != end) {
    if (*p != '_') return std::nullopt;
    n.dynamic = true;
    auto [q, ec2] = std::from_chars(p + 1, end, n.sub_id);
    if (ec2 != std::errc() || q != end) return std::nullopt;
  }
  return n;
}

bool names(const SlotDescription& d, const ShortName& n) {
  if (d.id != n.id) return false;
  return d.kind == SlotKind::Dynamic ? n.dynamic && d.sub_id == n.sub_id : !n.dynamic;
}

}  // namespace

Startd::Entry* Startd::find(const std::string& name) {
  auto n = parse_short_name(name);
  if (!n) return nullptr;
  for (Entry& e : slots_) {
    if (names(e.description, *n)) return &e;
  }
  return nullptr;
}

const Slot* Startd::slot(const std::string& name) const {
  auto n = parse_short_name(name);
  if (!n) return nullptr;
  for (const Entry& e : slots_) {
    if (names(e.description, *n)) return e.slot.get();
  }
  return nullptr;
}

void Startd::collect(const std::string& name, StepResult step, StartdResult& out) {
  for (SlotAction& a : step.actions) out.actions.push_back(StartdAction{name, std::move(a)});
  for (std::string& t : step.transitions) out.transitions.emplace_back(name, std::move(t));
}

StartdResult Startd::deliver(const std::string& name, const SlotEvent& event, std::int64_t now) {
  StartdResult out;
  advance_clock(now);
  Entry* e = find(name);
  if (!e) {
    out.actions.push_back(StartdAction{name, SlotAction{ActionKind::RefuseClaim, "", "no slot " + name}});
    return out;
  }
  if (e->partition) {
    if (const auto* claim = std::get_if<ClaimRequest>(&event)) {
      claim_partition(*e, *claim, now, out);
      after(out, now);
      return out;
    }
    if (std::holds_alternative<MatchNotified>(event)) return out;  // a pslot is never Matched
    if (const auto* release = std::get_if<ReleaseClaim>(&event)) {
      // A claim waiting for preempted dynamic slots is withdrawn; they
      // are on their way out already and give their resources back.
      auto w = std::find_if(waiting_.begin(), waiting_.end(),
                            [&](const WaitingCarve& c) { return c.claim.claim_id == release->claim_id; });
      if (w != waiting_.end()) {
        out.actions.push_back(
            StartdAction{name, SlotAction{ActionKind::ClaimEnded, release->claim_id, "claim withdrawn"}});
        waiting_.erase(w);
      }
      return out;
    }
  }
  collect(name, e->slot->step(event, now), out);
  after(out, now);
  return out;
}

StartdResult Startd::tick(std::int64_t now) {
  StartdResult out;
  advance_clock(now);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    collect(slots_[i].description.short_name(), slots_[i].slot->step(Tick{}, now), out);
  }
  after(out, now);
  return out;
}

StartdResult Startd::sensors(const MachineReadings& r, std::int64_t now) {
  StartdResult out;
  advance_clock(now);
  std::vector<double> condor;
  std::vector<bool> owner;
  for (const Entry& e : slots_) {
    auto it = r.condor_load.find(e.description.short_name());
    condor.push_back(it == r.condor_load.end() ? 0.0 : it->second);
    owner.push_back(e.slot->state() == State::Owner);
  }
  std::vector<double> loads = distribute_load(r.total_load, condor, owner);
  double total_condor = 0;
  for (double c : condor) total_condor += c;
  // The machine-wide readings go to the machine ad first: each slot then
  // sets what its ad already shows.
  classad::ClassAd wide = r.machine;
  wide.set("TotalLoadAvg", r.total_load);
  wide.set("TotalCondorLoadAvg", total_condor);
  set_machine_attributes(wide);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    classad::ClassAd readings = wide;
    readings.set("LoadAvg", loads[i]);
    readings.set("CondorLoadAvg", condor[i]);
    collect(slots_[i].description.short_name(), slots_[i].slot->step(SensorUpdate{std::move(readings)}, now),
            out);
  }
  after(out, now);
  return out;
}

StartdResult Startd::drain(const DrainOrder& order, std::int64_t now) {
  StartdResult out;
  advance_clock(now);
  draining_ = true;
  drain_waits_ = order.schedule == DrainSchedule::Graceful && order.start_expr != nullptr;
  all_drained_sent_ = false;
  resume_on_completion_ = order.resume_on_completion;
  classad::ClassAd reason;
  reason.set("DrainReason", order.reason.empty() ? std::string("by command") : order.reason);
  set_machine_attributes(reason);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    collect(slots_[i].description.short_name(),
            slots_[i].slot->step(Drain{order.schedule, order.start_expr}, now), out);
  }
  after(out, now);
  return out;
}

Result<StartdResult> Startd::vacate(const std::string& slot, bool fast, std::int64_t now) {
  if (!slot.empty() && !find(slot)) return Error{"no slot " + slot + " on this machine"};
  StartdResult out;
  advance_clock(now);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const std::string name = slots_[i].description.short_name();
    if (slot.empty() || name == slot) collect(name, slots_[i].slot->step(Vacate{fast}, now), out);
  }
  after(out, now);
  return out;
}

StartdResult Startd::cancel_drain(std::int64_t now) {
  StartdResult out;
  advance_clock(now);
  finish_drain(now, out);
  after(out, now);
  return out;
}

// The drain ends (cancelled, or drained with resume on completion): the
// slots go back to work (O/34, O/35) and DrainReason leaves the ads.
void Startd::finish_drain(std::int64_t now, StartdResult& out) {
  draining_ = false;
  drain_waits_ = false;
  resume_on_completion_ = false;
  if (machine_ad_.erase("DrainReason"))
    for (Entry& e : slots_) e.slot->rechain(machine_ad_);
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    collect(slots_[i].description.short_name(), slots_[i].slot->step(CancelDrain{}, now), out);
  }
}

// After any step: dynamic slots whose claim ended go away, sibling
// attributes are republished (and slots re-evaluated once so that a policy
// reading another slot's state reacts now), and a finished drain is
// announced.
void Startd::after(StartdResult& out, std::int64_t now) {
  for (std::size_t i = 0; i < slots_.size();) {
    Entry& e = slots_[i];
    const State s = e.slot->state();
    if (e.description.kind == SlotKind::Dynamic && e.slot->claim_id().empty() && s != State::Claimed &&
        s != State::Preempting && s != State::Matched) {
      const int parent_id = e.description.id;
      DynamicSlot d;
      d.parent_id = parent_id;
      d.sub_id = e.description.sub_id;
      d.resources = e.description.resources;
      d.custom_ids = e.description.custom_ids;
      gone_badput_ += e.slot->drain_badput();
      gone_unclaimed_ += e.slot->drain_unclaimed();
      slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
      ++layout_version_;
      for (Entry& p : slots_) {
        if (p.partition && p.description.id == parent_id) {
          p.partition->release(d);
          refresh_partition(p, now);
        }
      }
      continue;
    }
    ++i;
  }
  if (!waiting_.empty()) carve_waiting(now, out);
  if (!slot_attrs_.empty()) {
    publish_slot_attrs();
    for (Entry& e : slots_) collect(e.description.short_name(), e.slot->step(Tick{}, now), out);
    publish_slot_attrs();
  }
  // DEFRAG_DRAINING_START_EXPR: "when the last retiring job finishes ...
  // all other jobs on machine will be evicted with a retirement time of 0"
  // and START becomes False.
  if (drain_waits_ && std::none_of(slots_.begin(), slots_.end(),
                                   [](const Entry& e) { return e.slot->holds_pre_drain_claim(); })) {
    drain_waits_ = false;
    for (Entry& e : slots_)
      collect(e.description.short_name(), e.slot->step(Drain{DrainSchedule::Quick, nullptr}, now), out);
  }
  if (draining_ && !all_drained_sent_ && std::all_of(slots_.begin(), slots_.end(), [](const Entry& e) {
        return e.slot->state() == State::Drained;
      })) {
    all_drained_sent_ = true;
    for (Entry& e : slots_) collect(e.description.short_name(), e.slot->step(AllSlotsDrained{}, now), out);
    if (resume_on_completion_) finish_drain(now, out);
  }
  publish_drain_figures(now);
}

void Startd::publish_drain_figures(std::int64_t now) {
  double badput = gone_badput_, unclaimed = gone_unclaimed_;
  Slot::DrainForecast machine;
  for (const Entry& e : slots_) {
    badput += e.slot->drain_badput();
    unclaimed += e.slot->drain_unclaimed();
    const Slot::DrainForecast f = e.slot->drain_forecast();
    machine.graceful_seconds = std::max(machine.graceful_seconds, f.graceful_seconds);
    machine.quick_seconds = std::max(machine.quick_seconds, f.quick_seconds);
    machine.graceful_badput += f.graceful_badput;
    machine.quick_badput += f.quick_badput;
  }
  auto whole = [](double v) { return static_cast<std::int64_t>(std::llround(v)); };
  // Set after every event of every machine: the names interned once.
  using classad::intern_spelling;
  static const classad::Interned names[] = {intern_spelling("TotalMachineDrainingBadput"),
                                            intern_spelling("TotalMachineDrainingUnclaimedTime"),
                                            intern_spelling("ExpectedMachineGracefulDrainingCompletion"),
                                            intern_spelling("ExpectedMachineGracefulDrainingBadput"),
                                            intern_spelling("ExpectedMachineQuickDrainingCompletion"),
                                            intern_spelling("ExpectedMachineQuickDrainingBadput")};
  classad::ClassAd figures;
  figures.set(names[0], whole(badput));
  figures.set(names[1], whole(unclaimed));
  figures.set(names[2], now + whole(std::ceil(machine.graceful_seconds)));
  figures.set(names[3], whole(machine.graceful_badput));
  figures.set(names[4], now + whole(std::ceil(machine.quick_seconds)));
  figures.set(names[5], whole(machine.quick_badput));
  update_machine_ad(figures, true);
}

// slot<N>_<attr> is the same in every slot ad: the machine ad holds it.
void Startd::publish_slot_attrs() {
  classad::ClassAd values;
  for (const Entry& e : slots_) {
    for (const std::string& attr : slot_attrs_) {
      const classad::Attribute* a = e.slot->ad().find(attr);
      if (a) values.insert(e.description.short_name() + "_" + attr, a->expr);
    }
  }
  set_machine_attributes(values);
}

std::optional<std::int64_t> Startd::next_deadline() const {
  std::optional<std::int64_t> best;
  for (const Entry& e : slots_) {
    auto d = e.slot->next_deadline();
    if (d && (!best || *d < *best)) best = d;
  }
  return best;
}

}  // namespace cara::startd
