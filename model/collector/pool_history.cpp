#include "model/collector/pool_history.h"

#include <map>

#include "model/classad/attr_read.h"
#include "model/config/config.h"

namespace cara::collector {
namespace {

using classad::attr_number;
using classad::attr_string;

constexpr const char* kStates[] = {"Unclaimed",  "Claimed", "Owner",   "Matched",
                                   "Preempting", "Drained", "Backfill"};

struct Jobs {
  std::int64_t running = 0, idle = 0, held = 0;
  void add(const classad::ClassAd& ad) {
    running += static_cast<std::int64_t>(attr_number(ad, "RunningJobs"));
    idle += static_cast<std::int64_t>(attr_number(ad, "IdleJobs"));
    held += static_cast<std::int64_t>(attr_number(ad, "HeldJobs"));
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
  PoolAds live;
  live.slots = ads.query(AdQuery{AdType::Machine, {}, false}, now);
  live.submitters = ads.query(AdQuery{AdType::Submitter, {}, false}, now);
  live.negotiators = ads.query(AdQuery{AdType::Negotiator, {}, false}, now);
  return sample_ads(live, policy.accounting, now);
}

std::vector<classad::ClassAd> sample_ads(const PoolAds& ads, const accounting::AccountantConfig& accounting,
                                         std::int64_t now) {
  std::vector<classad::ClassAd> rows;
  struct Machine {
    std::int64_t slots = 0, busy = 0;
    std::map<std::string, std::int64_t> states;
    double cpus = 0, cpus_in_use = 0;
  };
  std::map<std::string, Machine> machines;
  for (const classad::ClassAd& slot : ads.slots) {
    std::string name = attr_string(slot, "Machine");
    if (name.empty()) name = attr_string(slot, "Name");
    Machine& m = machines[name];
    ++m.slots;
    const std::string state = attr_string(slot, "State");
    ++m.states[state];
    if (attr_string(slot, "Activity") == "Busy") ++m.busy;
    const double cpus = attr_number(slot, "Cpus");
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
  for (const classad::ClassAd& ad : ads.submitters) submitters[attr_string(ad, "Name")].add(ad);
  std::map<std::string, std::pair<Jobs, std::int64_t>> groups;
  for (const auto& [name, jobs] : submitters) {
    const std::string group = accounting.group_of(name);
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
  for (const classad::ClassAd& ad : ads.negotiators) {
    classad::ClassAd r = row("NegotiatorHistory", now, attr_string(ad, "Name"));
    r.set("Cycles", static_cast<std::int64_t>(attr_number(ad, "NegotiationCycles")));
    r.set("CycleTime", static_cast<std::int64_t>(attr_number(ad, "LastNegotiationCycleTime0")));
    r.set("CycleDuration", attr_number(ad, "LastNegotiationCycleDuration0"));
    r.set("Matches", static_cast<std::int64_t>(attr_number(ad, "LastNegotiationCycleMatches0")));
    r.set("Rejections", static_cast<std::int64_t>(attr_number(ad, "LastNegotiationCycleRejections0")));
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace cara::collector
