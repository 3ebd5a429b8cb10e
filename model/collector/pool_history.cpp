#include "model/collector/pool_history.h"

#include <map>

#include "model/classad/eval.h"
#include "model/config/config.h"

namespace cara::collector {
namespace {

std::string string_attr(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

double number_attr(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  if (v.is_int()) return static_cast<double>(v.as_int());
  if (v.is_real()) return v.as_real();
  return 0;
}

constexpr const char* kStates[] = {"Unclaimed",  "Claimed", "Owner",   "Matched",
                                   "Preempting", "Drained", "Backfill"};

struct Jobs {
  std::int64_t running = 0, idle = 0, held = 0;
  void add(const classad::ClassAd& ad) {
    running += static_cast<std::int64_t>(number_attr(ad, "RunningJobs"));
    idle += static_cast<std::int64_t>(number_attr(ad, "IdleJobs"));
    held += static_cast<std::int64_t>(number_attr(ad, "HeldJobs"));
  }
  void into(classad::ClassAd& row) const {
    row.set("RunningJobs", running);
    row.set("IdleJobs", idle);
    row.set("HeldJobs", held);
  }
};

classad::ClassAd row(const char* type, std::int64_t now, const std::string& name) {
  classad::ClassAd r;
  r.set("MyType", type);
  r.set("Time", now);
  r.set("Name", name);
  return r;
}

}  // namespace

Result<PoolHistoryPolicy> PoolHistoryPolicy::from_config(const config::Config& config) {
  PoolHistoryPolicy p;
  auto keep = config.boolean("KEEP_POOL_HISTORY");
  if (!keep) return Error{keep.error()};
  p.keep = *keep;
  auto dir = config.string("POOL_HISTORY_DIR");
  if (dir) p.dir = *dir;
  auto storage = config.integer("POOL_HISTORY_MAX_STORAGE");
  if (!storage) return Error{storage.error()};
  if (*storage <= 0) return Error{"POOL_HISTORY_MAX_STORAGE must be a positive number of bytes"};
  p.max_storage = *storage;
  auto interval = config.positive_seconds("POOL_HISTORY_SAMPLING_INTERVAL");
  if (!interval) return Error{interval.error()};
  p.sampling_interval = *interval;
  if (p.keep && p.dir.empty()) return Error{"KEEP_POOL_HISTORY is true but POOL_HISTORY_DIR is empty"};
  auto accounting = accounting::AccountantConfig::from_config(config);
  if (!accounting) return Error{accounting.error()};
  p.accounting = std::move(*accounting);
  return p;
}

std::vector<classad::ClassAd> sample_pool(const AdStore& ads, const PoolHistoryPolicy& policy,
                                          std::int64_t now) {
  std::vector<classad::ClassAd> rows;
  struct Machine {
    std::int64_t slots = 0, busy = 0;
    std::map<std::string, std::int64_t> states;
    double cpus = 0, cpus_in_use = 0;
  };
  std::map<std::string, Machine> machines;
  for (const classad::ClassAd& slot : ads.query(AdQuery{AdType::Machine, {}, false}, now)) {
    std::string name = string_attr(slot, "Machine");
    if (name.empty()) name = string_attr(slot, "Name");
    Machine& m = machines[name];
    ++m.slots;
    const std::string state = string_attr(slot, "State");
    ++m.states[state];
    if (string_attr(slot, "Activity") == "Busy") ++m.busy;
    const double cpus = number_attr(slot, "Cpus");
    m.cpus += cpus;
    if (state == "Claimed") m.cpus_in_use += cpus;
  }
  for (const auto& [name, m] : machines) {
    classad::ClassAd r = row("MachineHistory", now, name);
    r.set("Slots", m.slots);
    for (const char* state : kStates) {
      auto it = m.states.find(state);
      r.set(state, it == m.states.end() ? std::int64_t{0} : it->second);
    }
    r.set("Busy", m.busy);
    r.set("Cpus", m.cpus);
    r.set("CpusInUse", m.cpus_in_use);
    rows.push_back(std::move(r));
  }
  std::map<std::string, Jobs> submitters;
  for (const classad::ClassAd& ad : ads.query(AdQuery{AdType::Submitter, {}, false}, now))
    submitters[string_attr(ad, "Name")].add(ad);
  std::map<std::string, std::pair<Jobs, std::int64_t>> groups;
  for (const auto& [name, jobs] : submitters) {
    const std::string group = policy.accounting.group_of(name);
    classad::ClassAd r = row("SubmitterHistory", now, name);
    r.set("Group", group);
    jobs.into(r);
    rows.push_back(std::move(r));
    auto& g = groups[group];
    g.first.running += jobs.running;
    g.first.idle += jobs.idle;
    g.first.held += jobs.held;
    ++g.second;
  }
  for (const auto& [name, g] : groups) {
    classad::ClassAd r = row("GroupHistory", now, name);
    r.set("Submitters", g.second);
    g.first.into(r);
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace cara::collector
