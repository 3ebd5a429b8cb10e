// The job state machine and the user log it writes.
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/schedd/job_queue.h"
#include "model/schedd/job_transitions.h"
#include "model/schedd/user_log.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

// 2018-08-23 04:53:20 UTC, the fixtures' QDate.

classad::ClassAd idle_job() {
  Submit s;
  return s.ok(kExe + "log = job.log\nqueue\n").at(0);
}

std::string status(const classad::ClassAd& job) {
  return attr(job, "JobStatus");
}

}  // namespace

TEST_CASE("a job's life: start, suspend, evict, run again, complete", "[schedd][job-state]") {
  classad::ClassAd job = idle_job();
  REQUIRE(start_job(job, "slot1@ep1", kT0 + 10));
  CHECK(status(job) == "2");
  CHECK(attr(job, "NumJobStarts") == "1");
  CHECK(attr(job, "JobStartDate") == std::to_string(kT0 + 10));
  CHECK(attr(job, "RemoteHost") == "\"slot1@ep1\"");
  CHECK(attr(job, "EnteredCurrentStatus") == std::to_string(kT0 + 10));
  CHECK(attr(job, "LastJobStatus") == "1");

  REQUIRE(suspend_job(job, kT0 + 20));
  CHECK(status(job) == "7");
  REQUIRE(unsuspend_job(job, kT0 + 50));
  CHECK(attr(job, "CumulativeSuspensionTime") == "30");

  REQUIRE(evict_job(job, kT0 + 110));
  CHECK(status(job) == "1");
  CHECK(value(job, "RemoteWallClockTime") == "100.0");
  CHECK(attr(job, "LastRemoteHost") == "\"slot1@ep1\"");
  CHECK(attr(job, "RemoteHost") == "<none>");

  REQUIRE(start_job(job, "slot2@ep2", kT0 + 200));
  CHECK(attr(job, "NumJobStarts") == "2");
  CHECK(attr(job, "JobStartDate") == std::to_string(kT0 + 10));  // the first start
  REQUIRE(complete_job(job, {false, 3}, kT0 + 260));
  CHECK(status(job) == "4");
  CHECK(attr(job, "ExitCode") == "3");
  CHECK(attr(job, "ExitBySignal") == "false");
  CHECK(value(job, "RemoteWallClockTime") == "160.0");
  CHECK(attr(job, "LastRemoteHost") == "\"slot2@ep2\"");
  CHECK(attr(job, "CompletionDate") == std::to_string(kT0 + 260));
}

TEST_CASE("hold, release and remove keep their reasons", "[schedd][job-state]") {
  classad::ClassAd job = idle_job();
  REQUIRE(start_job(job, "slot1@ep1", kT0));
  REQUIRE(hold_job(job, "via condor_hold (by user cms001)", hold_code::kUserRequest, 0, kT0 + 60));
  CHECK(status(job) == "5");
  CHECK(attr(job, "HoldReason") == "\"via condor_hold (by user cms001)\"");
  CHECK(attr(job, "HoldReasonCode") == "1");
  CHECK(attr(job, "HoldReasonSubCode") == "0");
  CHECK(value(job, "RemoteWallClockTime") == "60.0");  // holding a running job ends its run
  REQUIRE(release_job(job, "via condor_release (by user cms001)", kT0 + 120));
  CHECK(status(job) == "1");
  CHECK(attr(job, "HoldReason") == "<none>");
  CHECK(attr(job, "LastHoldReason") == "\"via condor_hold (by user cms001)\"");
  CHECK(attr(job, "ReleaseReason") == "\"via condor_release (by user cms001)\"");
  REQUIRE(remove_job(job, "via condor_rm (by user cms001)", kT0 + 130));
  CHECK(status(job) == "3");
  CHECK(attr(job, "RemoveReason") == "\"via condor_rm (by user cms001)\"");
  CHECK(attr(job, "LastJobStatus") == "1");
}

TEST_CASE("transitions a state does not allow are refused and change nothing", "[schedd][job-state]") {
  struct Row {
    const char* setup;  // how to get there from Idle
    const char* action;
    const char* message;
  };
  const Row rows[] = {
      {"", "release", "job 1.0 is Idle; release applies only to a job that is Held"},
      {"", "evict", "job 1.0 is Idle; eviction applies only to a job that is Running, Suspended"},
      {"", "complete", "job 1.0 is Idle; completion applies only to a job that is Running, Suspended"},
      {"", "suspend", "job 1.0 is Idle; suspending applies only to a job that is Running"},
      {"start", "start", "job 1.0 is Running; starting applies only to a job that is Idle"},
      {"hold", "hold", "job 1.0 is Held; hold applies only to a job that is Idle, Running, Suspended"},
      {"hold", "start", "job 1.0 is Held; starting applies only"},
      {"remove", "remove", "job 1.0 is Removed; removal applies only"},
      {"remove", "release", "job 1.0 is Removed; release applies only"},
      {"complete", "hold", "job 1.0 is Completed; hold applies only"},
      {"complete", "remove", "job 1.0 is Completed; removal applies only"},
  };
  const auto act = [](classad::ClassAd& j, const std::string& a) -> Status {
    Result<UserLogEvent> e = Error{"unknown action " + a};
    if (a == "start") e = start_job(j, "h", kT0);
    if (a == "suspend") e = suspend_job(j, kT0);
    if (a == "evict") e = evict_job(j, kT0);
    if (a == "complete") e = complete_job(j, {}, kT0);
    if (a == "hold") e = hold_job(j, "r", 1, 0, kT0);
    if (a == "release") e = release_job(j, "r", kT0);
    if (a == "remove") e = remove_job(j, "r", kT0);
    if (!e) return Error{e.error()};
    return Ok{};
  };
  for (const Row& r : rows) {
    INFO(r.setup << " then " << r.action);
    classad::ClassAd job = idle_job();
    const std::string setup = r.setup;
    if (setup == "complete") REQUIRE(act(job, "start"));
    if (!setup.empty()) REQUIRE(act(job, setup));
    const std::string before = classad::unparse(job);
    auto s = act(job, r.action);
    REQUIRE_FALSE(s);
    CHECK_THAT(s.error(), Catch::StartsWith(r.message));
    CHECK(classad::unparse(job) == before);
  }
}

