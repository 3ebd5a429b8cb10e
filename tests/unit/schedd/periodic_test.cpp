// Periodic job policy: the thesis's SYSTEM_PERIODIC_REMOVE, and the
// hold/release/remove expressions with their reasons and codes.
#include <catch2/catch.hpp>

#include "model/schedd/job_queue.h"
#include "model/schedd/periodic_policy.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

constexpr std::int64_t kHour = 3600;

struct Periodic : Submit {
  PeriodicPolicy policy;
  explicit Periodic(const std::string& config_text) : Submit(config_text) {
    auto p = PeriodicPolicy::from_config(*config);
    if (!p) FAIL(p.error());
    policy = std::move(*p);
  }
  PeriodicVerdict at(const classad::ClassAd& job, std::int64_t now) {
    classad::EvalEnv env;
    env.now = now;
    return evaluate_periodic(policy, job, env);
  }
};

}  // namespace

TEST_CASE("the thesis's SYSTEM_PERIODIC_REMOVE: held over 48 h, or running over MAXWALLTIME minutes",
          "[schedd][periodic][thesis]") {
  // The central manager's configuration from the thesis appendix, as
  // printed: MAXWALLTIME = 4320 (three days).
  Periodic p(fixture("thesis/central_manager.config"));
  REQUIRE(p.policy.remove);
  CHECK_FALSE(p.policy.hold);

  classad::ClassAd held = p.ok(kExe + "queue\n").at(0);
  REQUIRE(hold_job(held, "r", 1, 0, kT0));
  CHECK(p.at(held, kT0 + 48 * kHour).action == PeriodicAction::None);  // not more than 48 h yet
  const PeriodicVerdict v = p.at(held, kT0 + 48 * kHour + 1);
  CHECK(v.action == PeriodicAction::Remove);
  CHECK_THAT(v.reason, Catch::StartsWith("The system macro SYSTEM_PERIODIC_REMOVE expression '"));

  classad::ClassAd running = p.ok(kExe + "queue\n").at(0);
  REQUIRE(start_job(running, "slot1@ep", kT0));
  CHECK(p.at(running, kT0 + 60 * 4320).action == PeriodicAction::None);
  CHECK(p.at(running, kT0 + 60 * 4320 + 1).action == PeriodicAction::Remove);

  // An idle job is never removed by it, however old.
  classad::ClassAd idle = p.ok(kExe + "queue\n").at(0);
  CHECK(p.at(idle, kT0 + 1000 * kHour).action == PeriodicAction::None);
}

TEST_CASE("the thesis's policy through the queue: removal writes 009 to the job's log",
          "[schedd][periodic][thesis]") {
  Submit s(fixture("thesis/central_manager.config"));
  auto policy = QueuePolicy::from_config(*s.config, "ap");
  REQUIRE(policy);
  JobQueue q(std::move(*policy), "<10.0.0.1:9618>");
  s.ctx.cluster_id = q.next_cluster_id();
  REQUIRE(q.submit(s.ok(kExe + "log = run.log\nqueue 2\n"), kT0));
  REQUIRE(q.start({1, 0}, "slot1@ep", kT0));
  REQUIRE(q.hold({1, 1}, "via condor_hold", hold_code::kUserRequest, 0, kT0));
  q.take_events();
  CHECK(q.evaluate_periodic(kT0 + 10 * kHour) == 0);
  CHECK(q.evaluate_periodic(kT0 + 49 * kHour) == 1);  // the held one
  CHECK(attr(*q.find({1, 1}), "JobStatus") == "3");
  CHECK(attr(*q.find({1, 0}), "JobStatus") == "2");
  CHECK(q.evaluate_periodic(kT0 + 73 * kHour) == 1);  // the running one, past 72 h
  auto events = q.take_events();
  REQUIRE(events.size() == 2);
  CHECK(events[0].log == "/home/cms001/run.log");
  CHECK(events[0].event.code == UserLogCode::Aborted);
  CHECK(events[1].event.job == JobId{1, 0});
  CHECK(value(*q.find({1, 0}), "RemoteWallClockTime") == std::to_string(73 * kHour) + ".0");
  CHECK(q.take_finished().size() == 2);
  CHECK(q.size() == 0);
}

