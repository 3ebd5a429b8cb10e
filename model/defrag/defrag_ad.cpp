// The defrag daemon's ad: the Defrag ClassAd attributes of HTCondor's
// reference ("Defrag ClassAd Attributes"), from the statistics the polls
// keep.
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/defrag/defrag.h"

namespace cara::defrag {

classad::ClassAd Defrag::ad(std::int64_t now) const {
  classad::ClassAd ad;
  ad.set("MyType", "Defrag");
  ad.set("Name", policy_.name);
  ad.set("Machine", policy_.host);
  ad.set("DaemonStartTime", started_);
  ad.set("MonitorSelfAge", now - started_);
  ad.set("MyCurrentTime", now);
  if (last_poll_ > 0) ad.set("LastPollTime", last_poll_);
  ad.set("MachinesDraining", machines_draining_);
  ad.set("MachinesDrainingPeak", machines_draining_peak_);
  ad.set("WholeMachines", whole_machines_);
  ad.set("WholeMachinesPeak", whole_machines_peak_);
  ad.set("DrainedMachines", drained_arrived_);
  // "The mean time in seconds between arrivals of fully drained machines."
  if (drained_arrived_ > 0)
    ad.set("MeanDrainedArrived", arrival_seconds_ / static_cast<double>(drained_arrived_));
  ad.set("AvgDrainingBadput", avg_badput_);
  // HTCondor's daemon publishes AvgDrainingUnclaimed (as the central
  // manager section names it); its attribute reference says
  // AvgDrainingUnclaimedTime. Both, so either query works.
  ad.set("AvgDrainingUnclaimed", avg_unclaimed_);
  ad.set("AvgDrainingUnclaimedTime", avg_unclaimed_);
  ad.set("DrainSuccesses", successes_);
  ad.set("DrainFailures", failures_);
  const std::int64_t window = stats_window();
  std::int64_t recent_ok = 0, recent_failed = 0;
  for (const auto& [when, ok] : recent_)
    if (when > now - window) (ok ? recent_ok : recent_failed) += 1;
  ad.set("RecentDrainSuccesses", recent_ok);
  ad.set("RecentDrainFailures", recent_failed);
  ad.set("RecentStatsLifetime", window);
  // The last ten drains and cancellations, newest first.
  auto list = [](const std::deque<Logged>& log, bool what) {
    std::string text = "{ ";
    for (auto it = log.rbegin(); it != log.rend(); ++it) {
      if (it != log.rbegin()) text += ", ";
      text += "[ when = " + std::to_string(it->when) +
              "; who = " + classad::unparse(classad::Value::string(it->who));
      if (what) text += "; what = " + classad::unparse(classad::Value::string(it->what));
      text += " ]";
    }
    return *classad::parse_expression(text + " }");
  };
  ad.insert("RecentDrainsList", list(drains_, true));
  ad.insert("RecentCancelsList", list(cancels_, false));
  // The policy it works by, for `cara status -defrag -l`.
  ad.set("DefragInterval", policy_.interval);
  ad.set("DefragDrainingMachinesPerHour", policy_.machines_per_hour);
  ad.set("DefragMaxConcurrentDraining", policy_.max_concurrent_draining);
  ad.set("DefragMaxWholeMachines", policy_.max_whole_machines);
  ad.set("DefragSchedule", policy_.schedule_name);
  return ad;
}

}  // namespace cara::defrag
