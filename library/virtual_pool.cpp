// The public virtual-time API (include/caracara/virtual_pool.h) over the
// simulator's engine (model/sim/virtual_pool.h): translation only — every
// decision is the models'.
#include "caracara/virtual_pool.h"

#include <map>

#include "model/accounting/accountant.h"
#include "model/accounting/priority_edit.h"
#include "model/schedd/job_status.h"
#include "model/sim/virtual_pool.h"

namespace caracara {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::Submitted: return "submitted";
    case EventKind::Matched: return "matched";
    case EventKind::Claimed: return "claimed";
    case EventKind::Started: return "started";
    case EventKind::Finished: return "finished";
    case EventKind::Killed: return "killed";
    case EventKind::Removed: return "removed";
    case EventKind::Cycle: return "cycle";
    case EventKind::PriorityChanged: return "priority changed";
    case EventKind::QuotaChanged: return "quota changed";
  }
  return "?";
}

namespace {

cara::config::TextLayer layer(const ConfigText& c) {
  return cara::config::TextLayer{c.text, c.file, c.first_line};
}

std::vector<cara::config::TextLayer> layers(const ConfigText& c) {
  if (c.text.empty()) return {};
  return {layer(c)};
}

EventKind kind_of(cara::sim::PoolEventKind k) {
  using K = cara::sim::PoolEventKind;
  switch (k) {
    case K::Submitted: return EventKind::Submitted;
    case K::Matched: return EventKind::Matched;
    case K::Claimed: return EventKind::Claimed;
    case K::Started: return EventKind::Started;
    case K::Finished: return EventKind::Finished;
    case K::Killed: return EventKind::Killed;
    case K::Removed: return EventKind::Removed;
    case K::Cycle: return EventKind::Cycle;
  }
  return EventKind::Cycle;
}

}  // namespace

struct VirtualPool::Impl {
  std::unique_ptr<cara::sim::VirtualPool> pool;
  std::vector<std::function<void(const Event&)>> listeners;
  // What the last cycle left, to tell what the next one changed.
  std::map<std::string, double> eup, quota;

  void tell(const Event& e) {
    for (const auto& l : listeners) l(e);
  }

  // After a cycle: each submitter whose effective priority and each group
  // whose effective quota moved since the cycle before.
  void after_cycle(std::int64_t time) {
    const cara::accounting::Accountant& acc = pool->accountant();
    for (const auto& [key, r] : acc.records()) {
      if (r.is_group) continue;
      const double now = r.eup();
      auto [it, fresh] = eup.try_emplace(r.name, now);
      if (!fresh && it->second == now) continue;
      it->second = now;
      tell(Event{EventKind::PriorityChanged, time, {}, r.name, {}, now, {}});
    }
    for (const cara::negotiation::GroupOutcome& g : pool->last_cycle().groups) {
      auto [it, fresh] = quota.try_emplace(g.name, g.effective_quota);
      if (!fresh && it->second == g.effective_quota) continue;
      it->second = g.effective_quota;
      tell(Event{EventKind::QuotaChanged, time, {}, g.name, {}, g.effective_quota, {}});
    }
  }

  void observe(const cara::sim::PoolEvent& e) {
    if (listeners.empty() && e.kind != cara::sim::PoolEventKind::Cycle) return;
    Event out{kind_of(e.kind), e.time,  e.job.cluster > 0 ? e.job.str() : std::string(), e.submitter, e.slot,
              e.cores,         e.detail};
    tell(out);
    if (e.kind == cara::sim::PoolEventKind::Cycle) after_cycle(e.time);
  }
};

VirtualPool::VirtualPool(const PoolSpec& spec) : impl_(std::make_unique<Impl>()) {
  cara::sim::PoolSetup setup;
  setup.common = layers(spec.common);
  setup.central_manager = layers(spec.central_manager);
  setup.access_point = layers(spec.access_point);
  for (const MachineSpec& m : spec.machines) setup.machines.push_back({m.name, layers(m.config)});
  setup.start = spec.start;
  setup.seed = spec.seed;
  auto pool = cara::sim::VirtualPool::create(setup);
  if (!pool) throw Error(pool.error());
  impl_->pool = std::move(*pool);
  Impl* impl = impl_.get();
  impl_->pool->set_observer([impl](const cara::sim::PoolEvent& e) { impl->observe(e); });
}

