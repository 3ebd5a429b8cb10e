#include "model/collector/collector_ad.h"

#include "model/classad/eval.h"

namespace cara::collector {

classad::ClassAd collector_ad(const AdStore& store, const CollectorPolicy& policy,
                              const CollectorCounters& counters, std::int64_t now) {
  std::int64_t hosts = 0, claimed = 0, unclaimed = 0, owner = 0;
  for (const classad::ClassAd& slot :
       store.query(AdQuery{AdType::Machine, {nullptr, {"State"}}, false}, now)) {
    ++hosts;
    const classad::Value state = classad::evaluate_attr(slot, "State");
    if (!state.is_string()) continue;
    const std::string_view s = state.as_string();
    claimed += s == "Claimed";
    unclaimed += s == "Unclaimed";
    owner += s == "Owner";
  }
  std::int64_t running = 0, idle = 0, submitters = 0;
  for (const classad::ClassAd& sub :
       store.query(AdQuery{AdType::Submitter, {nullptr, {"RunningJobs", "IdleJobs"}}, false}, now)) {
    ++submitters;
    const classad::Value r = classad::evaluate_attr(sub, "RunningJobs");
    const classad::Value i = classad::evaluate_attr(sub, "IdleJobs");
    if (r.is_int()) running += r.as_int();
    if (i.is_int()) idle += i.as_int();
  }
  classad::ClassAd ad;
  ad.set("MyType", "Collector");
  ad.set("Name", policy.name);
  ad.set("Machine", policy.name);
  ad.set("HostsTotal", hosts);
  ad.set("HostsClaimed", claimed);
  ad.set("HostsUnclaimed", unclaimed);
  ad.set("HostsOwner", owner);
  ad.set("RunningJobs", running);
  ad.set("IdleJobs", idle);
  ad.set("SubmitterAds", submitters);
  ad.set("UpdatesTotal", counters.updates_total);
  ad.set("UpdatesLost", counters.updates_lost);
  ad.set("CollectorUpdateInterval", policy.update_interval);
  ad.set("ClassAdLifetime", 3 * policy.update_interval);
  ad.set("LastHeardFrom", now);
  return ad;
}

classad::ClassAd store_own_ad(AdStore& store, const CollectorPolicy& policy,
                              const CollectorCounters& counters, std::int64_t now) {
  classad::ClassAd ad = collector_ad(store, policy, counters, now);
  store.store(AdType::Collector, policy.name, ad, now);
  return ad;
}

}  // namespace cara::collector