TEST_CASE("SYSTEM_PERIODIC_HOLD and RELEASE with their reasons and subcode", "[schedd][periodic]") {
  Periodic p(
      "SYSTEM_PERIODIC_HOLD = JobStatus == 2 && ResidentSetSize > RequestMemory * 1024\n"
      "SYSTEM_PERIODIC_HOLD_REASON = strcat(\"Memory \", ResidentSetSize / 1024, \" MB over the request\")\n"
      "SYSTEM_PERIODIC_HOLD_SUBCODE = 42\n"
      "SYSTEM_PERIODIC_RELEASE = HoldReasonCode == 26 && NumHolds < 3\n"
      "SYSTEM_PERIODIC_RELEASE_REASON = \"retrying\"\n");
  classad::ClassAd job = p.ok(kExe + "request_memory = 100\nqueue\n").at(0);
  REQUIRE(start_job(job, "slot1@ep", kT0));
  job.set("ResidentSetSize", 200 * 1024);
  PeriodicVerdict v = p.at(job, kT0);
  CHECK(v.action == PeriodicAction::Hold);
  CHECK(v.reason == "Memory 200 MB over the request");
  CHECK(v.code == hold_code::kSystemPolicy);
  CHECK(v.subcode == 42);
  REQUIRE(hold_job(job, v.reason, v.code, v.subcode, kT0));
  v = p.at(job, kT0);
  CHECK(v.action == PeriodicAction::Release);
  CHECK(v.reason == "retrying");
  // A hold by the user (code 1) is not released by this policy.
  classad::ClassAd user_held = p.ok(kExe + "queue\n").at(0);
  REQUIRE(hold_job(user_held, "via condor_hold", 1, 0, kT0));
  CHECK(p.at(user_held, kT0).action == PeriodicAction::None);
}

TEST_CASE("the job's own periodic_hold comes before the system's, with code 3", "[schedd][periodic]") {
  Periodic p("SYSTEM_PERIODIC_HOLD = true\nSYSTEM_PERIODIC_REMOVE = JobStatus == 5\n");
  classad::ClassAd job = p.ok(kExe +
                              "periodic_hold = NumJobStarts > 2\n"
                              "periodic_hold_reason = \"restarted too often\"\n"
                              "periodic_hold_subcode = 7\n"
                              "periodic_remove = false\n"
                              "queue\n")
                             .at(0);
  PeriodicVerdict v = p.at(job, kT0);
  CHECK(v.action == PeriodicAction::Hold);  // the system's
  CHECK(v.code == hold_code::kSystemPolicy);
  CHECK_THAT(v.reason, Catch::Contains("SYSTEM_PERIODIC_HOLD expression 'true'"));
  job.set("NumJobStarts", 3);
  v = p.at(job, kT0);
  CHECK(v.code == hold_code::kJobPolicy);
  CHECK(v.reason == "restarted too often");
  CHECK(v.subcode == 7);
  // Hold is considered only for jobs not held; a held job meets the
  // removal expression next.
  REQUIRE(hold_job(job, v.reason, v.code, v.subcode, kT0));
  CHECK(p.at(job, kT0).action == PeriodicAction::Remove);
  // Completed and removed jobs are left alone.
  REQUIRE(remove_job(job, "r", kT0));
  CHECK(p.at(job, kT0).action == PeriodicAction::None);
}

TEST_CASE("a periodic expression that does not parse is reported by knob", "[schedd][periodic][errors]") {
  Submit s("SYSTEM_PERIODIC_REMOVE = (JobStatus == 5 &&\n");
  auto p = PeriodicPolicy::from_config(*s.config);
  REQUIRE_FALSE(p);
  CHECK_THAT(p.error(), Catch::StartsWith("SYSTEM_PERIODIC_REMOVE ("));
  CHECK_THAT(p.error(), Catch::Contains("is not a ClassAd expression"));
}
