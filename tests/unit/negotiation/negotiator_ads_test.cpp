// The negotiator's ads, under HTCondor's attribute names: its own
// Negotiator ad, the Accounting ads condor_userprio reads, and a group's.
#include "model/negotiation/negotiator_ads.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"
#include "unit/negotiation/support.h"

using namespace cara;
using namespace cara::negotiation;

namespace {

double number(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  REQUIRE(v.is_number());
  return v.is_int() ? static_cast<double>(v.as_int()) : v.as_real();
}
std::string text(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  REQUIRE(v.is_string());
  return std::string(v.as_string());
}
bool flag(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  REQUIRE(v.is_bool());
  return v.as_bool();
}

}  // namespace

TEST_CASE("the Negotiator ad carries the last cycle's LastNegotiationCycle*0 statistics",
          "[negotiation][ads]") {
  CycleStats last;
  last.time = 1700000000;
  last.matches = 7;
  last.rejections = 2;
  last.active_submitter_count = 3;
  const classad::ClassAd ad = negotiator_ad("cm.example.org", 42, last);
  CHECK(text(ad, "MyType") == "Negotiator");
  CHECK(text(ad, "Name") == "cm.example.org");
  CHECK(number(ad, "NegotiationCycles") == 42);
  CHECK(number(ad, "LastNegotiationCycleTime0") == 1700000000);
  CHECK(number(ad, "LastNegotiationCycleMatches0") == 7);
  CHECK(number(ad, "LastNegotiationCycleRejections0") == 2);
  CHECK(number(ad, "LastNegotiationCycleActiveSubmitterCount0") == 3);
  CHECK_FALSE(ad.lookup("MyAddress"));
  CHECK(text(negotiator_ad("cm", 1, last, "127.0.0.1:9618"), "MyAddress") == "127.0.0.1:9618");
}

TEST_CASE("a negotiator is named by NEGOTIATOR_NAME, else by FULL_HOSTNAME", "[negotiation][ads][shards]") {
  auto named = [](const std::string& text) { return negotiator_name(test::negotiator_config(text)); };
  CHECK(named("FULL_HOSTNAME = cm.example.org\n") == "cm.example.org");
  CHECK(named("FULL_HOSTNAME = cm.example.org\nNEGOTIATOR_NAME = gpu\n") == "gpu");
}

TEST_CASE("an accountant record is an Accounting ad as condor_userprio reads it", "[negotiation][ads]") {
  accounting::CustomerRecord r;
  r.name = "cms001@physik.rwth-aachen.de";
  r.priority = 12.5;
  r.factor = 1000;
  r.resources_used = 3;
  r.weighted_resources_used = 6;
  r.accumulated_usage = 3600;
  r.weighted_accumulated_usage = 7200;
  r.begin_usage_time = 1535000000;
  r.last_usage_time = 1535003600;
  classad::ClassAd ad = accounting_ad(r);
  CHECK(text(ad, "MyType") == "Accounting");
  CHECK(text(ad, "Name") == r.name);
  CHECK_FALSE(flag(ad, "IsAccountingGroup"));
  CHECK(number(ad, "Priority") == 12.5);
  CHECK(number(ad, "PriorityFactor") == 1000);
  CHECK(number(ad, "EffectivePriority") == 12500);
  CHECK(number(ad, "ResourcesUsed") == 3);
  CHECK(number(ad, "WeightedResourcesUsed") == 6);
  CHECK(number(ad, "AccumulatedUsage") == 3600);
  CHECK(number(ad, "WeightedAccumulatedUsage") == 7200);
  CHECK(number(ad, "BeginUsageTime") == 1535000000);
  CHECK(number(ad, "LastUsageTime") == 1535003600);
  CHECK_FALSE(ad.lookup("Floor"));
  CHECK_FALSE(ad.lookup("Ceiling"));
  CHECK_FALSE(ad.lookup("NegotiatorName"));
  // One of several negotiators sharding the pool: its ads say whose they are.
  CHECK(text(accounting_ad(r, "gpu"), "NegotiatorName") == "gpu");
  r.floor = accounting::Limit{2, std::nullopt};
  r.ceiling = accounting::Limit{10, 1535007200};
  ad = accounting_ad(r);
  CHECK(number(ad, "Floor") == 2);
  CHECK(number(ad, "Ceiling") == 10);
}

TEST_CASE("a group's turn is an Accounting ad with its quotas", "[negotiation][ads]") {
  GroupOutcome o;
  o.name = "group_cms";
  o.configured_quota = 0.6;
  o.effective_quota = 60;
  o.subtree_quota = 60;
  o.accept_surplus = true;
  o.requested = 80;
  o.allocated = 70;
  o.usage = 55;
  o.matched = 15;
  o.turn = 1;
  o.sort_key = 0.9;
  const classad::ClassAd ad = group_ad(o, 9);
  CHECK(text(ad, "MyType") == "Accounting");
  CHECK(text(ad, "Name") == "group_cms");
  CHECK(flag(ad, "IsAccountingGroup"));
  CHECK(number(ad, "ConfigQuota") == 0.6);
  CHECK(number(ad, "EffectiveQuota") == 60);
  CHECK(number(ad, "SubtreeQuota") == 60);
  CHECK(text(ad, "SurplusPolicy") == "byquota");
  CHECK(number(ad, "Requested") == 80);
  CHECK(number(ad, "GroupResourcesAllocated") == 70);
  CHECK(number(ad, "GroupResourcesInUse") == 55);
  CHECK_FALSE(flag(ad, "Oversubscribed"));
  CHECK(number(ad, "MatchesLastCycle") == 15);
  CHECK(number(ad, "NegotiationTurn") == 1);
  CHECK(number(ad, "LastCycle") == 9);
}

TEST_CASE("what the last cycle did for each submitter, for condor_q -better-analyze", "[negotiation][ads]") {
  CycleResult r;
  SubmitterOutcome alice;
  alice.name = "alice@pool";
  alice.matched = 2;
  SubmitterOutcome bob;
  bob.name = "bob@pool";
  r.submitters = {alice, bob};
  r.rejections = {Rejection{"bob@pool", 0, std::nullopt, "no match found"},
                  Rejection{"bob@pool", 1, std::nullopt, "group quota exceeded"},
                  Rejection{"bob@pool", 2, std::nullopt, "no match found"}};
  const auto ads = submitter_cycle_ads(r, 1700000000);
  REQUIRE(ads.size() == 2);
  CHECK(text(ads[0], "Name") == "alice@pool");
  CHECK(number(ads[0], "Matched") == 2);
  CHECK(number(ads[1], "CycleTime") == 1700000000);
  // Each reason once, in the order first seen.
  const classad::Value reasons = classad::evaluate_attr(ads[1], "Rejections");
  REQUIRE(reasons.is_list());
  REQUIRE(reasons.as_list().size() == 2);
  CHECK(reasons.as_list()[1].as_string() == "group quota exceeded");
}
