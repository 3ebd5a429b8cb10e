// A schedd that keeps its queue on disk (issue 21): a new schedd on the
// same store serves every job the old one acknowledged, and cluster ids
// continue where they were. A job that was running is reconnected to its
// claim where the execution point still runs it (job leases), and goes
// back to idle where its claim is gone.
#include <caf/send.hpp>

#include "actor/pool_fixture.h"
#include "tests/support/scratch.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

struct DurablePool : PoolFixture {
  cara::scratch::TempDir dir{"durable-schedd"};
  std::string store = dir / "spool/job_queue.db";
  // Every store of the pool in the test's directory (the central manager's
  // accountant and absent ads too), never the system's LOCAL_DIR.
  std::string cm_config = std::string(kCentralManager) + "LOCAL_DIR = " + (dir / "cm") + "\n";
  std::string ap_config =
      std::string(kAccessPoint) + "LOCAL_DIR = " + (dir / "ap") + "\nJOB_QUEUE_LOG = " + store + "\n";

  // The central manager, the durable access point and `eps` execution
  // points (configuration texts).
  PoolSpec durable_spec(const std::vector<std::string>& eps) {
    std::vector<std::shared_ptr<const config::Config>> nodes;
    nodes.push_back(make_config(cm_config, "NEGOTIATOR"));
    nodes.push_back(make_config(ap_config, "SCHEDD"));
    for (const std::string& ep : eps) nodes.push_back(make_config(ep, "STARTD"));
    PoolSpec s = spec(std::move(nodes));
    s.durable = true;
    return s;
  }
  void start_with(const PoolSpec& s) {
    auto p = spawn_pool(sys, s);
    if (!p) FAIL(p.error());
    pool = *p;
    settle();
  }
  void start_durable() { start_with(durable_spec({execution_point("ep1.test", 1)})); }
  void stop() {
    stop_pool(sys, pool);
    settle();
  }
  // The schedd alone dies (as kill -9 would end it) and a new one starts
  // on its store; the rest of the pool runs on.
  void restart_schedd() {
    caf::anon_send_exit(pool.schedd, caf::exit_reason::kill);
    settle();
    NodeServices services = node_services(spec({}));
    services.negotiator = pool.negotiator;
    services.durable = true;
    auto a = spawn_daemon(sys, "SCHEDD", services, make_config(ap_config, "SCHEDD"), {pool.collector});
    if (!a) FAIL(a.error());
    pool.schedd = caf::actor_cast<schedd_actor>(*a);
    pool.daemons.push_back(*a);
    settle();
  }
  std::size_t completed_in_history() {
    auto h = self->request(pool.schedd, caf::infinite, HistoryQuery{"JobStatus == 4", {}, 0});
    settle();
    std::size_t n = 0;
    h.receive([&](QueueReply& r) { n = r.jobs.size(); }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return n;
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
  CHECK(logged("job 1.0: reconnecting to its claim on slot1_1@ep1.test"));
  auto jobs = queue();
  REQUIRE(jobs.size() == 3);
  CHECK(num(jobs[0], "JobStatus") == 2);  // until the slot's machine is asked
  // The new startd advertised its machine without the dynamic slot the
  // job ran on: the claim is gone, and the job goes back to idle.
  advance(6);
  CHECK(logged("job 1.0 runs again: its claim on slot1_1@ep1.test is gone"));
  jobs = queue();
  REQUIRE(jobs.size() == 3);
  CHECK(str(jobs[0], "LastRemoteHost") == "slot1_1@ep1.test");
  CHECK(num(jobs[0], "NumJobStarts") == 1);
  CHECK_FALSE(jobs[0].find("ClaimId"));
  // Ids never handed out twice.
  auto third = submit("executable = /bin/true\nqueue\n");
  REQUIRE(third.ok);
  CHECK(third.cluster == 3);
  // The job that lost its run runs again, and completing it is stored.
  bool ran_again = false;
  for (int round = 0; round < 20 && !ran_again; ++round) {
    advance(1);
    for (std::size_t i = 1; i < runner->runs.size(); ++i)
      if (!runner->runs[i].ended) {
        ran_again = ran_again || schedd::job_id(runner->runs[i].job).str() == "1.0";
        runner->finish(i, 0);
      }
    settle();
  }
  CHECK(ran_again);
  stop();
  start_durable();
  CHECK(logged("queue read from " + store + ": "));
  for (const classad::ClassAd& j : queue()) CHECK(schedd::job_id(j).str() != "1.0");
}

TEST_CASE_METHOD(DurablePool, "a restarted schedd is in the collector at once, with its queue as read back",
                 "[actors][durability]") {
  // Tools find a schedd by name in the collector (`cara q -name`): a
  // restarted one must be there before its first periodic tick, with the
  // jobs it read back. The whole pool restarts, so the collector is new
  // and holds only what the new schedd advertised; no clock advances.
  start_durable();
  REQUIRE(submit("executable = /bin/true\nqueue 3\n").ok);
  stop();
  start_durable();
  const AdQueryReply ads_now = ads(collector::AdType::Scheduler);
  REQUIRE(ads_now.ads.size() == 1);
  const classad::ClassAd& ad = ads_now.ads[0].ad;
  CHECK(num(ad, "TotalIdleJobs") + num(ad, "TotalRunningJobs") == 3);
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
  start_with(durable_spec({execution_point("ep1.test", 2), execution_point("ep2.test", 2)}));
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

TEST_CASE_METHOD(DurablePool, "a restarted schedd reconnects to the job its execution point kept running",
                 "[actors][durability][lease]") {
  start_durable();
  REQUIRE(submit("executable = /bin/true\njob_lease_duration = 600\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  restart_schedd();
  CHECK(
      logged("the schedd of job 1.0 is gone; the claim waits 600 s (JobLeaseDuration) for it to reconnect"));
  CHECK(logged("job 1.0 on slot1_1@ep1.test: reconnected to its claim"));
  CHECK(runner->running() == 1);  // never stopped
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 2);
  CHECK(num(jobs[0], "NumJobStarts") == 1);
  CHECK_FALSE(jobs[0].find("ClaimId"));  // the claim's secret stays in the schedd
  runner->finish(0, 0);
  advance(1);
  CHECK(queue().empty());
  CHECK(completed_in_history() == 1);
  CHECK(runner->runs.size() == 1);  // ran once
}

TEST_CASE_METHOD(DurablePool, "a job that exits while its schedd is down is recorded once it reconnects",
                 "[actors][durability][lease]") {
  start_durable();
  REQUIRE(submit("executable = /bin/true\njob_lease_duration = 600\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  caf::anon_send_exit(pool.schedd, caf::exit_reason::kill);
  settle();
  runner->finish(0, 7);  // the job's end has no schedd to go to
  settle();
  restart_schedd();
  advance(1);
  CHECK(queue().empty());
  CHECK(completed_in_history() == 1);
  CHECK(runner->runs.size() == 1);
}

TEST_CASE_METHOD(DurablePool,
                 "a lease that runs out ends the claim, and the job runs again, never twice at once",
                 "[actors][durability][lease]") {
  start_durable();
  REQUIRE(submit("executable = /bin/true\njob_lease_duration = 30\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  caf::anon_send_exit(pool.schedd, caf::exit_reason::kill);
  settle();
  advance(29);
  CHECK(runner->running() == 1);  // still within its lease
  advance(2);
  CHECK(logged("job 1.0: its schedd did not reconnect within the lease; the claim ends"));
  REQUIRE_FALSE(runner->runs[0].signals.empty());  // vacated
  runner->kill(0, runner->runs[0].signals.back());
  settle();
  restart_schedd();
  advance(6);
  // The slot no longer holds the claim: 1.0 runs again, once.
  CHECK(logged("job 1.0 runs again: its claim on slot1_1@ep1.test is gone"));
  CHECK(runner->runs.size() == 2);
  CHECK(runner->running() == 1);
}

TEST_CASE_METHOD(DurablePool,
                 "a schedd killed at any message on the way to its job's start: the job runs once",
                 "[actors][durability][lease]") {
  // The schedd dies after the k-th message the pool delivers once the
  // job is queued (every k up to the job's start): between the claim, the
  // activation the schedd stored and sent, the slot taking it and the
  // startd starting the job. Whatever it had done, the restarted schedd
  // gets the job run once: reconnected to its claim, or run again where
  // it never started — never vacated and run again (a slot that took the
  // activation but had not started the job gave its claim up at once).
  constexpr int kPastStart = 80;  // the job started before message 80 (checked below)
  const int k = GENERATE(range(1, kPastStart + 1));
  start_durable();
  REQUIRE(submit("executable = /bin/true\njob_lease_duration = 600\nqueue\n").ok);
  int delivered = 0;
  bool killed = false;
  for (int tick = 0; tick < 8 && !killed; ++tick) {
    advance_time(std::chrono::milliseconds(250));
    while (!killed && consume_message())
      if (++delivered == k) {
        caf::anon_send_exit(pool.schedd, caf::exit_reason::kill);
        killed = true;
      }
  }
  settle();
  // Every message up to the job's start had its kill.
  if (k == kPastStart) CHECK_FALSE(killed);
  if (!killed) {
    // Past the job's start: nothing left to kill it in.
    REQUIRE(runner->runs.size() == 1);
    return;
  }
  restart_schedd();
  for (int round = 0; round < 4; ++round) {
    advance(8);
    for (std::size_t i = 0; i < runner->runs.size(); ++i) {
      if (runner->runs[i].ended) continue;
      // A vacated job's process obeys its signal; another one ends well.
      if (!runner->runs[i].signals.empty())
        runner->kill(i, runner->runs[i].signals.back());
      else
        runner->finish(i, 0);
    }
    advance(2);
  }
  INFO("killed after message " << k);
  CHECK(queue().empty());
  CHECK(completed_in_history() == 1);
  CHECK(runner->runs.size() == 1);
}

TEST_CASE_METHOD(DurablePool, "without a lease a job is vacated as soon as its schedd is gone",
                 "[actors][durability][lease]") {
  start_durable();
  REQUIRE(submit("executable = /bin/true\njob_lease_duration = 0\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  CHECK(runner->runs[0].signals.empty());
  caf::anon_send_exit(pool.schedd, caf::exit_reason::kill);
  settle();
  CHECK_FALSE(runner->runs[0].signals.empty());  // vacated at once
}

TEST_CASE_METHOD(DurablePool,
                 "a busy durable schedd spaces its synced commits, and the changes between share one",
                 "[actors][durability]") {
  PoolSpec s = durable_spec({});
  s.commit_gap = std::chrono::milliseconds(2);
  // A job's submission is told to the pool's observers once it is stored.
  int stored = 0;
  s.observer = [&](const node::PoolEvent& e) { stored += e.kind == node::PoolEventKind::Submitted; };
  start_with(s);
  advance_time(std::chrono::seconds(1));
  settle();
  // After a quiet spell a submission is stored and answered at once.
  REQUIRE(submit("executable = /bin/true\nqueue\n").ok);
  CHECK(stored == 1);
  // Two more at the same moment wait for the gap, then share its commit.
  auto request = [&] {
    SubmitRequest r;
    r.description = "executable = /bin/true\nqueue\n";
    r.label = "test.submit";
    r.owner = "alice";
    r.iwd = "/tmp";
    return self->request(pool.schedd, caf::infinite, r);
  };
  auto second = request();
  auto third = request();
  settle();
  CHECK(stored == 1);
  advance_time(std::chrono::milliseconds(1));
  settle();
  CHECK(stored == 1);
  advance_time(std::chrono::milliseconds(1));
  settle();
  CHECK(stored == 3);
  for (auto* h : {&second, &third})
    h->receive([&](SubmitReply& r) { CHECK(r.ok); }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
  // A second later the schedd is quiet again: the next one is not delayed.
  advance_time(std::chrono::seconds(1));
  settle();
  REQUIRE(submit("executable = /bin/true\nqueue\n").ok);
  CHECK(stored == 4);
}
