// cara status without a pool (apps/commands/status_view.h): its options,
// the constraint it sends, and HTCondor's tables it prints.
#include "apps/commands/status_view.h"

#include <catch2/catch.hpp>

#include "tests/support/ads.h"

using namespace cara;
using namespace cara::apps;
using cara::test_ads::ad;

namespace {

StatusOptions options(const std::vector<std::string>& args) {
  auto o = parse_status_options(args);
  REQUIRE(o);
  return *o;
}

constexpr std::int64_t kNow = 1700000000;

classad::ClassAd slot(const std::string& name, const std::string& machine, int id, const std::string& state,
                      const std::string& activity, std::int64_t since) {
  return ad("[ MyType = \"Machine\"; Name = \"" + name + "\"; Machine = \"" + machine +
            "\"; SlotID = " + std::to_string(id) + "; OpSys = \"LINUX\"; Arch = \"X86_64\"; State = \"" +
            state + "\"; Activity = \"" + activity +
            "\"; LoadAvg = 0.25; Memory = 2048; EnteredCurrentActivity = " + std::to_string(kNow - since) +
            " ]");
}

}  // namespace

TEST_CASE("cara status options: query type, display, constraint, names, pool", "[status]") {
  StatusOptions o = options({"-negotiator", "-pool", "cm2:9618"});
  CHECK(o.type == collector::AdType::Negotiator);
  CHECK(o.pool == std::optional<std::string>("cm2:9618"));
  o = options({"-af", "Name", "Cpus,Memory", "-constraint", "Cpus > 1", "ep1"});
  CHECK(o.output.mode == AdOutput::Mode::Autoformat);
  CHECK(o.output.af == std::vector<std::string>{"Name", "Cpus", "Memory"});
  CHECK(o.names == std::vector<std::string>{"ep1"});
  CHECK(status_constraint(o) == "(Cpus > 1) && (Name =?= \"ep1\" || Machine =?= \"ep1\")");
  CHECK(status_constraint(options({"-absent"})) == "Absent =?= true");
  CHECK(options({"-long", "-schedd"}).output.mode == AdOutput::Mode::Long);
  CHECK(options({"-compact"}).display == StatusOptions::Display::Compact);
  CHECK(options({"-any"}).any);

  auto bad = parse_status_options({"-constraint", "Cpus >"});
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::StartsWith("-constraint: "));
  bad = parse_status_options({"-bogus"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "unknown option -bogus");
  CHECK_FALSE(parse_status_options({"-pool"}));
  CHECK_FALSE(parse_status_options({"-af"}));
  CHECK_FALSE(parse_status_options({"-schedd", "-absent"}));
}

TEST_CASE("condor_status -compact: a machine per line, its slots summed", "[status]") {
  // A partitionable slot with 6 of 8 cpus left and a dynamic slot of 2.
  std::vector<classad::ClassAd> ads{
      ad("[ Name = \"slot1@ep1\"; Machine = \"ep1\"; SlotID = 1; SlotType = \"Partitionable\"; Arch = "
         "\"X86_64\"; "
         "OpSys = \"LINUX\"; State = \"Unclaimed\"; Activity = \"Idle\"; Cpus = 6; Memory = 12288; "
         "TotalSlotCpus = 8; TotalSlotMemory = 16384; LoadAvg = 0.0 ]"),
      ad("[ Name = \"slot1_1@ep1\"; Machine = \"ep1\"; SlotID = 1; SlotType = \"Dynamic\"; Arch = "
         "\"X86_64\"; "
         "OpSys = \"LINUX\"; State = \"Claimed\"; Activity = \"Busy\"; Cpus = 2; Memory = 4096; LoadAvg = "
         "1.5 ]"),
      slot("slot1@ep2", "ep2", 1, "Unclaimed", "Idle", 0)};
  CHECK(format_status(options({"-compact"}), ads, kNow) ==
        "Machine Platform  Slots Cpus TotalGb FreCpu FreeGb CpuLoad ST\n"
        "\n"
        "ep1     x64/LINUX     2    8   16.00      6  12.00    1.50 **\n"
        "ep2     x64/LINUX     1    0    2.00      0   2.00    0.25 Ui\n"
        "\n"
        "               Machines Slots   Cpus FreCpu\n"
        "         Total        2     3      8      6\n");
}

TEST_CASE("condor_status's activity time: days+hh:mm:ss", "[status]") {
  CHECK(activity_time(0) == "0+00:00:00");
  CHECK(activity_time(93784) == "1+02:03:04");
  CHECK(activity_time(-5) == "0+00:00:00");  // a clock ahead of ours
}

