// cara q and cara history without a schedd (apps/commands/queue_view.h):
// the options, the constraint sent, and HTCondor's tables and totals.
#include "apps/commands/queue_view.h"

#include <catch2/catch.hpp>

#include "apps/commands/queue_totals.h"
#include "tests/support/ads.h"

using namespace cara;
using namespace cara::apps;
using cara::test_ads::ad;

namespace {

QueueOptions options(const std::vector<std::string>& args, bool history = false) {
  auto o = parse_queue_options(args, history);
  if (!o) FAIL(o.error());
  return *o;
}

// 2026-11-26 13:50:00 UTC.
constexpr std::int64_t kNow = 1795701000;

classad::ClassAd job(int cluster, int proc, const std::string& owner, int status,
                     const std::string& extra = "") {
  return ad(
      "[ ClusterId = " + std::to_string(cluster) + "; ProcId = " + std::to_string(proc) + "; Owner = \"" +
      owner + "\"; JobStatus = " + std::to_string(status) + "; QDate = " + std::to_string(kNow - 600) +
      "; Cmd = \"/bin/sleep\"; Arguments = \"60\"; JobPrio = 0; ImageSize = 2048; TotalSubmitProcs = 3" +
      extra + " ]");
}

}  // namespace

TEST_CASE("cara q options and the constraint they send", "[q]") {
  // By default only the asker's jobs (condor_q since 8.6).
  CHECK(queue_constraint(options({}), "alice", false) == "Owner == \"alice\"");
  CHECK(queue_constraint(options({"-allusers"}), "alice", false).empty());
  // Jobs, clusters and users named: any of them, whoever owns them.
  CHECK(queue_constraint(options({"5.1", "7", "bob"}), "alice", false) ==
        "(ClusterId == 5 && ProcId == 1) || (ClusterId == 7) || (Owner == \"bob\")");
  CHECK(queue_constraint(options({"bob@physik"}), "alice", false) == "(User == \"bob@physik\")");
  CHECK(queue_constraint(options({"-hold", "-constraint", "RequestCpus > 1", "-allusers"}), "alice", false) ==
        "(RequestCpus > 1) && (JobStatus == 5)");
  CHECK(queue_constraint(options({"-run"}), "alice", false) == "(JobStatus == 2) && (Owner == \"alice\")");
  // condor_history lists every user's jobs.
  CHECK(queue_constraint(options({"-limit", "5"}, true), "alice", true).empty());
  CHECK(options({"-limit", "5"}, true).limit == 5);

  QueueOptions af = options({"-af:jh", "Owner", "RequestCpus", "-nobatch"});
  CHECK(af.output.mode == AdOutput::Mode::Autoformat);
  CHECK(af.output.af == std::vector<std::string>{"Owner", "RequestCpus"});
  CHECK(af.view == QueueOptions::View::NoBatch);

  for (const auto& bad : std::vector<std::vector<std::string>>{{"-constraint"},
                                                               {"-constraint", "a =="},
                                                               {"-bogus"},
                                                               {"-af"},
                                                               {"-format", "%d"},
                                                               {"-af:q", "A"}}) {
    INFO(bad.front());
    CHECK_FALSE(parse_queue_options(bad, false));
  }
  CHECK_FALSE(parse_queue_options({"-limit", "0"}, true));
  CHECK_FALSE(parse_queue_options({"-nobatch"}, true));  // not condor_history's
  CHECK(parse_queue_options({"-limit"}, true).error() == "-limit expects a number of jobs");
}

TEST_CASE("cara q's batch table, -nobatch, -run and -hold, and the totals", "[q]") {
  const std::vector<classad::ClassAd> jobs = {
      job(5, 0, "alice", 2,
          "; JobCurrentStartDate = " + std::to_string(kNow - 70) + "; RemoteHost = \"slot1@ep1\""),
      job(5, 1, "alice", 1),
      job(5, 2, "alice", 5,
          "; HoldReason = \"via condor_hold (by user alice)\"; "
          "EnteredCurrentStatus = " +
              std::to_string(kNow - 60))};
  // The schedd's totals: alice's three jobs, and bob's idle one beside them.
  QueueContext c{"ap.example.org", "alice", kNow, 0, {}};
  c.totals.owner = {3, 0, 0, 1, 1, 1, 0};
  c.totals.all = {4, 0, 0, 2, 1, 1, 0};

  CHECK(format_queue(options({}), jobs, c) ==
        "\n\n-- Schedd: ap.example.org @ 11/26/26 13:50:00\n"
        "OWNER BATCH_NAME   SUBMITTED   DONE    RUN   IDLE   HOLD  TOTAL JOB_IDS\n"
        "alice ID: 5      11/26 13:40      _      1      1      1      3 5.0-2\n"
        "\n"
        "Total for query: 3 jobs; 0 completed, 0 removed, 1 idle, 1 running, 1 held, 0 suspended\n"
        "Total for alice: 3 jobs; 0 completed, 0 removed, 1 idle, 1 running, 1 held, 0 suspended\n"
        "Total for all users: 4 jobs; 0 completed, 0 removed, 2 idle, 1 running, 1 held, 0 suspended\n");

  CHECK(format_queue(options({"-nobatch", "-allusers"}), jobs, c) ==
        "\n\n-- Schedd: ap.example.org @ 11/26/26 13:50:00\n"
        "ID  OWNER   SUBMITTED     RUN_TIME ST PRI SIZE CMD\n"
        "5.0 alice 11/26 13:40   0+00:01:10 R    0  2.0 sleep 60\n"
        "5.1 alice 11/26 13:40   0+00:00:00 I    0  2.0 sleep 60\n"
        "5.2 alice 11/26 13:40   0+00:00:00 H    0  2.0 sleep 60\n"
        "\n"
        "Total for query: 3 jobs; 0 completed, 0 removed, 1 idle, 1 running, 1 held, 0 suspended\n"
        "Total for all users: 4 jobs; 0 completed, 0 removed, 2 idle, 1 running, 1 held, 0 suspended\n");

  const std::string run = format_queue(options({"-run"}), {jobs[0]}, c);
  CHECK(run.find("ID  OWNER   SUBMITTED   RUN_TIME HOST(S)\n"
                 "5.0 alice 11/26 13:40 0+00:01:10 slot1@ep1\n") != std::string::npos);
  const std::string hold = format_queue(options({"-hold"}), {jobs[2]}, c);
  CHECK(hold.find("ID  OWNER  HELD_SINCE HOLD_REASON\n"
                  "5.2 alice 11/26 13:49 via condor_hold (by user alice)\n") != std::string::npos);
  // -totals: the totals alone.
  const std::string totals = format_queue(options({"-totals"}), jobs, c);
  CHECK(totals.find("OWNER") == std::string::npos);
  CHECK(totals.find("Total for query: 3 jobs") != std::string::npos);
}