VirtualPool::~VirtualPool() = default;
VirtualPool::VirtualPool(VirtualPool&&) noexcept = default;
VirtualPool& VirtualPool::operator=(VirtualPool&&) noexcept = default;

std::int64_t VirtualPool::now() const {
  return impl_->pool->now();
}

void VirtualPool::run_until(std::int64_t time) {
  impl_->pool->run_until(time);
}

std::optional<std::int64_t> VirtualPool::next_event() const {
  return impl_->pool->next_event();
}

std::vector<std::string> VirtualPool::submit(const std::string& owner, const std::string& description) {
  cara::schedd::Submission s;
  s.description = description;
  s.label = "submit description";
  s.owner = owner;
  s.iwd = "/tmp";
  cara::schedd::SubmitOutcome out = impl_->pool->submit(s);
  if (!out) throw Error(out.error);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < out.submitted->count; ++i)
    ids.push_back(cara::schedd::JobId{out.submitted->cluster, static_cast<std::int64_t>(i)}.str());
  return ids;
}

std::size_t VirtualPool::remove(const std::string& constraint) {
  auto n = impl_->pool->remove(constraint, "removed through the caracara API");
  if (!n) throw Error(n.error());
  return *n;
}

void VirtualPool::userprio(const std::string& command, const std::string& name, double value) {
  auto kind = cara::accounting::parse_priority_edit_kind(command);
  if (!kind) throw Error(kind.error());
  if (cara::Status s = impl_->pool->edit_priority({*kind, name, value, std::nullopt}); !s)
    throw Error(s.error());
}

void VirtualPool::reconfigure(Node node, const ConfigText& config, const std::string& machine_prefix) {
  using N = cara::sim::VirtualPool::Node;
  const N n = node == Node::CentralManager ? N::CentralManager
              : node == Node::AccessPoint  ? N::AccessPoint
                                           : N::Machines;
  if (cara::Status s = impl_->pool->reconfigure(n, {layer(config)}, machine_prefix); !s)
    throw Error(s.error());
}

void VirtualPool::on_event(std::function<void(const Event&)> callback) {
  impl_->listeners.push_back(std::move(callback));
}

std::vector<SubmitterPriority> VirtualPool::priorities() const {
  const cara::accounting::Accountant& acc = impl_->pool->accountant();
  const std::int64_t now = impl_->pool->now();
  std::vector<SubmitterPriority> out;
  for (const auto& [key, r] : acc.records()) {
    if (r.is_group) continue;
    const double rup = acc.priority_at(r.name, now);
    out.push_back(SubmitterPriority{r.name, acc.group_of(r.name), rup, rup * r.factor, r.factor,
                                    r.resources_used, r.accumulated_usage});
  }
  return out;
}

std::vector<GroupQuota> VirtualPool::group_quotas() const {
  std::vector<GroupQuota> out;
  for (const cara::negotiation::GroupOutcome& g : impl_->pool->last_cycle().groups)
    out.push_back(
        GroupQuota{g.name, g.configured_quota, g.effective_quota, g.allocated, g.requested, g.usage});
  return out;
}

JobCounts VirtualPool::jobs() const {
  JobCounts c;
  for (const auto& [id, job] : impl_->pool->queue().jobs()) {
    switch (cara::schedd::job_status(job).value_or(cara::schedd::JobStatus::Idle)) {
      case cara::schedd::JobStatus::Idle: ++c.idle; break;
      case cara::schedd::JobStatus::Running:
      case cara::schedd::JobStatus::Suspended: ++c.running; break;
      case cara::schedd::JobStatus::Held: ++c.held; break;
      default: break;
    }
  }
  return c;
}

double VirtualPool::cores() const {
  return impl_->pool->total_cores();
}

}  // namespace caracara