TEST_CASE("the slot table and its totals by platform and state", "[status]") {
  std::vector<classad::ClassAd> ads{slot("slot2@ep1", "ep1", 2, "Claimed", "Busy", 3661),
                                    slot("slot1@ep2", "ep2", 1, "Unclaimed", "Idle", 5),
                                    slot("slot1@ep1", "ep1", 1, "Unclaimed", "Idle", 93784)};
  const std::string want =
      "Name               OpSys      Arch   State     Activity LoadAv  Mem  ActvtyTime\n"
      "\n"
      "slot1@ep1          LINUX      X86_64 Unclaimed Idle      0.250 2048  1+02:03:04\n"
      "slot2@ep1          LINUX      X86_64 Claimed   Busy      0.250 2048  0+01:01:01\n"
      "slot1@ep2          LINUX      X86_64 Unclaimed Idle      0.250 2048  0+00:00:05\n"
      "\n"
      "               Total Owner Claimed Unclaimed Matched Preempting Drain Backfill BkIdle\n"
      "\n"
      "  X86_64/LINUX     3     0       1         2       0          0     0        0      0\n"
      "\n"
      "         Total     3     0       1         2       0          0     0        0      0\n";
  CHECK(format_status(options({}), ads, kNow) == want);
  // -total: the summary alone.
  const std::string total = format_status(options({"-total"}), ads, kNow);
  CHECK(total == want.substr(want.find("               Total")));
  // Nothing found: nothing printed (condor_status prints no empty table).
  CHECK(format_status(options({}), {}, kNow).empty());
}

TEST_CASE("the schedd and submitter tables with their totals", "[status]") {
  std::vector<classad::ClassAd> schedds{
      ad("[ MyType = \"Scheduler\"; Name = \"ap1\"; Machine = \"ap1\"; TotalRunningJobs = 3; TotalIdleJobs = "
         "10; TotalHeldJobs = 1 ]"),
      ad("[ MyType = \"Scheduler\"; Name = \"ap2\"; Machine = \"ap2\"; TotalRunningJobs = 2; TotalIdleJobs = "
         "0; TotalHeldJobs = 0 ]")};
  const std::string out = format_status(options({"-schedd"}), schedds, kNow);
  CHECK(out ==
        "Name               Machine      RunningJobs IdleJobs HeldJobs\n"
        "\n"
        "ap1                ap1                    3       10        1\n"
        "ap2                ap2                    2        0        0\n"
        "\n"
        "                     TotalRunningJobs TotalIdleJobs TotalHeldJobs\n"
        "\n"
        "               Total                5            10             1\n");
  std::vector<classad::ClassAd> submitters{
      ad("[ MyType = \"Submitter\"; Name = \"alice@pool\"; Machine = \"ap1\"; RunningJobs = 4; IdleJobs = 1; "
         "HeldJobs = 0 ]")};
  CHECK_THAT(format_status(options({"-submitters"}), submitters, kNow),
             Catch::Contains("alice@pool         ap1                    4        1        0"));
}

TEST_CASE("the negotiator table says which central manager is active, its term and since when", "[status]") {
  std::vector<classad::ClassAd> ads{
      ad("[ MyType = \"Negotiator\"; Name = \"cm2\"; Machine = \"cm2\"; HadActive = true; HadTerm = 4; "
         "HadActiveSince = 1700000000; LastNegotiationCycleDuration0 = 0.125; "
         "LastNegotiationCycleTotalSlots0 = 8; LastNegotiationCycleActiveSubmitterCount0 = 2; "
         "LastNegotiationCycleNumJobsConsidered0 = 5; LastNegotiationCycleMatches0 = 3; "
         "LastNegotiationCycleRejections0 = 1 ]")};
  const std::string out = format_status(options({"-negotiator"}), ads, kNow);
  CHECK_THAT(out,
             Catch::StartsWith("Name               Machine      HA     Term ActiveSince    LastCycle (Sec)"));
  CHECK_THAT(out, Catch::Contains(
                      "cm2                cm2          Active    4 11/14 22:13:20           0.125     8"));
  // Without high availability: no role, no term.
  ads = {ad("[ MyType = \"Negotiator\"; Name = \"cm\"; Machine = \"cm\" ]")};
  CHECK_THAT(format_status(options({"-negotiator"}), ads, kNow),
             Catch::Contains("cm                 cm           -"));
}

TEST_CASE("condor_status -defrag: draining now, the peak and the machines drained", "[status][defrag]") {
  const std::vector<classad::ClassAd> ads{
      ad("[ MyType = \"Defrag\"; Name = \"cm.test\"; MachinesDraining = 2; MachinesDrainingPeak = 5; "
         "DrainedMachines = 17 ]")};
  CHECK(format_status(options({"-defrag"}), ads, kNow) ==
        "Name               Draining Peak TotalDrained\n\n"
        "cm.test                   2    5           17\n");
}

TEST_CASE("cara status -l, -af and -any", "[status]") {
  std::vector<classad::ClassAd> ads{slot("slot1@ep1", "ep1", 1, "Unclaimed", "Idle", 0)};
  CHECK(format_status(options({"-af", "Name", "Memory"}), ads, kNow) == "slot1@ep1 2048\n");
  const std::string l = format_status(options({"-l"}), ads, kNow);
  CHECK_THAT(l, Catch::Contains("Name = \"slot1@ep1\"\n"));
  CHECK_THAT(l, Catch::EndsWith("\n\n"));
  CHECK(format_status(options({"-format", "%s:", "Name", "-format", "%d\\n", "Memory"}), ads, kNow) ==
        "slot1@ep1:2048\n");
  CHECK_THAT(format_status(options({"-json"}), ads, kNow), Catch::Contains("\"Memory\": 2048"));
  ads.push_back(ad("[ MyType = \"Negotiator\"; Name = \"cm\"; Machine = \"cm\" ]"));
  CHECK_THAT(format_status(options({"-any"}), ads, kNow),
             Catch::Contains("Negotiator                            cm\n"));
}
