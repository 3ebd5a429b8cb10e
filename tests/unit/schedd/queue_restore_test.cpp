// What the queue tells its store (the jobs each change touched) and how a
// queue read back from the store starts again (DESIGN.md "State and
// durability"; issue 21: ids never reused, running jobs requeued).
#include <catch2/catch.hpp>

#include "model/schedd/job_order.h"
#include "model/schedd/job_queue.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;

namespace {

std::vector<classad::ClassAd> all_jobs(const JobQueue& q) {
  std::vector<classad::ClassAd> out;
  for (const auto& [id, job] : q.jobs()) out.push_back(job);
  return out;
}

}  // namespace

TEST_CASE("each change names the jobs it touched, once, in id order", "[schedd][queue][durability]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue 3\n"));
  CHECK(strs(q.queue->take_touched()) == std::vector<std::string>{"1.0", "1.1", "1.2"});
  CHECK(q.queue->take_touched().empty());

  REQUIRE(q.submit(kExe + "queue 1\n"));
  REQUIRE(q.queue->start({1, 2}, "slot1@ep", kT0 + 10));
  REQUIRE(q.queue->hold({1, 0}, "by hand", hold_code::kUserRequest, 0, kT0 + 11));
  REQUIRE(q.queue->release({1, 0}, "by hand", kT0 + 12));
  REQUIRE(q.queue->complete({1, 2}, JobExit{false, 0}, kT0 + 20));
  CHECK(strs(q.queue->take_touched()) == std::vector<std::string>{"1.0", "1.2", "2.0"});
  // A refused transition touches nothing.
  CHECK_FALSE(q.queue->release({1, 1}, "not held", kT0 + 21));
  CHECK(q.queue->take_touched().empty());
  // A finished job leaves the queue: its id is still the store's to drop.
  REQUIRE(q.queue->take_finished().size() == 1);
  CHECK(q.queue->find({1, 2}) == nullptr);

  SECTION("the periodic policy touches the jobs it changes") {
    Queue p("SYSTEM_PERIODIC_HOLD = ProcId == 1\n");
    REQUIRE(p.submit(kExe + "queue 3\n"));
    p.queue->take_touched();
    CHECK(p.queue->evaluate_periodic(kT0 + 100) == 1);
    CHECK(strs(p.queue->take_touched()) == std::vector<std::string>{"1.1"});
  }
}

TEST_CASE("a restored queue continues the cluster ids and requeues the jobs that were running",
          "[schedd][queue][durability]") {
  Queue before;
  REQUIRE(before.submit(kExe + "log = a.log\nqueue 2\n"));
  REQUIRE(before.submit(kExe + "queue 1\n"));
  REQUIRE(before.queue->start({1, 1}, "slot1@ep", kT0 + 10));
  REQUIRE(before.queue->start({2, 0}, "slot2@ep", kT0 + 10));
  REQUIRE(before.queue->suspend({2, 0}, kT0 + 15));
  before.queue->take_events();

  Queue after;
  REQUIRE(after.queue->restore(all_jobs(*before.queue), before.queue->next_cluster_id(), kT0 + 100));
  CHECK(after.queue->size() == 3);
  CHECK(after.queue->next_cluster_id() == 3);
  for (JobId id : {JobId{1, 0}, JobId{1, 1}, JobId{2, 0}}) {
    INFO(id.str());
    REQUIRE(after.queue->find(id));
    CHECK(job_status(*after.queue->find(id)) == JobStatus::Idle);
  }
  // All three are offered again, the requeued ones too (indexed as they
  // are after the restore, not as stored).
  CHECK(after.queue->idle_jobs(submitter_name(*after.queue->find({1, 0}))).size() == 3);
  // The run that was lost is recorded as one: wall clock, the host, an
  // eviction in the user log.
  const classad::ClassAd& lost = *after.queue->find({1, 1});
  CHECK(value(lost, "LastRemoteHost") == "\"slot1@ep\"");
  CHECK(value(lost, "RemoteWallClockTime") == "90.0");
  const auto events = after.queue->take_events();
  REQUIRE(events.size() == 2);
  CHECK(events[0].log == "/home/cms001/a.log");
  CHECK_THAT(format_user_log_event(events[0].event), Catch::StartsWith("004 (001.001.000)"));
  // The requeued jobs are stored again at the next commit.
  CHECK(strs(after.queue->take_touched()) == std::vector<std::string>{"1.1", "2.0"});
  // The next submission takes the next id, never one handed out before.
  auto next = after.submit(kExe + "queue\n");
  REQUIRE(next);
  CHECK(next->cluster == 3);
}

