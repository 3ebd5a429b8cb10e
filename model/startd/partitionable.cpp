#include "model/startd/partitionable.h"

#include <algorithm>
#include <cmath>

#include "model/classad/eval.h"
#include "model/config/config.h"
#include "model/startd/slot_layout.h"

namespace cara::startd {
namespace {

// Evaluates `expr` (MY = my, TARGET = target) to a non-negative number.
std::optional<double> amount(const classad::ExprTree& expr, const classad::ClassAd& my,
                             const classad::ClassAd& target, const classad::EvalEnv& env) {
  classad::Value v = classad::evaluate(expr, &my, &target, env);
  double d;
  if (v.is_string() || !v.number(d) || !std::isfinite(d) || d < 0) return std::nullopt;
  return d;
}

}  // namespace

Result<CarvePolicy> CarvePolicy::from_config(const config::Config& config, int slot_id, int type) {
  CarvePolicy p;
  struct {
    const char* knob;
    classad::ExprPtr* out;
  } knobs[] = {{"MODIFY_REQUEST_EXPR_REQUESTCPUS", &p.modify_cpus},
               {"MODIFY_REQUEST_EXPR_REQUESTMEMORY", &p.modify_memory},
               {"MODIFY_REQUEST_EXPR_REQUESTDISK", &p.modify_disk}};
  for (auto& k : knobs) {
    auto e = config.expression(slot_knob(config, slot_id, type, k.knob));
    if (!e) return Error{e.error()};
    *k.out = *e;
  }
  return p;
}

PartitionableSlot::PartitionableSlot(int slot_id, const MachineResources& machine, Resources total,
                                     std::vector<std::vector<std::string>> custom_ids)
    : id_(slot_id),
      machine_(&machine),
      total_(total),
      free_(std::move(total)),
      free_ids_(std::move(custom_ids)) {
  free_ids_.resize(machine.custom.size());
}

Result<Resources> PartitionableSlot::request_of(const classad::ClassAd& job, const classad::ClassAd& slot_ad,
                                                const CarvePolicy& policy,
                                                const classad::EvalEnv& env) const {
  Resources want;
  struct {
    const classad::ExprPtr& expr;
    double* out;
    const char* what;
  } parts[] = {{policy.modify_cpus, &want.cpus, "MODIFY_REQUEST_EXPR_REQUESTCPUS"},
               {policy.modify_memory, &want.memory, "MODIFY_REQUEST_EXPR_REQUESTMEMORY"},
               {policy.modify_disk, &want.disk, "MODIFY_REQUEST_EXPR_REQUESTDISK"}};
  for (auto& part : parts) {
    auto v = amount(*part.expr, job, slot_ad, env);
    if (!v) return Error{std::string(part.what) + " does not give a non-negative number for this job"};
    *part.out = std::ceil(*v);
  }
  want.custom.resize(machine_->custom.size());
  for (std::size_t c = 0; c < machine_->custom.size(); ++c) {
    const std::string attr = "Request" + machine_->custom[c].name;
    if (!job.find(attr)) continue;
    classad::Value v = classad::evaluate_attr(job, attr, &slot_ad, env);
    double d;
    if (v.is_undefined()) continue;
    if (v.is_string() || !v.number(d) || !std::isfinite(d) || d < 0) {
      return Error{attr + " of the job is not a non-negative number"};
    }
    want.custom[c] = std::ceil(d);
  }
  return want;
}

std::optional<DynamicSlot> PartitionableSlot::carve(const Resources& want) {
  if (!want.fits_within(free_)) return std::nullopt;
  DynamicSlot d;
  d.parent_id = id_;
  d.sub_id = next_sub_++;
  d.resources = want;
  d.resources.custom.resize(machine_->custom.size());
  d.custom_ids.resize(machine_->custom.size());
  for (std::size_t c = 0; c < free_ids_.size(); ++c) {
    auto n = static_cast<std::size_t>(d.resources.custom[c]);
    n = std::min(n, free_ids_[c].size());
    d.custom_ids[c].assign(free_ids_[c].begin(), free_ids_[c].begin() + static_cast<std::ptrdiff_t>(n));
    free_ids_[c].erase(free_ids_[c].begin(), free_ids_[c].begin() + static_cast<std::ptrdiff_t>(n));
  }
  free_ -= d.resources;
  ++live_;
  return d;
}

void PartitionableSlot::release(const DynamicSlot& slot) {
  free_ += slot.resources;
  for (std::size_t c = 0; c < slot.custom_ids.size() && c < free_ids_.size(); ++c) {
    free_ids_[c].insert(free_ids_[c].end(), slot.custom_ids[c].begin(), slot.custom_ids[c].end());
  }
  --live_;
}

Result<std::vector<std::pair<std::string, std::string>>> consumption_attributes(
    const config::Config& config, const MachineResources& machine, int slot_id, int type) {
  std::vector<std::pair<std::string, std::string>> attrs;
  const std::string policy_knob = slot_knob(config, slot_id, type, "CONSUMPTION_POLICY");
  auto on = config.boolean(policy_knob);
  if (!on) return Error{on.error()};
  if (!*on) return attrs;
  // Defaults (policy-configuration, "condor_negotiator-Side Resource
  // Consumption Policies").
  std::vector<std::pair<std::string, std::string>> wanted = {
      {"Cpus", "quantize(target.RequestCpus, {1})"},
      {"Memory", "quantize(target.RequestMemory, {128})"},
      {"Disk", "quantize(target.RequestDisk, {1024})"}};
  for (const CustomResource& r : machine.custom) wanted.emplace_back(r.name, "target.Request" + r.name);
  for (auto& [resource, fallback] : wanted) {
    std::string knob = slot_knob(config, slot_id, type, "CONSUMPTION_" + config::canonical_name(resource));
    std::string text = fallback;
    if (config.defined(knob)) {
      auto expr = config.expression(knob);
      if (!expr) return Error{expr.error()};
      auto v = config.string(knob);
      text = *v;
    }
    attrs.emplace_back("Consumption" + resource, text);
  }
  return attrs;
}

std::optional<Resources> consumption(const classad::ClassAd& pslot, const classad::ClassAd& job,
                                     const MachineResources& machine, const classad::EvalEnv& env) {
  const classad::Attribute* cpus = pslot.find("ConsumptionCpus");
  if (!cpus) return std::nullopt;
  Resources take;
  take.custom.resize(machine.custom.size());
  auto eval = [&](const std::string& attr, double& out) {
    const classad::Attribute* a = pslot.find(attr);
    if (!a) {
      out = 0;
      return true;
    }
    auto v = amount(*a->expr, pslot, job, env);
    if (!v) return false;
    out = std::ceil(*v);
    return true;
  };
  if (!eval("ConsumptionCpus", take.cpus) || !eval("ConsumptionMemory", take.memory) ||
      !eval("ConsumptionDisk", take.disk)) {
    return std::nullopt;
  }
  for (std::size_t c = 0; c < machine.custom.size(); ++c) {
    if (!eval("Consumption" + machine.custom[c].name, take.custom[c])) return std::nullopt;
  }
  return take;
}

}  // namespace cara::startd