TEST_CASE("user log events in HTCondor's text format", "[schedd][user-log]") {
  // 2018-08-23 04:53:20 UTC is 06:53:20 in Aachen (CEST, UTC+2).
  const std::int32_t cest = 2 * 3600;
  classad::ClassAd job = idle_job();
  job.set("ClusterId", 452);
  CHECK(format_user_log_event(submit_event(job, "<10.0.0.1:9618>", kT0), cest) ==
        "000 (452.000.000) 08/23 06:53:20 Job submitted from host: <10.0.0.1:9618>\n...\n");
  // The spec's submit warning appears in the submit event.
  CHECK(format_user_log_event(submit_event(job, "<10.0.0.1:9618>", kT0, "As of <date>, ..."), cest) ==
        "000 (452.000.000) 08/23 06:53:20 Job submitted from host: <10.0.0.1:9618>\n"
        "\tWARNING: Committed job submission into the queue with the following warning:\n"
        "\tWARNING: As of <date>, ...\n...\n");
  const std::pair<Result<UserLogEvent>, const char*> steps[] = {
      {start_job(job, "<10.0.0.2:9618>", kT0 + 1),
       "001 (452.000.000) 08/23 04:53:21 Job executing on host: <10.0.0.2:9618>\n...\n"},
      {evict_job(job, kT0 + 2),
       "004 (452.000.000) 08/23 04:53:22 Job was evicted.\n\t(0) Job was not checkpointed.\n...\n"},
      {hold_job(job, "via condor_hold (by user cms001)", 1, 0, kT0 + 3),
       "012 (452.000.000) 08/23 04:53:23 Job was held.\n\tvia condor_hold (by user cms001)\n\tCode 1 Subcode "
       "0\n...\n"},
      {release_job(job, "via condor_release (by user cms001)", kT0 + 4),
       "013 (452.000.000) 08/23 04:53:24 Job was released.\n\tvia condor_release (by user cms001)\n...\n"},
      {start_job(job, "<10.0.0.2:9618>", kT0 + 5), nullptr},
      {complete_job(job, {false, 0}, kT0 + 6),
       "005 (452.000.000) 08/23 04:53:26 Job terminated.\n\t(1) Normal termination (return value 0)\n...\n"},
  };
  for (const auto& [event, text] : steps) {
    REQUIRE(event);
    if (text) CHECK(format_user_log_event(*event) == text);
  }
  classad::ClassAd killed = idle_job();
  REQUIRE(start_job(killed, "h", kT0));
  auto sig = complete_job(killed, {true, 9}, kT0 + 7);
  CHECK(format_user_log_event(*sig) ==
        "005 (001.000.000) 08/23 04:53:27 Job terminated.\n\t(0) Abnormal termination (signal 9)\n...\n");
  CHECK(attr(killed, "ExitSignal") == "9");
  CHECK(attr(killed, "ExitCode") == "<none>");
  classad::ClassAd removed = idle_job();
  auto rm = remove_job(removed, "via condor_rm (by user cms001)", kT0 + 8);
  CHECK(format_user_log_event(*rm) ==
        "009 (001.000.000) 08/23 04:53:28 Job was aborted.\n\tvia condor_rm (by user cms001)\n...\n");
}

TEST_CASE("a job's status and id read as integers, whatever spells them", "[schedd][job-state]") {
  auto ad = [](const std::string& text) {
    auto a = classad::parse_new_classad(text);
    REQUIRE(a);
    return *a;
  };
  // Integer literals (read from the ad's index), an expression, a real,
  // another case, a parent's value, a string and nothing.
  CHECK(job_status(ad("[JobStatus = 2]")) == JobStatus::Running);
  CHECK(job_status(ad("[JobStatus = 1 + 2]")) == JobStatus::Removed);
  CHECK(job_status(ad("[jobstatus = 5.0]")) == JobStatus::Held);
  CHECK_FALSE(job_status(ad("[JobStatus = \"2\"]")));
  CHECK_FALSE(job_status(ad("[JobStatus = 9]")));
  CHECK_FALSE(job_status(ad("[Other = 2]")));
  CHECK(job_id(ad("[ClusterId = 12; ProcId = Base + 1; Base = 2]")) == JobId{12, 3});
  CHECK(job_id(ad("[CLUSTERID = 4]")) == JobId{4, 0});
  classad::ClassAd cluster = ad("[ClusterId = 7; JobStatus = 1]");
  classad::ClassAd proc = ad("[ProcId = 2]");
  proc.chain_to(cluster);
  CHECK(job_id(proc) == JobId{7, 2});
  CHECK(job_status(proc) == JobStatus::Idle);
  proc.set("JobStatus", 2);
  CHECK(job_status(proc) == JobStatus::Running);
  CHECK(int_attr(proc, "JobStatus") == 2);
  CHECK(int_attr(proc, "NoSuch") == 0);
}