TEST_CASE("a queue is not restored from jobs that would hand ids out twice", "[schedd][queue][durability]") {
  Queue before;
  REQUIRE(before.submit(kExe + "queue 2\n"));
  const auto jobs = all_jobs(*before.queue);

  SECTION("a cluster id at or past the next one") {
    Queue after;
    auto s = after.queue->restore(jobs, 1, kT0);
    REQUIRE_FALSE(s);
    CHECK(s.error() ==
          "stored job 1.0 has a cluster id not below the next one (1): ids would be handed out twice");
    CHECK(after.queue->size() == 0);
  }
  SECTION("a job twice") {
    Queue after;
    auto twice = jobs;
    twice.push_back(jobs[1]);
    auto s = after.queue->restore(twice, 2, kT0);
    REQUIRE_FALSE(s);
    CHECK(s.error() == "job 1.1 is stored twice");
  }
  SECTION("a queue that already has jobs") {
    auto s = before.queue->restore(jobs, 2, kT0);
    REQUIRE_FALSE(s);
    CHECK(s.error() == "a queue is restored only when it is empty");
  }
  SECTION("a job without a status") {
    Queue after;
    auto broken = jobs;
    broken[0].erase("JobStatus");
    auto s = after.queue->restore(broken, 2, kT0);
    REQUIRE_FALSE(s);
    CHECK(s.error() == "stored job 1.0 has no valid JobStatus");
  }
}

TEST_CASE("a restored queue keeps the claims of the jobs that may still run, and only theirs",
          "[schedd][queue][durability][lease]") {
  Queue before;
  REQUIRE(before.submit(kExe + "queue 3\n"));
  REQUIRE(before.queue->start({1, 0}, "slot1@ep", kT0 + 10));
  REQUIRE(before.queue->bind_claim({1, 0}, JobClaim{"c0", "slot1@ep"}));
  REQUIRE(before.queue->bind_claim({1, 1}, JobClaim{"c1", "slot2@ep"}));  // activation under way
  REQUIRE(before.queue->bind_claim({1, 2}, JobClaim{"c2", "slot3@ep"}));
  REQUIRE(before.queue->hold({1, 2}, "by hand", hold_code::kUserRequest, 0, kT0 + 11));

  Queue after;
  REQUIRE(after.queue->restore(all_jobs(*before.queue), 2, kT0 + 100));
  CHECK(job_status(*after.queue->find({1, 0})) == JobStatus::Running);  // reconnected, not evicted
  CHECK(job_claim(*after.queue->find({1, 0}))->claim_id == "c0");
  CHECK(job_claim(*after.queue->find({1, 1}))->slot == "slot2@ep");
  CHECK_FALSE(job_claim(*after.queue->find({1, 2})));  // held: no one's claim
  CHECK(strs(after.queue->take_touched()) == std::vector<std::string>{"1.2"});
  CHECK(after.queue->take_events().empty());
}

TEST_CASE("submit gives each job HTCondor's default lease of 40 minutes", "[schedd][submit][lease]") {
  Queue q;
  REQUIRE(q.submit(kExe + "queue\n"));
  CHECK(job_lease_duration(*q.queue->find({1, 0})) == 2400);
  REQUIRE(q.submit(kExe + "job_lease_duration = 20\nqueue\n"));
  CHECK(job_lease_duration(*q.queue->find({2, 0})) == 20);
  REQUIRE(q.submit(kExe + "job_lease_duration = 0\nqueue\n"));
  CHECK(job_lease_duration(*q.queue->find({3, 0})) == 0);
}
