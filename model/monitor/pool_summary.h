// What the central manager's web endpoint shows (issue 24): the pool as its
// collector and its negotiator see it, summed once here so that the
// Prometheus metrics, the JSON API and the dashboard agree. Jobs per
// submitter and group and slots per machine are counted by the pool
// history's rule (collector/pool_history.h sample_ads), so a live figure and
// a stored one never differ in how they count.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting/accountant_config.h"
#include "model/classad/classad.h"
#include "model/collector/pool_history.h"

namespace cara::monitor {

// This central manager's high-availability daemon, when it runs one.
struct HaRole {
  std::int32_t member = 0;  // its place in HAD_LIST
  bool active = false;      // its negotiator is the pool's
  std::int64_t term = 0;
  std::int64_t since = 0;  // when the role last changed
};

// What the endpoint gathered at `now`: the live ads of its collector by
// type, each group's report from the negotiator, its had's role.
struct PoolView {
  std::int64_t now = 0;
  collector::PoolAds live;  // slots, submitters, negotiators
  std::vector<classad::ClassAd> masters, collectors, accounting, schedulers;
  std::vector<classad::ClassAd> groups;  // the group actors' reports (negotiator_ads.h group_ad)
  std::optional<HaRole> ha;
};

struct Jobs {
  std::int64_t running = 0, idle = 0, held = 0;
};

struct SlotStates {
  std::string state, activity;
  std::int64_t slots = 0;
  double cpus = 0;
};

struct SubmitterSummary {
  std::string name, group;
  Jobs jobs;
  bool has_priority = false;  // the accountant has a record of it
  double priority = 0, effective_priority = 0, factor = 0, resources_used = 0, accumulated_usage = 0;
};

struct GroupSummary {
  std::string name;
  std::int64_t submitters = 0;
  Jobs jobs;
  bool has_quota = false;  // the negotiator reported the group
  double config_quota = 0, effective_quota = 0, requested = 0, allocated = 0, in_use = 0;
};

struct NegotiatorSummary {
  std::string name;
  bool active = false;  // HadActive, or the only negotiator without high availability
  std::int64_t term = 0, active_since = 0, cycles = 0, cycle_time = 0, matches = 0, rejections = 0;
  double duration = 0, phase[4] = {0, 0, 0, 0}, match_rate = 0;
};

struct DaemonState {
  std::string machine, daemon;
  bool up = false;
};

struct CollectorSummary {
  std::string name;
  std::int64_t updates_total = 0, updates_lost = 0;
};

struct PoolSummary {
  std::int64_t now = 0;
  std::vector<SlotStates> slots;  // by state then activity
  std::int64_t machines = 0, total_slots = 0;
  double cpus = 0, cpus_in_use = 0;
  Jobs jobs;  // the whole pool
  std::vector<SubmitterSummary> submitters;
  std::vector<GroupSummary> groups;
  std::vector<NegotiatorSummary> negotiators;
  std::vector<DaemonState> daemons;
  std::vector<CollectorSummary> collectors;
  std::map<std::string, std::int64_t> ad_counts;  // live ads by type name
  std::optional<HaRole> ha;
};

// Sums `view`; `accounting` says whose group a submitter is (GROUP_NAMES).
PoolSummary summarize(const PoolView& view, const accounting::AccountantConfig& accounting);

}  // namespace cara::monitor
