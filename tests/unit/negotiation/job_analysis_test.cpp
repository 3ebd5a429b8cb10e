// condor_q -better-analyze's reasoning (model/negotiation/job_analysis.h):
// each reason an idle job does not run, on a pool built for it.
#include "model/negotiation/job_analysis.h"

#include <catch2/catch.hpp>

#include "tests/support/ads.h"

using namespace cara;
using namespace cara::negotiation;
using cara::test_ads::ad;

namespace {

classad::ClassAd slot(const std::string& name, const std::string& opsys, int memory, const std::string& state,
                      const std::string& start = "true", const std::string& user = "") {
  return ad("[ Name = \"" + name + "\"; OpSys = \"" + opsys + "\"; Arch = \"X86_64\"; Memory = " +
            std::to_string(memory) + "; Cpus = 1; State = \"" + state + "\"; Start = " + start +
            "; Requirements = " + start + (user.empty() ? "" : "; RemoteUser = \"" + user + "\"") + " ]");
}

classad::ClassAd job() {
  return ad(
      "[ ClusterId = 5; ProcId = 0; Owner = \"alice\"; RequestMemory = 2048; ImageSize = 100; "
      "Requirements = (TARGET.OpSys == \"LINUX\") && (TARGET.Memory >= RequestMemory) ]");
}

}  // namespace

TEST_CASE("the top-level clauses of an expression", "[analyze]") {
  CHECK(conjunction_clauses("(A && (B || C)) ") == std::vector<std::string>{"A", "B || C"});
  CHECK(conjunction_clauses("(A == \"x && y\") && f(a && b, c)") ==
        std::vector<std::string>{"A == \"x && y\"", "f(a && b, c)"});
  CHECK(conjunction_clauses("(A) || (B)") == std::vector<std::string>{"(A) || (B)"});
  CHECK(conjunction_clauses("").empty());
}

TEST_CASE("better-analyze: each clause of the job's Requirements and the slots it rules out", "[analyze]") {
  // No slot has the memory: the second clause matches none.
  const std::vector<classad::ClassAd> small{slot("slot1@a", "LINUX", 1024, "Unclaimed"),
                                            slot("slot1@b", "WINDOWS", 1024, "Unclaimed")};
  JobAnalysis a = analyze_job(job(), small, {}, "alice@pool", 0);
  REQUIRE(a.clauses.size() == 2);
  CHECK(a.clauses[0].clause == "TARGET.OpSys == \"LINUX\"");
  CHECK(a.clauses[0].matched == 1);
  CHECK(a.clauses[1].clause == "TARGET.Memory >= RequestMemory");
  CHECK(a.clauses[1].matched == 0);
  CHECK(a.rejected_by_job == 2);
  CHECK(a.available == 0);
  const std::string report = format_analysis("5.0", a, CycleNote{}, std::nullopt);
  CHECK_THAT(report, Catch::Contains("[0]          1  TARGET.OpSys == \"LINUX\"\n"
                                     "[1]          0  TARGET.Memory >= RequestMemory\n"));
  CHECK_THAT(report, Catch::Contains("2 are rejected by your job's requirements") &&
                         Catch::Contains("WARNING: no slot of the pool matches") &&
                         Catch::Contains("Its submitter was not negotiated for yet."));
}

TEST_CASE("better-analyze: slots whose START refuses the job, and the clause that refuses", "[analyze]") {
  const std::vector<classad::ClassAd> slots{
      slot("slot1@a", "LINUX", 4096, "Unclaimed", "(TARGET.Owner != \"alice\") && (KeyboardIdle > 60)"),
      slot("slot1@b", "LINUX", 4096, "Unclaimed")};
  JobAnalysis a = analyze_job(job(), slots, {}, "alice@pool", 0);
  CHECK(a.rejected_by_job == 0);
  CHECK(a.rejected_by_slot == 1);
  REQUIRE(a.refusals.size() == 1);
  CHECK(a.refusals[0].slot == "slot1@a");
  CHECK(a.refusals[0].clause == "TARGET.Owner != \"alice\"");
  CHECK(a.available == 1);
  CHECK_THAT(format_analysis("5.0", a, CycleNote{}, std::nullopt),
             Catch::Contains("1 reject your job because of their own requirements") &&
                 Catch::Contains("slot1@a: TARGET.Owner != \"alice\"") &&
                 Catch::Contains("1 are able to run your job"));
}

TEST_CASE("better-analyze: matching slots claimed by the submitter, by better and by other users",
          "[analyze]") {
  const std::vector<classad::ClassAd> slots{slot("slot1@a", "LINUX", 4096, "Claimed", "true", "alice@pool"),
                                            slot("slot2@a", "LINUX", 4096, "Claimed", "true", "bob@pool"),
                                            slot("slot3@a", "LINUX", 4096, "Claimed", "true", "carol@pool")};
  // bob's effective priority is better (lower) than alice's, carol's worse.
  const std::map<std::string, double> eup{{"alice@pool", 500}, {"bob@pool", 100}, {"carol@pool", 900}};
  JobAnalysis a = analyze_job(job(), slots, eup, "alice@pool", 0);
  CHECK(a.running_yours == 1);
  CHECK(a.serving_better == 1);
  CHECK(a.serving_others == 1);
  CHECK(a.available == 0);
  CycleNote cycle{1700000000, {"group quota reached", "concurrency limit LICENSE reached"}, 0};
  const std::string report = format_analysis("5.0", a, cycle, std::int64_t{5400});
  CHECK_THAT(report,
             Catch::Contains("1 match but are serving users with a better priority in the pool") &&
                 Catch::Contains("In the last negotiation cycle its submitter got 0 matches; the reasons") &&
                 Catch::Contains("    group quota reached\n") &&
                 Catch::Contains("may start in about 0+01:30"));
}

TEST_CASE("better-analyze's estimate: the jobs ahead over the recent start rate", "[analyze]") {
  CHECK(estimated_wait(9, 10.0) == std::int64_t{3600});
  CHECK_FALSE(estimated_wait(9, 0.0));
}
