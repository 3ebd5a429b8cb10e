#include "model/monitor/pool_summary.h"

#include <algorithm>

#include "model/classad/attr_read.h"
#include "model/common/text.h"

namespace cara::monitor {
namespace {

using classad::attr_bool;
using classad::attr_number;
using classad::attr_string;

std::int64_t count(const classad::ClassAd& ad, std::string_view name) {
  return static_cast<std::int64_t>(attr_number(ad, name));
}

Jobs jobs_of(const classad::ClassAd& row) {
  return Jobs{count(row, "RunningJobs"), count(row, "IdleJobs"), count(row, "HeldJobs")};
}

void add_slots(PoolSummary& s, const std::vector<classad::ClassAd>& slots) {
  std::map<std::pair<std::string, std::string>, SlotStates> by;
  for (const classad::ClassAd& slot : slots) {
    const std::string state = attr_string(slot, "State"), activity = attr_string(slot, "Activity");
    SlotStates& b = by[{state, activity}];
    b.state = state;
    b.activity = activity;
    ++b.slots;
    b.cpus += attr_number(slot, "Cpus");
  }
  for (auto& [key, b] : by) s.slots.push_back(std::move(b));
  s.total_slots = static_cast<std::int64_t>(slots.size());
}

void add_rows(PoolSummary& s, const std::vector<classad::ClassAd>& rows) {
  for (const classad::ClassAd& r : rows) {
    const std::string type = attr_string(r, "MyType"), name = attr_string(r, "Name");
    if (type == "MachineHistory") {
      ++s.machines;
      s.cpus += attr_number(r, "Cpus");
      s.cpus_in_use += attr_number(r, "CpusInUse");
    } else if (type == "SubmitterHistory") {
      SubmitterSummary sub;
      sub.name = name;
      sub.group = attr_string(r, "Group");
      sub.jobs = jobs_of(r);
      s.jobs.running += sub.jobs.running;
      s.jobs.idle += sub.jobs.idle;
      s.jobs.held += sub.jobs.held;
      s.submitters.push_back(std::move(sub));
    } else if (type == "GroupHistory") {
      GroupSummary g;
      g.name = name;
      g.submitters = count(r, "Submitters");
      g.jobs = jobs_of(r);
      s.groups.push_back(std::move(g));
    }
  }
}

// The entry named `name` in `items`, added at the end when there is none.
template <class T>
T& entry(std::vector<T>& items, const std::string& name) {
  for (T& i : items)
    if (i.name == name) return i;
  T added;
  added.name = name;
  return items.emplace_back(std::move(added));
}

void add_priorities(PoolSummary& s, const std::vector<classad::ClassAd>& accounting,
                    const accounting::AccountantConfig& groups) {
  for (const classad::ClassAd& a : accounting) {
    if (attr_bool(a, "IsAccountingGroup", false)) continue;
    const std::string name = attr_string(a, "Name");
    SubmitterSummary& u = entry(s.submitters, name);
    // A user the accountant remembers with no jobs queued now is listed too.
    if (u.group.empty()) u.group = groups.group_of(name);
    u.has_priority = true;
    u.priority = attr_number(a, "Priority");
    u.effective_priority = attr_number(a, "EffectivePriority");
    u.factor = attr_number(a, "PriorityFactor");
    u.resources_used = attr_number(a, "WeightedResourcesUsed");
    u.accumulated_usage = attr_number(a, "WeightedAccumulatedUsage");
  }
}

void add_quotas(PoolSummary& s, const std::vector<classad::ClassAd>& groups) {
  for (const classad::ClassAd& a : groups) {
    GroupSummary& g = entry(s.groups, attr_string(a, "Name"));
    g.has_quota = true;
    g.config_quota = attr_number(a, "ConfigQuota");
    g.effective_quota = attr_number(a, "EffectiveQuota");
    g.requested = attr_number(a, "Requested");
    g.allocated = attr_number(a, "GroupResourcesAllocated");
    g.in_use = attr_number(a, "GroupResourcesInUse");
  }
}

void add_negotiators(PoolSummary& s, const std::vector<classad::ClassAd>& negotiators) {
  for (const classad::ClassAd& a : negotiators) {
    NegotiatorSummary n;
    n.name = attr_string(a, "Name");
    // Without high availability the one negotiator is the active one.
    n.active = attr_bool(a, "HadActive", true);
    n.term = count(a, "HadTerm");
    n.active_since = count(a, "HadActiveSince");
    n.cycles = count(a, "NegotiationCycles");
    n.cycle_time = count(a, "LastNegotiationCycleTime0");
    n.duration = attr_number(a, "LastNegotiationCycleDuration0");
    for (int p = 0; p < 4; ++p)
      n.phase[p] = attr_number(a, "LastNegotiationCyclePhase" + std::to_string(p + 1) + "Duration0");
    n.matches = count(a, "LastNegotiationCycleMatches0");
    n.rejections = count(a, "LastNegotiationCycleRejections0");
    n.match_rate = attr_number(a, "LastNegotiationCycleMatchRate0");
    s.negotiators.push_back(std::move(n));
  }
}

void add_daemons(PoolSummary& s, const std::vector<classad::ClassAd>& masters) {
  for (const classad::ClassAd& m : masters) {
    const std::string machine = attr_string(m, "Name");
    const std::vector<std::string> listed = split_list(attr_string(m, "DaemonList"));
    const std::string running_attr = attr_string(m, "DaemonsRunning");
    // A master that does not say (another version's ad) has its daemons up.
    const std::vector<std::string> running = running_attr.empty() ? listed : split_list(running_attr);
    for (const std::string& d : listed)
      s.daemons.push_back(
          DaemonState{machine, d, std::find(running.begin(), running.end(), d) != running.end()});
  }
}

}  // namespace

PoolSummary summarize(const PoolView& view, const accounting::AccountantConfig& accounting) {
  PoolSummary s;
  s.now = view.now;
  s.ha = view.ha;
  add_slots(s, view.live.slots);
  add_rows(s, collector::sample_ads(view.live, accounting, view.now));
  add_priorities(s, view.accounting, accounting);
  add_quotas(s, view.groups);
  add_negotiators(s, view.live.negotiators);
  add_daemons(s, view.masters);
  for (const classad::ClassAd& c : view.collectors)
    s.collectors.push_back(
        CollectorSummary{attr_string(c, "Name"), count(c, "UpdatesTotal"), count(c, "UpdatesLost")});
  s.ad_counts = {{"Machine", static_cast<std::int64_t>(view.live.slots.size())},
                 {"Submitter", static_cast<std::int64_t>(view.live.submitters.size())},
                 {"Negotiator", static_cast<std::int64_t>(view.live.negotiators.size())},
                 {"Scheduler", static_cast<std::int64_t>(view.schedulers.size())},
                 {"DaemonMaster", static_cast<std::int64_t>(view.masters.size())},
                 {"Collector", static_cast<std::int64_t>(view.collectors.size())},
                 {"Accounting", static_cast<std::int64_t>(view.accounting.size())}};
  auto by_name = [](const auto& a, const auto& b) { return a.name < b.name; };
  std::sort(s.submitters.begin(), s.submitters.end(), by_name);
  std::sort(s.groups.begin(), s.groups.end(), by_name);
  return s;
}

}  // namespace cara::monitor
