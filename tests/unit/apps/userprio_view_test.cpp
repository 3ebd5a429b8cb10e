// cara userprio without a negotiator (apps/commands/userprio_view.h):
// options, changes, and condor_userprio's tables, -quotas exactly as the
// spec's example (central-manager-configuration, "condor_userprio -quotas").
#include "apps/commands/userprio_view.h"

#include <catch2/catch.hpp>

#include "tests/support/ads.h"

using namespace cara;
using namespace cara::apps;
using cara::test_ads::ad;

namespace {

UserprioOptions options(const std::vector<std::string>& args) {
  auto o = parse_userprio_options(args);
  if (!o) FAIL(o.error());
  return *o;
}

constexpr std::int64_t kUpdate = 1794496680;  // 11/12 15:18 UTC

}  // namespace

TEST_CASE("condor_userprio -quotas: the spec's example to the character", "[userprio]") {
  AccountantView a;
  a.last_update = kUpdate;
  a.groups = {ad("[ Name = \"<none>\"; EffectiveQuota = 0.0; ConfigQuota = 0.0; SurplusPolicy = \"no\"; "
                 "SubtreeQuota = 20.0; Requested = 0 ]"),
              ad("[ Name = \"group_physics.hep\"; EffectiveQuota = 15.0; ConfigQuota = 15.0; SurplusPolicy = "
                 "\"no\"; SubtreeQuota = 15.0; Requested = 60 ]"),
              ad("[ Name = \"group_physics.lep\"; EffectiveQuota = 5.0; ConfigQuota = 5.0; SurplusPolicy = "
                 "\"no\"; SubtreeQuota = 5.0; Requested = 60 ]")};
  CHECK(format_userprio(options({"-quotas"}), a, kUpdate, 0) ==
        "Last Priority Update: 11/12 15:18\n"
        "Group                    Effective  Config     Use    Subtree  Requested \n"
        "Name                       Quota     Quota   Surplus   Quota   Resources \n"
        "------------------------ --------- --------- ------- --------- ---------- \n"
        "group_physics.hep            15.00     15.00 no          15.00         60 \n"
        "group_physics.lep             5.00      5.00 no           5.00         60 \n"
        "------------------------ --------- --------- ------- --------- ---------- \n"
        "Number of users: 2                                 ByQuota\n");
}

TEST_CASE("condor_userprio's default table: effective priority, factor, in use, usage, last usage",
          "[userprio]") {
  AccountantView a;
  a.last_update = kUpdate;
  a.records = {
      ad("[ Name = \"bob@pool\"; Priority = 2.5; PriorityFactor = 1000.0; EffectivePriority = 2500.0; "
         "ResourcesUsed = 0.0; WeightedResourcesUsed = 0.0; AccumulatedUsage = 7200.0; "
         "WeightedAccumulatedUsage = 7200.0; BeginUsageTime = 1794400000; LastUsageTime = " +
         std::to_string(kUpdate - 90000) + " ]"),
      ad("[ Name = \"alice@pool\"; Priority = 0.5; PriorityFactor = 1000.0; EffectivePriority = 500.0; "
         "ResourcesUsed = 3.0; WeightedResourcesUsed = 3.0; AccumulatedUsage = 1800.0; "
         "WeightedAccumulatedUsage = 1800.0; BeginUsageTime = 1794490000; LastUsageTime = " +
         std::to_string(kUpdate) + " ]"),
      // A factor of ten million is printed as a number, not 1E+07.
      ad("[ Name = \"idle@pool\"; Priority = 0.5; PriorityFactor = 10000000.0; EffectivePriority = "
         "5000000.0; "
         "ResourcesUsed = 0.0; WeightedResourcesUsed = 0.0; AccumulatedUsage = 0.0; "
         "WeightedAccumulatedUsage = 0.0; BeginUsageTime = 0; LastUsageTime = 0 ]")};
  CHECK(format_userprio(options({}), a, kUpdate, 0) ==
        "Last Priority Update: 11/12 15:18\n"
        "                                      Effective  Priority    Res  Total Usage Time Since \n"
        "User Name                              Priority    Factor In Use (wghted-hrs) Last Usage \n"
        "---------------------------------- ------------ --------- ------ ------------ ---------- \n"
        "alice@pool                               500.00   1000.00      3         0.50      <now> \n"
        "bob@pool                                2500.00   1000.00      0         2.00    1+01:00 \n"
        "---------------------------------- ------------ --------- ------ ------------ ---------- \n"
        "Number of users: 2                                             3         2.50\n");
  // -allusers: also the records with no usage; the factor in full.
  const std::string all = format_userprio(options({"-allusers"}), a, kUpdate, 0);
  CHECK_THAT(
      all, Catch::Contains(
               "idle@pool                            5000000.00 10000000.00      0         0.00    <never>"));
  CHECK_THAT(all, Catch::Contains("Number of users: 3"));
  // -most: real priority and the usage times.
  const std::string most = format_userprio(options({"-most"}), a, kUpdate, 0);
  CHECK_THAT(most, Catch::Contains("Real") && Catch::Contains("Start Time") &&
                       Catch::Contains("11/12/2026 15:18") && Catch::Contains("     0.50 "));
  const std::string usage = format_userprio(options({"-usage"}), a, kUpdate, 0);
  CHECK(usage.find("Factor") == std::string::npos);
  CHECK_THAT(usage, Catch::Contains("Usage Time"));
  CHECK(format_userprio(options({"-af", "Name", "PriorityFactor"}), a, kUpdate, 0) ==
        "alice@pool 1000.0\nbob@pool 1000.0\n");
}

