// A small pool as the web endpoint would gather it: two machines (one with
// a partitionable slot and two dynamic slots), submitters in two groups and
// none, the accountant's records, the groups' reports, a negotiator of HA
// term 3, two masters (one with its STARTD down) and the collector's ad.
#pragma once

#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/monitor/pool_summary.h"
#include "tests/support/ads.h"

namespace cara::test_web {

using test_ads::ad;

inline monitor::PoolView small_pool() {
  monitor::PoolView v;
  v.now = 1700000000;
  v.live.slots = {
      ad(R"([ Name = "slot1@ep1"; Machine = "ep1"; State = "Unclaimed"; Activity = "Idle"; Cpus = 4 ])"),
      ad(R"([ Name = "slot1_1@ep1"; Machine = "ep1"; State = "Claimed"; Activity = "Busy"; Cpus = 2 ])"),
      ad(R"([ Name = "slot1_2@ep1"; Machine = "ep1"; State = "Claimed"; Activity = "Busy"; Cpus = 2 ])"),
      ad(R"([ Name = "slot1@ep2"; Machine = "ep2"; State = "Claimed"; Activity = "Idle"; Cpus = 1 ])"),
      ad(R"([ Name = "slot2@ep2"; Machine = "ep2"; State = "Owner"; Activity = "Idle"; Cpus = 1 ])"),
  };
  v.live.submitters = {
      ad(R"([ Name = "group_cms.alice@pool"; ScheddName = "ap1"; RunningJobs = 2; IdleJobs = 5; HeldJobs = 1 ])"),
      ad(R"([ Name = "group_cms.alice@pool"; ScheddName = "ap2"; RunningJobs = 1; IdleJobs = 0; HeldJobs = 0 ])"),
      ad(R"([ Name = "group_atlas.bob@pool"; ScheddName = "ap1"; RunningJobs = 0; IdleJobs = 3; HeldJobs = 0 ])"),
      ad(R"([ Name = "carol@pool"; ScheddName = "ap1"; RunningJobs = 0; IdleJobs = 1; HeldJobs = 2 ])"),
  };
  v.live.negotiators = {ad(
      R"([ Name = "cm1"; NegotiationCycles = 42; LastNegotiationCycleTime0 = 1699999990;
           LastNegotiationCycleDuration0 = 0.25; LastNegotiationCyclePhase1Duration0 = 0.01;
           LastNegotiationCyclePhase2Duration0 = 0.02; LastNegotiationCyclePhase3Duration0 = 0.03;
           LastNegotiationCyclePhase4Duration0 = 0.19; LastNegotiationCycleMatches0 = 3;
           LastNegotiationCycleRejections0 = 1; LastNegotiationCycleMatchRate0 = 12.0;
           HadActive = true; HadTerm = 3; HadActiveSince = 1699990000 ])")};
  v.accounting = {
      ad(R"([ Name = "group_cms.alice@pool"; IsAccountingGroup = false; Priority = 2.5; PriorityFactor = 1000.0;
              EffectivePriority = 2500.0; WeightedResourcesUsed = 3.0; WeightedAccumulatedUsage = 7200.0 ])"),
      ad(R"([ Name = "dave@pool"; IsAccountingGroup = false; Priority = 0.5; PriorityFactor = 1.0;
              EffectivePriority = 0.5; WeightedResourcesUsed = 0.0; WeightedAccumulatedUsage = 60.0 ])"),
      ad(R"([ Name = "group_cms"; IsAccountingGroup = true; Priority = 2.5; PriorityFactor = 1.0 ])"),
  };
  v.groups = {
      ad(R"([ Name = "group_cms"; ConfigQuota = 4.0; EffectiveQuota = 4.0; Requested = 8.0;
              GroupResourcesAllocated = 5.0; GroupResourcesInUse = 3.0 ])"),
      ad(R"([ Name = "group_atlas"; ConfigQuota = 2.0; EffectiveQuota = 2.0; Requested = 3.0;
              GroupResourcesAllocated = 2.0; GroupResourcesInUse = 0.0 ])"),
      ad(R"([ Name = "<none>"; ConfigQuota = 0.0; EffectiveQuota = 4.0; Requested = 1.0;
              GroupResourcesAllocated = 1.0; GroupResourcesInUse = 0.0 ])"),
  };
  v.masters = {
      ad(R"([ Name = "cm1"; DaemonList = "MASTER, COLLECTOR, NEGOTIATOR"; DaemonsRunning = "MASTER, COLLECTOR, NEGOTIATOR" ])"),
      ad(R"([ Name = "ep1"; DaemonList = "MASTER, STARTD"; DaemonsRunning = "MASTER" ])"),
  };
  v.collectors = {ad(R"([ Name = "cm1"; UpdatesTotal = 1234; UpdatesLost = 5 ])")};
  v.ha = monitor::HaRole{0, true, 3, 1699990000};
  return v;
}

inline config::Config config_of(const std::string& text) {
  auto c = config::config_from_text(text, {"COLLECTOR", ""}, std::make_shared<config::MemoryHost>());
  if (!c) FAIL(c.error());
  return std::move(*c);
}

inline accounting::AccountantConfig groups() {
  auto c = config_of("GROUP_NAMES = group_cms, group_atlas\n");
  auto a = accounting::AccountantConfig::from_config(c);
  REQUIRE(a);
  return *a;
}

}  // namespace cara::test_web