TEST_CASE("cara q's batch table: DONE counts the cluster's jobs that left, clusters join by batch name",
          "[q]") {
  const std::vector<classad::ClassAd> jobs = {job(5, 2, "alice", 1),
                                              job(8, 0, "alice", 1, "; JobBatchName = \"sweep\""),
                                              job(9, 0, "alice", 2, "; JobBatchName = \"sweep\"")};
  QueueContext c{"ap", "alice", kNow, 0, {}};
  const std::string out = format_queue(options({}), jobs, c);
  CHECK(out.find("alice ID: 5      11/26 13:40      2      _      1      3 5.2\n") != std::string::npos);
  CHECK(out.find("alice sweep      11/26 13:40      4      1      1      6 8.0 ... 9.0\n") !=
        std::string::npos);
}

TEST_CASE("cara q -l, -json, -af and -format print the ads, not the table", "[q]") {
  const std::vector<classad::ClassAd> jobs = {job(5, 0, "alice", 1)};
  QueueContext c{"ap", "alice", kNow, 0, {}};
  CHECK(format_queue(options({"-af", "Owner", "JobStatus"}), jobs, c) == "alice 1\n");
  CHECK(format_queue(options({"-af:jh,", "Owner", "Cmd"}), jobs, c) ==
        "ID,Owner,Cmd\n5.0,alice,/bin/sleep\n");
  CHECK(format_queue(options({"-af:lr", "Owner"}), jobs, c) == "Owner = \"alice\"\n");
  CHECK(format_queue(options({"-format", "%d.", "ClusterId", "-format", "%s\\n", "Owner"}), jobs, c) ==
        "5.alice\n");
  const std::string l = format_queue(options({"-l"}), jobs, c);
  CHECK(l.find("Owner = \"alice\"\n") != std::string::npos);
  CHECK(l.find("Total for") == std::string::npos);
  const std::string json = format_queue(options({"-json"}), jobs, c);
  CHECK(json.find("\"Owner\": \"alice\"") != std::string::npos);
  CHECK(json.find("\"ClusterId\": 5") != std::string::npos);
}

TEST_CASE("cara history's table: when each job finished", "[history]") {
  const std::vector<classad::ClassAd> jobs = {job(
      5, 0, "alice", 4, "; CompletionDate = " + std::to_string(kNow - 120) + "; RemoteWallClockTime = 75.0")};
  QueueContext c{"ap", "alice", kNow, 0, {}};
  CHECK(format_history(options({}, true), jobs, c) ==
        "ID  OWNER   SUBMITTED     RUN_TIME ST   COMPLETED CMD\n"
        "5.0 alice 11/26 13:40   0+00:01:15 C  11/26 13:48 sleep 60\n");
  CHECK(format_history(options({"-af", "Owner", "JobStatus"}, true), jobs, c) == "alice 4\n");
  CHECK(short_date(kNow, 3600) == "11/26 14:50");
  CHECK(short_date(kNow - 86400 * 30, 0) == "10/27 13:50");
  CHECK(short_date(1780000000, 0) == " 5/28 20:26");
}

TEST_CASE("the schedd's totals on the local socket: round trip, and a reply without them is an error",
          "[q]") {
  schedd::QueueTotals t;
  t.owner = {3, 1, 0, 1, 1, 0, 0};
  t.all = {9, 1, 2, 3, 1, 1, 1};
  auto back = totals_from_json(totals_json(t));
  REQUIRE(back);
  CHECK(*back == t);
  CHECK(totals_from_json(nlohmann::json()).error() == "the schedd's totals are not an object");
  nlohmann::json partial = totals_json(t);
  partial["all"].erase("held");
  CHECK(totals_from_json(partial).error() == "the schedd's totals lack a whole number 'all.held'");
  partial["all"]["held"] = "many";
  CHECK_FALSE(totals_from_json(partial));
}
