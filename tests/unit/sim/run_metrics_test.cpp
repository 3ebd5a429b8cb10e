#include "model/sim/run_metrics.h"

#include <catch2/catch.hpp>

using namespace cara::sim;

TEST_CASE("a job's waiting, turnaround, stretch and bounded slowdown", "[sim][metrics]") {
  const JobRun r{"1", 100, 160, 220, 1, "slot1@ep1"};
  CHECK(r.waiting() == 60);
  CHECK(r.turnaround() == 120);
  CHECK(r.execution() == 60);
  CHECK(r.stretch() == 2);
  CHECK(r.bounded_slowdown() == 2);
  // A 1-second job that waited 9 s: slowdown 10, bounded by the 10 s threshold to 1.
  const JobRun tiny{"2", 0, 9, 10, 1, ""};
  CHECK(tiny.stretch() == 10);
  CHECK(tiny.bounded_slowdown() == 1);
  // ... and one that waited 29 s: 30 / 10 = 3.
  CHECK(JobRun{"3", 0, 29, 30, 1, ""}.bounded_slowdown() == 3);
  CHECK(JobRun{"4", 5, 5, 5, 1, ""}.stretch() == 0);  // no time taken: no stretch, not a division by zero
}

TEST_CASE("the run's makespan, utilization, waits and mean bounded slowdown", "[sim][metrics]") {
  // Two cores. Job a: 2 cores for 100 s from t=0; b arrives at 10, waits
  // until 100, runs 50 s on one core; c arrives at 20, runs 100..200 on one.
  const std::vector<JobRun> runs{
      {"a", 0, 0, 100, 2, ""}, {"b", 10, 100, 150, 1, ""}, {"c", 20, 100, 200, 1, ""}};
  const RunSummary s = summarize(runs, 2);
  CHECK(s.jobs == 3);
  CHECK(s.makespan == 200);
  CHECK(s.utilization == Approx((200.0 + 50 + 100) / (2 * 200)));
  CHECK(s.mean_wait == Approx((0 + 90 + 80) / 3.0));
  CHECK(s.max_wait == 90);
  CHECK(s.mean_bounded_slowdown == Approx((1 + 140.0 / 50 + 180.0 / 100) / 3));
  CHECK(summarize({}, 2).makespan == 0);
  CHECK(summarize(runs, 0).utilization == 0);
}

TEST_CASE("Jain's fairness index", "[sim][metrics]") {
  CHECK(jain_index({5, 5, 5, 5}) == 1);
  CHECK(jain_index({1, 0, 0, 0}) == Approx(0.25));
  CHECK(jain_index({1, 3}) == Approx(16.0 / 20));
  CHECK(jain_index({}) == 1);
  CHECK(jain_index({0, 0}) == 1);
}

TEST_CASE("jobs.csv with Batsim's columns", "[sim][metrics]") {
  const std::vector<JobRun> runs{{"w!1", 0, 0.5, 10.25, 1, "slot1@ep1"},
                                 {"w!2", 1, 2, 4, 2, "slot1@ep1,slot2@ep1"}};
  CHECK(jobs_csv(runs) ==
        "job_id,submission_time,starting_time,finish_time,waiting_time,turnaround_time,stretch,"
        "allocated_resources\n"
        "w!1,0,0.5,10.25,0.5,10.25,1.0512820512820513,slot1@ep1\n"
        "w!2,1,2,4,1,3,1.5,\"slot1@ep1,slot2@ep1\"\n");
}
