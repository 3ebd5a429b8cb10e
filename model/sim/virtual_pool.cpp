#include "model/sim/virtual_pool.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

#include "model/accounting/accountant_config.h"
#include "model/claim/claim_id.h"
#include "model/claim/cycle_claims.h"
#include "model/classad/eval.h"
#include "model/negotiation/significant_attributes.h"
#include "model/schedd/job_actions.h"
#include "model/schedd/job_order.h"
#include "model/sim/pool_engine.h"

namespace cara::sim {

namespace {

using Engine = VirtualPool::Engine;

// A node's configuration: the pool's layers, then its own, read as the
// daemon `subsystem` on a host named `host`.
Result<std::unique_ptr<config::Config>> node_config(const std::vector<config::TextLayer>& common,
                                                    const std::vector<config::TextLayer>& own,
                                                    const std::string& subsystem, const std::string& host,
                                                    std::uint64_t seed) {
  std::vector<config::TextLayer> layers = common;
  layers.insert(layers.end(), own.begin(), own.end());
  auto c = config::host_config_from_layers(layers, {subsystem, ""}, host, seed);
  if (!c) return Error{c.error()};
  return std::make_unique<config::Config>(std::move(*c));
}

// A slot policy expression that is not a constant may turn true as time
// passes (PREEMPT = $(ActivationTimer) > 3*$(DAY)).
bool varies(const classad::ExprPtr& e) {
  return e && !e->is_literal();
}

bool time_dependent(const startd::SlotPolicy& p) {
  for (const startd::PolicyExprs* x : {&p.normal, &p.vanilla})
    for (const classad::ExprPtr* e :
         {&x->want_suspend, &x->suspend, &x->continue_job, &x->preempt, &x->want_vacate, &x->kill})
      if (varies(*e)) return true;
  return varies(p.is_owner) || varies(p.max_job_retirement_time) || varies(p.claim_worklife);
}

// The negotiator's policy, accountant settings and groups from `layers`,
// taken only when all of them read (at start, and at a reconfiguration).
Status configure_central_manager(Engine& e, std::vector<config::TextLayer> layers, bool starting) {
  auto cm = node_config(e.common, layers, "NEGOTIATOR", "cm", e.seed);
  if (!cm) return Error{"the central manager: " + cm.error()};
  auto policy = negotiation::NegotiatorPolicy::from_config(**cm);
  if (!policy) return Error{"the central manager: " + policy.error()};
  auto acc = accounting::AccountantConfig::from_config(**cm);
  if (!acc) return Error{"the central manager: " + acc.error()};
  auto groups = accounting::GroupTree::from_config(**cm);
  if (!groups) return Error{"the central manager: " + groups.error()};
  e.cm_layers = std::move(layers);
  e.cm_config = std::move(*cm);
  e.policy = std::move(*policy);
  if (starting)
    e.accountant.emplace(std::move(*acc), e.now);
  else
    e.accountant->reconfigure(std::move(*acc), e.now);
  // As the negotiator actor: no groups without GROUP_NAMES.
  e.groups.reset();
  if (groups->nodes().size() > 1) e.groups = std::move(*groups);
  return Ok{};
}

// The schedd's settings and queue policy from `layers`; the queue is made
// at start and takes the new policy at a reconfiguration (its jobs stay).
Status configure_access_point(Engine& e, std::vector<config::TextLayer> layers, bool starting) {
  auto ap = node_config(e.common, layers, "SCHEDD", "ap", e.seed);
  if (!ap) return Error{"the access point: " + ap.error()};
  auto settings = schedd::ScheddSettings::from_config(**ap);
  if (!settings) return Error{"the access point: " + settings.error()};
  auto policy = schedd::QueuePolicy::from_config(**ap, settings->name);
  if (!policy) return Error{"the access point: " + policy.error()};
  e.ap_layers = std::move(layers);
  e.schedd_settings = std::move(*settings);
  if (starting) {
    e.queue.emplace(std::move(*policy), "<" + e.schedd_settings.name + ">", classad::EvalEnv{});
    e.claims.emplace(*e.queue);
  } else {
    e.queue->set_policy(std::move(*policy));
  }
  e.ap_config = std::move(*ap);  // after the policy that points into it
  return Ok{};
}

// What a machine's slots say of it: whether a policy expression may turn
// with time, and its cores.
double survey(Machine& m) {
  double cores = 0;
  m.polled = false;
  for (const std::string& n : m.startd->slot_names()) {
    const startd::Slot* s = m.startd->slot(n);
    if (time_dependent(s->policy())) m.polled = true;
    classad::Value dynamic = classad::evaluate_attr(s->ad(), "DynamicSlot");
    classad::Value cpus = classad::evaluate_attr(s->ad(), "Cpus");
    if (cpus.is_int() && !(dynamic.is_bool() && dynamic.as_bool()))
      cores += static_cast<double>(cpus.as_int());
  }
  return cores;
}

Status start_machine(Engine& e, const MachineSetup& m) {
  auto c = node_config(e.common, m.config, "STARTD", m.name, e.seed);
  if (!c) return Error{"machine " + m.name + ": " + c.error()};
  auto model = startd::Startd::create(**c, e.now);
  if (!model) return Error{"machine " + m.name + ": " + model.error()};
  auto poll = (*c)->integer("POLLING_INTERVAL");
  Machine machine;
  machine.name = m.name;
  machine.layers = m.config;
  machine.startd = std::move(*model);
  if (poll && *poll > 0) machine.poll_interval = *poll;
  classad::ClassAd attrs;
  attrs.set("DaemonStartTime", e.now);
  machine.startd->set_machine_attributes(attrs);
  machine.cores = survey(machine);
  e.total_cores += machine.cores;
  e.machines.push_back(std::move(machine));
  e.dirty.push_back(e.machines.size() - 1);  // its slots go on the board at the next cycle
  return Ok{};
}

// condor_reconfig of one startd: the slots take the new policy, then act
// on it at once (actors/startd.cpp, Reconfigure).
Status reconfigure_machine(Engine& e, std::size_t mi, std::vector<config::TextLayer> layers) {
  Machine& m = e.machines[mi];
  auto c = node_config(e.common, layers, "STARTD", m.name, e.seed);
  if (!c) return Error{"machine " + m.name + ": " + c.error()};
  if (Status s = m.startd->reconfigure(**c, e.now); !s) return Error{"machine " + m.name + ": " + s.error()};
  auto poll = (*c)->integer("POLLING_INTERVAL");
  if (poll && *poll > 0) m.poll_interval = *poll;
  m.layers = std::move(layers);
  m.whole = true;  // the startd actor advertises every slot after a reconfiguration
  survey(m);
  e.dispatch(mi, m.startd->tick(e.now), nullptr);
  return Ok{};
}

}  // namespace

// ---- the clock --------------------------------------------------------

void Engine::at(std::int64_t when, TimerKind kind, std::uint64_t arg) {
  timers.push(Timer{std::max(when, now), ++timer_seq, kind, arg});
}

void Engine::deliver_mail() {
  while (!mail.empty()) {
    auto m = std::move(mail.front());
    mail.pop_front();
    ++counters.events;
    m();
    settle_queue();
  }
  for (claim::SlotRef ref : unwatched) forget_ref(ref);
  unwatched.clear();
}

void Engine::notify(PoolEvent ev) {
  if (observer) observer(ev);
}

void Engine::fire(const Timer& t) {
  ++counters.events;
  switch (t.kind) {
    case TimerKind::Cycle:
      if (!cycle_at || *cycle_at != t.at) return;  // replaced by an earlier one
      cycle_at.reset();
      cycle();
      break;
    case TimerKind::Deadline: {
      Machine& m = machines[t.arg];
      if (m.gone) return;
      if (!m.deadline_at || *m.deadline_at != t.at) return;
      m.deadline_at.reset();
      dispatch(t.arg, m.startd->tick(now), nullptr);
      break;
    }
    case TimerKind::Poll: {
      machines[t.arg].poll_pending = false;
      if (machines[t.arg].gone) return;
      dispatch(t.arg, machines[t.arg].startd->tick(now), nullptr);
      break;
    }
    case TimerKind::Exit: {
      auto it = runs.find(t.arg);
      if (it == runs.end() || it->second.exit_timer != t.seq) return;
      end_run(t.arg, false, {});
      break;
    }
    case TimerKind::Periodic:
      periodic_pending = false;
      periodic();
      break;
  }
  settle_queue();
}

// ---- the negotiator ---------------------------------------------------

void Engine::mark_changed() {
  changed = true;
  plan_cycle();
}

void Engine::plan_cycle() {
  const std::int64_t when = std::max(now, negotiation::next_cycle_at(policy, times, now));
  if (cycle_at && *cycle_at <= when) return;
  cycle_at = when;
  at(when, TimerKind::Cycle);
}

// PREEMPTION_REQUIREMENTS that is not False lets a cycle take a busy slot
// for a submitter whose priority got better: time alone changes that.
bool Engine::preemption_by_priority() const {
  if (!policy.consider_preemption || !policy.preemption_requirements) return false;
  const classad::ExprTree& t = *policy.preemption_requirements;
  if (!t.is_literal()) return true;
  const classad::ClassAd none;
  classad::Value v = classad::evaluate(t, &none);
  return !(v.is_bool() && !v.as_bool());
}

void Engine::sync_board() {
  // The machines whose startd was called since the last cycle: the ads
  // their startd actors would have sent (startd::changes_ad), new slots',
  // and those gone erased. A slot not advertised keeps its last ad, as the
  // collector does between a startd's updates.
  for (std::size_t m : dirty) {
    Machine& machine = machines[m];
    machine.dirty = false;
    const bool whole = std::exchange(machine.whole, false);
    const std::set<std::string> changed = std::move(machine.changed);
    machine.changed.clear();
    const negotiation::SlotBoard::Key first = board_key(m, 0, 0), last = board_key(m + 1, 0, 0);
    std::vector<negotiation::SlotBoard::Key> before = board.keys_in(first, last), now_there;
    if (!machine.gone) {
      machine.startd->visit_slots([&](const startd::SlotDescription& d, const startd::Slot& slot) {
        const negotiation::SlotBoard::Key k = board_key(m, d.id, d.sub_id);
        now_there.push_back(k);
        auto [it, fresh] = slot_at.try_emplace(k);
        if (fresh) it->second = SlotKey{m, d.short_name()};
        if (whole || fresh ||
            (!changed.empty() &&
             (d.kind == startd::SlotKind::Partitionable || changed.count(it->second.slot) != 0)))
          board.set(k, slot.ad());
      });
    }
    std::sort(now_there.begin(), now_there.end());
    for (negotiation::SlotBoard::Key k : before) {
      if (std::binary_search(now_there.begin(), now_there.end(), k)) continue;
      board.erase(k);
      slot_at.erase(k);
    }
  }
  dirty.clear();
}

void Engine::cycle() {
  const bool sensitive = preemption_by_priority();
  if (!changed && !sensitive) {
    ++counters.cycles_skipped;
    return;  // the next change plans the next cycle
  }
  changed = false;
  times.last_start = now;
  times.requested = false;
  // What the collector holds: every slot's ad.
  sync_board();
  classad::EvalEnv env;
  env.now = now;
  board.prepare(policy, env);
  // Each submitter's requests, as its schedd answers the negotiator.
  claim::CycleInput input;
  input.board = &board;
  input.tracker = &claim_tracker;
  const auto significant =
      schedd::SignificantAttributes::from_list(negotiation::significant_attributes(policy, board));
  for (const std::string& s : queue->submitters()) {
    auto requests = queue->resource_requests(
        s, significant, [&](schedd::JobId id) { return claims->busy(id); }, policy.job_constraint.get(), now);
    if (requests.empty()) continue;
    negotiation::SubmitterRequests sr;
    sr.name = s;
    for (schedd::ResourceRequest& r : requests)
      sr.requests.push_back(negotiation::Request{r.job, r.count, std::move(r.jobs)});
    input.submitters.push_back(std::move(sr));
    input.schedd_of[s] = schedd_settings.name;
  }
  const bool idle = !input.submitters.empty();
  claim::CycleClaims result = claim::run_cycle(
      policy, *accountant, groups, std::move(input),
      [&] {
        // Reproducible ids: the counter is both the public part and the
        // secret's seed (no secret to keep in a simulation).
        ++claim_counter;
        char secret[17];
        std::snprintf(secret, sizeof secret, "%016llx",
                      static_cast<unsigned long long>(claim_counter * 0x9E3779B97F4A7C15ull));
        return claim::make_claim_id("sim." + std::to_string(claim_counter), secret);
      },
      now);
  for (std::string& w : result.warnings) warn(std::move(w));
  ++counters.cycles;
  counters.matches += static_cast<std::int64_t>(result.result.matches.size());
  for (const negotiation::Match& m : result.result.matches) {
    if (m.preempts) ++counters.preemptions;
    PoolEvent ev{PoolEventKind::Matched,
                 now,
                 m.job_id.value_or(schedd::JobId{}),
                 m.submitter,
                 m.slot_name,
                 m.weight,
                 negotiation::reason_name(m.reason)};
    notify(std::move(ev));
  }
  // Each slot hears of its match before the schedd does (actors/negotiator.cpp).
  for (auto& [schedd_name, offers] : result.offers) {
    for (claim::ClaimOffer& o : offers) {
      const SlotKey key = slot_at.at(o.slot);
      dispatch(key.machine,
               machines[key.machine].startd->deliver(key.slot, startd::MatchNotified{o.claim_id}, now),
               nullptr);
    }
    for (claim::ClaimOffer& o : offers) {
      claim::Offer offer{o.claim_id,
                         o.submitter,
                         o.slot_name,
                         *board.find(o.slot),
                         ref_of(slot_at.at(o.slot)),
                         std::move(o.job_ids),
                         o.preempting,
                         std::move(o.preempt_dslots)};
      post([this, offer = std::move(offer)]() mutable { carry_out(claims->offered(std::move(offer))); });
    }
  }
  last_cycle = std::move(result.result);
  times.last_end = now;
  notify(PoolEvent{PoolEventKind::Cycle, now, {}, {}, {}, 0, std::to_string(last_cycle.matches.size())});
  // With preemption by priority, idle jobs are worth another look as
  // priorities move; otherwise the next change plans the next cycle.
  if (sensitive && idle) plan_cycle();
}

// ---- the public face ---------------------------------------------------

VirtualPool::VirtualPool(std::unique_ptr<Engine> engine) : e_(std::move(engine)) {}
VirtualPool::~VirtualPool() = default;

Result<std::unique_ptr<VirtualPool>> VirtualPool::create(const PoolSetup& setup) {
  auto e = std::make_unique<Engine>();
  e->now = setup.start;
  e->common = setup.common;
  e->seed = setup.seed;
  e->files = std::make_shared<config::MemoryHost>(setup.seed);
  if (Status s = configure_central_manager(*e, setup.central_manager, true); !s) return Error{s.error()};
  if (Status s = configure_access_point(*e, setup.access_point, true); !s) return Error{s.error()};
  if (setup.machines.empty()) return Error{"the pool has no machines"};
  std::set<std::string> names;
  for (const MachineSetup& m : setup.machines) {
    if (!names.insert(m.name).second) return Error{"two machines are named " + m.name};
    if (Status s = start_machine(*e, m); !s) return Error{s.error()};
  }
  // Each startd's first evaluation: slots leave Owner as their policy says.
  for (std::size_t m = 0; m < e->machines.size(); ++m)
    e->dispatch(m, e->machines[m].startd->tick(setup.start), nullptr);
  e->deliver_mail();
  return std::unique_ptr<VirtualPool>(new VirtualPool(std::move(e)));
}

std::int64_t VirtualPool::now() const {
  return e_->now;
}

void VirtualPool::run_until(std::int64_t until) {
  Engine& e = *e_;
  e.deliver_mail();
  while (!e.timers.empty() && e.timers.top().at <= until) {
    const Timer t = e.timers.top();
    e.timers.pop();
    e.now = std::max(e.now, t.at);
    e.fire(t);
    e.deliver_mail();
  }
  e.now = std::max(e.now, until);
}

void VirtualPool::run_before(std::int64_t t) {
  run_until(t - 1);
  e_->now = std::max(e_->now, t);
}

std::optional<std::int64_t> VirtualPool::next_event() const {
  if (!e_->mail.empty()) return e_->now;
  if (e_->timers.empty()) return std::nullopt;
  return e_->timers.top().at;
}

schedd::SubmitOutcome VirtualPool::submit(const schedd::Submission& submission) {
  Engine& e = *e_;
  // Each submission's random numbers are the next of the pool's seeded
  // sequence: reproducible, and different from one submission to the next.
  const auto seed =
      static_cast<std::uint64_t>(e.files->random_integer(0, std::numeric_limits<std::int64_t>::max()));
  const schedd::SubmitSite site{e.schedd_settings.uid_domain, e.ap_config.get(), e.files.get(), seed};
  schedd::SubmitOutcome out = schedd::submit_description(*e.queue, submission, site, e.now);
  if (!out) return out;
  const std::int64_t cluster = out.submitted->cluster;
  for (std::size_t i = 0; i < out.submitted->count; ++i) {
    const schedd::JobId id{cluster, static_cast<std::int64_t>(i)};
    const classad::ClassAd* job = e.queue->find(id);
    if (!job) continue;
    for (const char* a : {"PeriodicHold", "PeriodicRelease", "PeriodicRemove"})
      if (classad::ExprPtr x = job->lookup(a); x && !x->is_literal()) e.job_periodic = true;
    e.notify(PoolEvent{PoolEventKind::Submitted, e.now, id, schedd::submitter_name(*job), {}, 0, {}});
  }
  // The schedd asks for a cycle (condor_reschedule) when it has idle jobs.
  e.times.requested = true;
  e.mark_changed();
  e.plan_periodic();
  e.settle_queue();
  return out;
}

Result<std::size_t> VirtualPool::remove(const std::string& constraint, const std::string& reason) {
  Engine& e = *e_;
  schedd::JobActionRequest r{schedd::JobAction::Remove, constraint, reason, "condor", true, false};
  auto report = schedd::act_on_jobs(*e.queue, r, e.now);
  if (!report) return Error{report.error()};
  if (!report->done.empty()) {
    e.mark_changed();
    e.carry_out(e.claims->stop_unwanted());
  }
  e.settle_queue();
  return report->done.size();
}

Status VirtualPool::edit_priority(const accounting::PriorityEdit& edit) {
  Engine& e = *e_;
  if (Status s = accounting::apply(*e.accountant, edit, e.now); !s) return s;
  e.mark_changed();
  return Ok{};
}

Status VirtualPool::reconfigure(Node node, const std::vector<config::TextLayer>& layers,
                                const std::string& prefix) {
  Engine& e = *e_;
  auto with = [&](std::vector<config::TextLayer> own) {
    own.insert(own.end(), layers.begin(), layers.end());
    return own;
  };
  switch (node) {
    case Node::CentralManager:
      if (Status s = configure_central_manager(e, with(e.cm_layers), false); !s) return s;
      break;
    case Node::AccessPoint:
      if (Status s = configure_access_point(e, with(e.ap_layers), false); !s) return s;
      e.plan_periodic();
      break;
    case Node::Machines: {
      // Every machine's new configuration reads before any takes it.
      std::vector<std::size_t> chosen;
      for (std::size_t m = 0; m < e.machines.size(); ++m)
        if (!e.machines[m].gone && e.machines[m].name.rfind(prefix, 0) == 0) chosen.push_back(m);
      if (chosen.empty()) return Error{"no machine's name begins with '" + prefix + "'"};
      for (std::size_t m : chosen) {
        auto c = node_config(e.common, with(e.machines[m].layers), "STARTD", e.machines[m].name, e.seed);
        if (!c) return Error{"machine " + e.machines[m].name + ": " + c.error()};
      }
      for (std::size_t m : chosen)
        if (Status s = reconfigure_machine(e, m, with(e.machines[m].layers)); !s) return s;
      break;
    }
  }
  e.mark_changed();
  e.deliver_mail();
  return Ok{};
}

Status VirtualPool::add_machine(const MachineSetup& machine) {
  Engine& e = *e_;
  for (const Machine& m : e.machines)
    if (!m.gone && m.name == machine.name)
      return Error{"the pool already has a machine named " + machine.name};
  if (Status s = start_machine(e, machine); !s) return s;
  const std::size_t mi = e.machines.size() - 1;
  e.dispatch(mi, e.machines[mi].startd->tick(e.now), nullptr);
  e.mark_changed();
  e.deliver_mail();
  return Ok{};
}

Status VirtualPool::remove_machine(const std::string& name) {
  Engine& e = *e_;
  // What is in flight at this instant arrives first.
  e.deliver_mail();
  std::size_t mi = e.machines.size();
  for (std::size_t m = 0; m < e.machines.size(); ++m)
    if (!e.machines[m].gone && e.machines[m].name == name) mi = m;
  if (mi == e.machines.size()) return Error{"the pool has no machine named " + name};
  Machine& m = e.machines[mi];
  m.gone = true;
  e.touch(mi);  // its slots leave the board
  e.total_cores -= m.cores;
  const std::string why = "the machine " + name + " left the pool";
  for (auto it = e.runs.begin(); it != e.runs.end();) {
    if (it->second.where.machine != mi) {
      ++it;
      continue;
    }
    const Run& r = it->second;
    ++e.counters.killed;
    e.notify(PoolEvent{PoolEventKind::Killed, e.now, r.job, r.submitter, r.slot_name, r.cores, why});
    e.run_on.erase(r.where);
    it = e.runs.erase(it);
  }
  m.holder.clear();
  m.activated.clear();
  // The schedd watched the slots it held claims on: each is lost.
  for (const auto& [key, ref] : e.refs)
    if (key.machine == mi) e.carry_out(e.claims->slot_lost(ref, why, e.now));
  e.mark_changed();
  e.deliver_mail();
  return Ok{};
}

Status VirtualPool::end_job(schedd::JobId job, bool killed, const std::string& why) {
  Engine& e = *e_;
  e.deliver_mail();
  for (const auto& [serial, run] : e.runs)
    if (run.job == job) {
      const std::uint64_t s = serial;
      e.end_run(s, killed, killed && why.empty() ? std::string("killed") : why);
      e.deliver_mail();
      return Ok{};
    }
  return Error{"job " + job.str() + " is not running"};
}

void VirtualPool::set_observer(std::function<void(const PoolEvent&)> observer) {
  e_->observer = std::move(observer);
}

const accounting::Accountant& VirtualPool::accountant() const {
  return *e_->accountant;
}

const schedd::JobQueue& VirtualPool::queue() const {
  return *e_->queue;
}
const negotiation::CycleResult& VirtualPool::last_cycle() const {
  return e_->last_cycle;
}
const PoolCounters& VirtualPool::counters() const {
  return e_->counters;
}
double VirtualPool::total_cores() const {
  return e_->total_cores;
}
std::size_t VirtualPool::slots_tracked() const {
  return e_->refs.size();
}
const std::vector<std::string>& VirtualPool::warnings() const {
  return e_->warnings;
}

std::vector<classad::ClassAd> VirtualPool::slot_ads() const {
  std::vector<classad::ClassAd> ads;
  for (const Machine& m : e_->machines)
    if (!m.gone)
      for (const std::string& n : m.startd->slot_names()) ads.push_back(m.startd->slot(n)->ad());
  return ads;
}

}  // namespace cara::sim
