// A schedd that keeps its queue on disk (issue 21): a new schedd on the
// same store serves every job the old one acknowledged, the jobs that were
// running lost their run and go back to idle (no claim outlives the
// schedd), and cluster ids continue where they were.
#include "actor/pool_fixture.h"
#include "tests/support/scratch.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

struct DurablePool : PoolFixture {
  cara::scratch::TempDir dir{"durable-schedd"};
  std::string store = dir / "spool/job_queue.db";

  void start_durable() {
    std::vector<std::shared_ptr<const config::Config>> nodes;
    nodes.push_back(make_config(kCentralManager, "NEGOTIATOR"));
    nodes.push_back(make_config(std::string(kAccessPoint) + "JOB_QUEUE_LOG = " + store + "\n", "SCHEDD"));
    nodes.push_back(make_config(execution_point("ep1.test", 1), "STARTD"));
    PoolSpec s = spec(std::move(nodes));
    s.durable = true;
    auto p = spawn_pool(sys, s);
    if (!p) FAIL(p.error());
    pool = *p;
    settle();
  }
  void stop() {
    stop_pool(sys, pool);
    settle();
  }
};

}  // namespace

TEST_CASE_METHOD(DurablePool, "a schedd started on the store of another has its jobs, and runs them again",
                 "[actors][durability]") {
  start_durable();
  CHECK(logged("queue read from " + store + ": 0 jobs, next cluster 1"));
  REQUIRE(submit("executable = /bin/true\nqueue\n").ok);
  auto second = submit("executable = /bin/true\nqueue 2\n");
  REQUIRE(second.ok);
  CHECK(second.cluster == 2);
  advance(1);
  REQUIRE(runner->runs.size() == 1);  // one cpu: 1.0 runs
  stop();

  start_durable();
  CHECK(logged("queue read from " + store + ": 3 jobs, next cluster 3"));
  auto jobs = queue();
  REQUIRE(jobs.size() == 3);
  for (const classad::ClassAd& j : jobs) CHECK(num(j, "JobStatus") == 1);
  CHECK(str(jobs[0], "LastRemoteHost") == "slot1_1@ep1.test");
  CHECK(num(jobs[0], "LastJobStatus") == 2);
  // Ids never handed out twice.
  auto third = submit("executable = /bin/true\nqueue\n");
  REQUIRE(third.ok);
  CHECK(third.cluster == 3);
  // The job that lost its run runs again, and completing it is stored.
  advance(1);
  REQUIRE(runner->runs.size() == 2);
  CHECK(schedd::job_id(runner->runs[1].job).str() == "1.0");
  runner->finish(1, 0);
  settle();
  stop();
  start_durable();
  CHECK(logged("queue read from " + store + ": 3 jobs, next cluster 4"));
  for (const classad::ClassAd& j : queue()) CHECK(schedd::job_id(j).str() != "1.0");
}

TEST_CASE_METHOD(PoolFixture, "a schedd that stores nothing says it keeps no history",
                 "[actors][durability]") {
  start({});
  auto h = self->request(pool.schedd, caf::infinite, HistoryQuery{"", {}, 0});
  settle();
  h.receive(
      [&](QueueReply& r) {
        CHECK_FALSE(r.ok);
        CHECK(r.error == "this schedd keeps no history: its queue is not stored");
      },
      [&](caf::error& e) { FAIL(caf::to_string(e)); });
}

TEST_CASE_METHOD(DurablePool,
                 "a durable schedd runs every job, claims and leftovers acted on after each commit",
                 "[actors][durability]") {
  // Matches, grants and job starts interleave with the commits that store
  // each start: every action must reach the slot it was meant for.
  std::vector<std::shared_ptr<const config::Config>> nodes;
  nodes.push_back(make_config(kCentralManager, "NEGOTIATOR"));
  nodes.push_back(make_config(std::string(kAccessPoint) + "JOB_QUEUE_LOG = " + store + "\n", "SCHEDD"));
  nodes.push_back(make_config(execution_point("ep1.test", 2), "STARTD"));
  nodes.push_back(make_config(execution_point("ep2.test", 2), "STARTD"));
  PoolSpec s = spec(std::move(nodes));
  s.durable = true;
  auto p = spawn_pool(sys, s);
  REQUIRE(p);
  pool = *p;
  settle();
  REQUIRE(submit("executable = /bin/true\nqueue 6\n").ok);
  std::size_t finished = 0;
  for (int round = 0; round < 20 && finished < 6; ++round) {
    advance(1);
    for (std::size_t i = 0; i < runner->runs.size(); ++i)
      if (!runner->runs[i].ended) {
        runner->finish(i, 0);
        ++finished;
      }
    settle();
  }
  CHECK(finished == 6);
  CHECK(runner->runs.size() == 6);
  CHECK(queue().empty());
}
