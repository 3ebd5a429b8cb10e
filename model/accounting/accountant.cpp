#include "model/accounting/accountant.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "model/common/text.h"

namespace cara::accounting {
namespace {

bool in_force(const std::optional<Limit>& l, std::int64_t now) {
  return l && (!l->expires || now < *l->expires);
}

}  // namespace

Accountant::Accountant(AccountantConfig config, std::int64_t now)
    : config_(std::move(config)), last_update_(now) {}

Result<Accountant> Accountant::restore(AccountantConfig config, AccountantState state) {
  Accountant a(std::move(config), state.last_update);
  for (CustomerRecord& r : state.records) {
    if (r.name.empty()) return Error{"a stored accountant record has no name"};
    const std::string key = to_lower(r.name);
    if (!a.records_.emplace(key, std::move(r)).second)
      return Error{"accountant record " + key + " is stored twice"};
  }
  for (ClaimRecord& c : state.claims) {
    if (!a.records_.count(to_lower(c.submitter)))
      return Error{"the claim on " + c.slot + " is charged to " + c.submitter + ", who has no record"};
    const std::string slot = c.slot;
    if (!a.claims_.emplace(slot, std::move(c)).second)
      return Error{"the claim on " + slot + " is stored twice"};
  }
  return a;
}

AccountantState Accountant::state() const {
  AccountantState s;
  s.last_update = last_update_;
  s.records.reserve(records_.size());
  for (const auto& [key, r] : records_) s.records.push_back(r);
  s.claims.reserve(claims_.size());
  for (const auto& [slot, c] : claims_) s.claims.push_back(c);
  return s;
}

bool Accountant::is_group(std::string_view name) const {
  return config_.is_group(name);
}

CustomerRecord& Accountant::record(const std::string& name, bool group) {
  const std::string key = to_lower(name);
  auto it = records_.find(key);
  if (it != records_.end()) return it->second;
  CustomerRecord r;
  r.name = name;
  r.is_group = group;
  r.factor = config_.initial_factor(name, group);
  return records_.emplace(key, std::move(r)).first->second;
}

std::vector<CustomerRecord*> Accountant::charged(const std::string& submitter) {
  std::vector<CustomerRecord*> out{&record(submitter, false)};
  // The group and every group above it, up to (not including) the root.
  std::string group = config_.group_of(submitter);
  while (group != kNoGroup) {
    out.push_back(&record(group, true));
    const std::size_t dot = group.rfind('.');
    if (dot == std::string::npos) break;
    group.resize(dot);
    if (!config_.is_lower_group(group)) break;
  }
  return out;
}

Status Accountant::begin_claim(const ClaimRecord& claim, std::int64_t now) {
  if (claims_.count(claim.slot)) return Error{"slot " + claim.slot + " is already claimed"};
  if (claim.weight < 0) return Error{"slot " + claim.slot + " has a negative SlotWeight"};
  if (now < last_update_) return Error{"a claim cannot begin before the last priority update"};
  const double since = static_cast<double>(now - last_update_);
  for (CustomerRecord* r : charged(claim.submitter)) {
    // Charged from now, not from the last update: owe back the part of
    // the interval before the claim began.
    r->resources_used += 1;
    r->weighted_resources_used += claim.weight;
    r->uncharged -= since;
    r->weighted_uncharged -= since * claim.weight;
    if (r->begin_usage_time == 0) r->begin_usage_time = now;
    r->last_usage_time = now;
  }
  ClaimRecord& stored = claims_.emplace(claim.slot, claim).first->second;
  if (stored.start == 0) stored.start = now;  // when it began to be charged (-getreslist)
  claim_log_.changed(claim.slot);
  return Ok{};
}

Status Accountant::end_claim(const std::string& slot, std::int64_t now) {
  auto it = claims_.find(slot);
  if (it == claims_.end()) return Error{"slot " + slot + " has no claim"};
  if (now < last_update_) return Error{"a claim cannot end before the last priority update"};
  const ClaimRecord& claim = it->second;
  const double since = static_cast<double>(now - last_update_);
  for (CustomerRecord* r : charged(claim.submitter)) {
    // The claim held its resources from the update until now.
    r->resources_used = std::max(0.0, r->resources_used - 1);
    r->weighted_resources_used = std::max(0.0, r->weighted_resources_used - claim.weight);
    r->uncharged += since;
    r->weighted_uncharged += since * claim.weight;
    r->last_usage_time = now;
  }
  claim_log_.changed(slot);
  claims_.erase(it);
  return Ok{};
}

void Accountant::reconfigure(AccountantConfig config, std::int64_t now) {
  update_priorities(now);
  config_ = std::move(config);
}

Accountant::Decay Accountant::decay(const CustomerRecord& r, double dt) const {
  return decay(r, dt, std::pow(0.5, dt / config_.halflife));
}

Accountant::Decay Accountant::decay(const CustomerRecord& r, double dt, double beta) const {
  // The average use over dt: what is held now plus what claims begun or
  // ended within dt owe (user-priorities, "Priority Calculation").
  Decay d;
  d.used = r.resources_used + r.uncharged / dt;
  d.weighted = r.weighted_resources_used + r.weighted_uncharged / dt;
  const double rho = config_.use_slot_weights ? d.weighted : d.used;
  d.priority = std::max(kMinPriority, beta * r.priority + (1 - beta) * rho);
  return d;
}

void Accountant::update_priorities(std::int64_t now) {
  if (now <= last_update_) return;
  const double dt = static_cast<double>(now - last_update_);
  // One factor for every record (a pool's negotiator decays thousands).
  const double beta = std::pow(0.5, dt / config_.halflife);
  for (auto& [key, r] : records_) {
    const Decay d = decay(r, dt, beta);
    r.priority = d.priority;
    r.accumulated_usage += d.used * dt;
    r.weighted_accumulated_usage += d.weighted * dt;
    if (r.resources_used > 0) r.last_usage_time = now;
    r.uncharged = r.weighted_uncharged = 0;
  }
  last_update_ = now;
}

const CustomerRecord* Accountant::find(std::string_view name) const {
  auto it = records_.find(to_lower(name));
  return it == records_.end() ? nullptr : &it->second;
}

double Accountant::priority(std::string_view name) const {
  const CustomerRecord* r = find(name);
  return r ? r->priority : kMinPriority;
}

double Accountant::priority_at(std::string_view name, std::int64_t now) const {
  const CustomerRecord* r = find(name);
  if (!r) return kMinPriority;
  if (now <= last_update_) return r->priority;
  return decay(*r, static_cast<double>(now - last_update_)).priority;
}

double Accountant::factor(std::string_view name) const {
  const CustomerRecord* r = find(name);
  return r ? r->factor : config_.initial_factor(name, is_group(name));
}

std::optional<double> Accountant::floor(std::string_view name, std::int64_t now) const {
  const CustomerRecord* r = find(name);
  if (r == nullptr || !in_force(r->floor, now)) return std::nullopt;
  return r->floor->value;
}

std::optional<double> Accountant::ceiling(std::string_view name, std::int64_t now) const {
  const CustomerRecord* r = find(name);
  if (r == nullptr || !in_force(r->ceiling, now)) return std::nullopt;
  return r->ceiling->value;
}

double Accountant::concurrency_in_use(std::string_view limit) const {
  const std::string want = to_lower(limit);
  double total = 0;
  for (const auto& [slot, claim] : claims_) {
    for (const std::string& l : claim.concurrency_limits) {
      // "name" holds one unit, "name:units" that many.
      const std::size_t colon = l.find(':');
      if (to_lower(l.substr(0, colon)) != want) continue;
      total += colon == std::string::npos ? 1.0 : std::atof(l.c_str() + colon + 1);
    }
  }
  return total;
}

Status Accountant::set_factor(const std::string& name, double factor) {
  if (!(factor >= 1)) return Error{"setfactor: the priority factor of " + name + " must be at least 1"};
  record(name, is_group(name)).factor = factor;
  return Ok{};
}

Status Accountant::set_priority(const std::string& name, double priority) {
  if (!(priority >= kMinPriority)) return Error{"setprio: the priority of " + name + " must be at least 0.5"};
  record(name, is_group(name)).priority = priority;
  return Ok{};
}

Status Accountant::set_accumulated_usage(const std::string& name, double usage) {
  if (!(usage >= 0)) return Error{"setaccum: the accumulated usage of " + name + " cannot be negative"};
  CustomerRecord& r = record(name, is_group(name));
  r.accumulated_usage = r.weighted_accumulated_usage = usage;
  return Ok{};
}

Status Accountant::set_begin_usage(const std::string& name, std::int64_t when) {
  if (when < 0) return Error{"setbegin: the time for " + name + " cannot be negative"};
  record(name, is_group(name)).begin_usage_time = when;
  return Ok{};
}

Status Accountant::set_last_usage(const std::string& name, std::int64_t when) {
  if (when < 0) return Error{"setlast: the time for " + name + " cannot be negative"};
  record(name, is_group(name)).last_usage_time = when;
  return Ok{};
}

namespace {
Result<Limit> make_limit(const char* what, const std::string& name, double value,
                         std::optional<std::int64_t> duration, std::int64_t now) {
  if (!(value >= 0)) return Error{std::string(what) + ": the value for " + name + " cannot be negative"};
  if (duration && *duration <= 0)
    return Error{std::string(what) + ": the duration must be a positive number of seconds"};
  Limit l{value, {}};
  if (duration) l.expires = now + *duration;
  return l;
}
}  // namespace

Status Accountant::set_floor(const std::string& name, double value, std::optional<std::int64_t> duration,
                             std::int64_t now) {
  auto l = make_limit("setfloor", name, value, duration, now);
  if (!l) return Error{l.error()};
  record(name, is_group(name)).floor = *l;
  return Ok{};
}

Status Accountant::set_ceiling(const std::string& name, double value, std::optional<std::int64_t> duration,
                               std::int64_t now) {
  auto l = make_limit("setceil", name, value, duration, now);
  if (!l) return Error{l.error()};
  record(name, is_group(name)).ceiling = *l;
  return Ok{};
}

Status Accountant::reset_usage(const std::string& name, std::int64_t now) {
  auto it = records_.find(to_lower(name));
  if (it == records_.end()) return Error{"resetusage: no record for " + name};
  CustomerRecord& r = it->second;
  // As condor_userprio -resetusage: the usage, not the priority.
  r.accumulated_usage = r.weighted_accumulated_usage = 0;
  r.begin_usage_time = now;
  return Ok{};
}

Status Accountant::remove(const std::string& name) {
  auto it = records_.find(to_lower(name));
  if (it == records_.end()) return Error{"delete: no record for " + name};
  for (const auto& [slot, claim] : claims_)
    if (to_lower(claim.submitter) == it->first)
      return Error{"delete: " + name + " still holds the claim on " + slot};
  records_.erase(it);
  return Ok{};
}

}  // namespace cara::accounting