TEST_CASE("condor_userprio -getreslist: the claims a submitter is charged for", "[userprio]") {
  AccountantView a;
  a.claims = {ad("[ Name = \"slot1@ep1\"; Submitter = \"alice@pool\"; SlotWeight = 1.0; StartTime = " +
                 std::to_string(kUpdate - 60) + " ]"),
              ad("[ Name = \"slot2@ep1\"; Submitter = \"bob@pool\"; SlotWeight = 1.0; StartTime = 1 ]")};
  CHECK(format_userprio(options({"-getreslist", "alice@pool"}), a, kUpdate, 0) ==
        "alice@pool: 1 resource\n"
        "  slot1@ep1                                since 11/12/2026 15:17 (60 s), weight 1.00\n");
}

TEST_CASE("condor_userprio's changes: parsed, checked against the records, worded", "[userprio]") {
  UserprioOptions o = options({"-setfactor", "alice@pool", "2000", "-setceil", "group_cms", "8", "-duration",
                               "3600", "-resetusage", "bob@pool", "-setbegin", "alice@pool", "1700000000"});
  REQUIRE(o.edits.size() == 4);
  CHECK(o.edits[1].command == "setceil");
  CHECK(o.edits[1].duration == 3600);
  CHECK(describe_edit(o.edits[0]) == "The priority factor of alice@pool was set to 2000.00");
  CHECK(describe_edit(o.edits[1]) == "The ceiling of group_cms was set to 8 for 3600 seconds");
  CHECK(describe_edit(o.edits[2]) == "The usage of bob@pool was reset");

  for (const auto& [bad, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"-setfactor", "alice@pool"}, "-setfactor expects a name and a value"},
           {{"-setfactor", "alice@pool", "big"}, "-setfactor expects a number, not 'big'"},
           {{"-duration", "60"}, "-duration follows a -setfloor or -setceil"},
           {{"-setfloor", "a@b", "2", "-duration", "0"}, "-duration expects a positive number of seconds"},
           {{"-bogus"}, "unknown option -bogus"},
           {{"alice"}, "unexpected argument alice"}}) {
    auto r = parse_userprio_options(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error() == why);
  }

  AccountantView a;
  a.records = {ad("[ Name = \"alice@pool\" ]")};
  a.groups = {ad("[ Name = \"group_cms\" ]")};
  CHECK_FALSE(check_edit_target(UserprioEdit{"setfactor", "alice@pool", 2, 0}, a).value());
  CHECK_FALSE(check_edit_target(UserprioEdit{"setceil", "group_cms", 2, 0}, a).value());
  // A new submitter gets a record, and the tool says so.
  auto fresh = check_edit_target(UserprioEdit{"setfactor", "carol@pool", 2, 0}, a);
  REQUIRE(fresh);
  CHECK(*fresh == std::optional<std::string>(
                      "carol@pool has no record yet: one is made for it (it has not submitted)"));
  // A name that is neither is refused; so is deleting what is not there.
  CHECK(check_edit_target(UserprioEdit{"setfactor", "carol", 2, 0}, a).error() ==
        "no submitter or group named carol: a submitter is named user@domain, a group as GROUP_NAMES has it");
  CHECK(check_edit_target(UserprioEdit{"delete", "dave@pool", 0, 0}, a).error() ==
        "no submitter or group named dave@pool has a record");
}
