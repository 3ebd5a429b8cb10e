// The public virtual-time API (include/caracara/virtual_pool.h) over the
// simulator's engine (model/sim/virtual_pool.h): translation only — every
// decision is the models'.
#include "caracara/virtual_pool.h"

#include <map>

#include "library/translation.h"
#include "model/accounting/accountant.h"
#include "model/accounting/priority_edit.h"
#include "model/schedd/job_status.h"
#include "model/sim/virtual_pool.h"

namespace caracara {

using detail::layer;
using detail::layers;

struct VirtualPool::Impl {
  std::unique_ptr<cara::sim::VirtualPool> pool;
  std::vector<std::function<void(const Event&)>> listeners;
  detail::CycleChanges changes;

  void tell(const Event& e) {
    for (const auto& l : listeners) l(e);
  }

  void observe(const cara::sim::PoolEvent& e) {
    if (listeners.empty()) return;
    tell(detail::public_event(e));
    if (e.kind == cara::sim::PoolEventKind::Cycle)
      for (const Event& change : changes.after_cycle(e.time, priorities(), group_quotas())) tell(change);
  }

  std::vector<SubmitterPriority> priorities() const;
  std::vector<GroupQuota> group_quotas() const;
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
  return detail::job_ids(out.submitted->cluster, static_cast<std::int64_t>(out.submitted->count));
}

std::vector<std::string> VirtualPool::submit_ad(const std::string& owner, const std::string& job_ad,
                                                std::int64_t count) {
  auto description = detail::description_of_ad(job_ad, count);
  if (!description) throw Error(description.error());
  return submit(owner, *description);
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

void VirtualPool::add_machine(const MachineSpec& machine) {
  if (cara::Status s = impl_->pool->add_machine({machine.name, layers(machine.config)}); !s)
    throw Error(s.error());
}

void VirtualPool::remove_machine(const std::string& name) {
  if (cara::Status s = impl_->pool->remove_machine(name); !s) throw Error(s.error());
}

void VirtualPool::end_job(const std::string& job, bool killed) {
  const auto dot = job.find('.');
  cara::schedd::JobId id;
  try {
    if (dot == std::string::npos) throw std::invalid_argument(job);
    std::size_t used = 0;
    id.cluster = std::stoll(job.substr(0, dot), &used);
    if (used != dot) throw std::invalid_argument(job);
    id.proc = std::stoll(job.substr(dot + 1), &used);
    if (used != job.size() - dot - 1) throw std::invalid_argument(job);
  } catch (const std::logic_error&) {
    throw Error("a job id is cluster.proc, got '" + job + "'");
  }
  if (cara::Status s = impl_->pool->end_job(id, killed, killed ? "killed through the caracara API" : ""); !s)
    throw Error(s.error());
}

void VirtualPool::on_event(std::function<void(const Event&)> callback) {
  impl_->listeners.push_back(std::move(callback));
}

std::vector<SubmitterPriority> VirtualPool::priorities() const {
  return impl_->priorities();
}

std::vector<SubmitterPriority> VirtualPool::Impl::priorities() const {
  const cara::accounting::Accountant& acc = pool->accountant();
  const std::int64_t now = pool->now();
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
  return impl_->group_quotas();
}

std::vector<GroupQuota> VirtualPool::Impl::group_quotas() const {
  std::vector<GroupQuota> out;
  for (const cara::negotiation::GroupOutcome& g : pool->last_cycle().groups)
    out.push_back(
        GroupQuota{g.name, g.configured_quota, g.effective_quota, g.allocated, g.requested, g.usage});
  return out;
}

JobCounts VirtualPool::jobs() const {
  JobCounts c;
  for (const auto& [id, job] : impl_->pool->queue().jobs()) detail::count_job(c, job);
  return c;
}

double VirtualPool::cores() const {
  return impl_->pool->total_cores();
}

}  // namespace caracara
