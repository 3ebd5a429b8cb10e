// caracara's public real-time API (include/caracara/pool.h): a whole pool
// of real daemons in this process, running real jobs, as an embedding
// program sees it.
#include <caracara/pool.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <sstream>

namespace {

// Every event the pool tells, and a way to wait for one.
struct Recorder {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<caracara::Event> events;

  void operator()(const caracara::Event& e) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      events.push_back(e);
    }
    cv.notify_all();
  }
  int count(caracara::EventKind kind) {
    std::lock_guard<std::mutex> lock(mutex);
    int n = 0;
    for (const caracara::Event& e : events) n += e.kind == kind;
    return n;
  }
  // Waits (at most a minute) until `n` events of `kind` were told.
  bool wait_for(caracara::EventKind kind, int n) {
    std::unique_lock<std::mutex> lock(mutex);
    return cv.wait_for(lock, std::chrono::seconds(60), [&] {
      int seen = 0;
      for (const caracara::Event& e : events) seen += e.kind == kind;
      return seen >= n;
    });
  }
  std::vector<caracara::Event> of(caracara::EventKind kind) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<caracara::Event> out;
    for (const caracara::Event& e : events)
      if (e.kind == kind) out.push_back(e);
    return out;
  }
};

caracara::PoolSpec pool_of(int machines, int cpus, const std::string& cm = "") {
  caracara::PoolSpec spec;
  // Cycles as soon as the schedd asks (condor_reschedule), slots that
  // advertise often: a test pool that does not wait.
  spec.common.text =
      "UID_DOMAIN = api\nNEGOTIATOR_INTERVAL = 2\nNEGOTIATOR_MIN_INTERVAL = 0\nNEGOTIATOR_CYCLE_DELAY = 0\n"
      "UPDATE_INTERVAL = 1\nSTART = true\nSUSPEND = false\nPREEMPT = false\n";
  spec.central_manager.text = cm;
  for (int i = 1; i <= machines; ++i)
    spec.machines.push_back({"ep" + std::to_string(i), {"NUM_CPUS = " + std::to_string(cpus) + "\n"}});
  return spec;
}

caracara::PoolOptions options() {
  caracara::PoolOptions o;
  o.procd = CARA_PROCD_BINARY;
  return o;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_CASE("the real-time API runs real jobs and reports their events", "[library][realtime]") {
  Recorder seen;
  std::string dir;
  {
    caracara::Pool pool(pool_of(2, 1), options());
    dir = pool.directory();
    REQUIRE(std::filesystem::is_directory(dir));
    pool.on_event([&](const caracara::Event& e) { seen(e); });
    // A callback may ask the pool (the daemons answer on their own threads).
    std::atomic<std::int64_t> asked_in_callback{-1};
    pool.on_event([&](const caracara::Event& e) {
      if (e.kind == caracara::EventKind::Finished && asked_in_callback < 0) {
        const caracara::JobCounts c = pool.jobs();
        asked_in_callback = c.idle + c.running + c.held;
      }
    });
    const auto ids = pool.submit(
        "alice",
        "executable = /bin/sh\narguments = \"-c 'echo job $(Process)'\"\noutput = out.$(Process)\nqueue 3\n");
    CHECK(ids == std::vector<std::string>{"1.0", "1.1", "1.2"});
    // A job ClassAd goes the same way.
    CHECK(pool.submit_ad("alice", "[ Cmd = \"/bin/echo\"; Arguments = \"from an ad\"; Out = \"ad.out\" ]") ==
          std::vector<std::string>{"2.0"});
    REQUIRE(pool.wait_until_empty(120));
    REQUIRE(seen.wait_for(caracara::EventKind::Finished, 4));
    CHECK(seen.count(caracara::EventKind::Submitted) == 4);
    CHECK(seen.count(caracara::EventKind::Started) == 4);
    CHECK(seen.count(caracara::EventKind::Matched) >= 2);
    CHECK(seen.count(caracara::EventKind::Claimed) >= 2);
    CHECK(seen.count(caracara::EventKind::Cycle) >= 1);
    for (const caracara::Event& e : seen.of(caracara::EventKind::Started)) {
      CHECK(e.submitter == "alice@api");
      CHECK((e.slot.ends_with("@ep1") || e.slot.ends_with("@ep2")));
      CHECK(e.time > 1700000000);  // the wall clock
    }
    // The jobs' own output, in the pool's directory.
    for (int i = 0; i < 3; ++i)
      CHECK(read(dir + "/out." + std::to_string(i)) == "job " + std::to_string(i) + "\n");
    CHECK(read(dir + "/ad.out") == "from an ad\n");
    CHECK(pool.cores() == 2);
    CHECK(asked_in_callback >= 0);
    // Only stop() is refused from a callback.
    auto refusal = std::make_shared<std::promise<std::string>>();
    std::future<std::string> refused = refusal->get_future();
    auto once = std::make_shared<std::atomic<bool>>(false);
    caracara::Pool* self = &pool;
    pool.on_event([self, refusal, once](const caracara::Event&) {
      if (once->exchange(true)) return;
      try {
        self->stop();
        refusal->set_value("stopped");
      } catch (const caracara::Error& e) {
        refusal->set_value(e.what());
      }
    });
    pool.submit("alice", "executable = /bin/true\nqueue\n");
    REQUIRE(refused.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
    CHECK_THAT(refused.get(), Catch::Contains("cannot be stopped from its own event callback"));
    REQUIRE(pool.wait_until_empty(60));
    const auto prios = pool.priorities();
    REQUIRE(prios.size() == 1);
    CHECK(prios[0].name == "alice@api");
    CHECK(prios[0].factor == 1000);  // DEFAULT_PRIO_FACTOR
    const auto jobs = pool.jobs();
    CHECK(jobs.idle + jobs.running + jobs.held == 0);
  }
  // Its own directory goes with it.
  CHECK_FALSE(std::filesystem::exists(dir));
}

TEST_CASE("the real-time API changes priorities and configuration and machines at run time",
          "[library][realtime]") {
  Recorder seen;
  caracara::Pool pool(pool_of(1, 1, "GROUP_NAMES = group_a\nGROUP_QUOTA_group_a = 4\n"), options());
  pool.on_event([&](const caracara::Event& e) { seen(e); });
  // Jobs that run until they are killed.
  pool.submit("alice", "executable = /bin/sleep\narguments = 600\naccounting_group = group_a\nqueue 3\n");
  REQUIRE(seen.wait_for(caracara::EventKind::Started, 1));
  // A machine of two cores joins: the other two jobs run there.
  pool.add_machine({"wide", {"NUM_CPUS = 2\n"}});
  REQUIRE(seen.wait_for(caracara::EventKind::Started, 3));
  CHECK(pool.jobs().running == 3);
  CHECK_THROWS_WITH(pool.add_machine({"wide", {"NUM_CPUS = 2\n"}}), Catch::Contains("already"));
  // It leaves: its jobs are killed and wait again.
  pool.remove_machine("wide");
  REQUIRE(seen.wait_for(caracara::EventKind::Killed, 2));
  for (const caracara::Event& e : seen.of(caracara::EventKind::Killed)) CHECK(e.slot.ends_with("@wide"));
  CHECK(pool.jobs().idle == 2);
  CHECK(pool.cores() == 1);
  CHECK_THROWS_WITH(pool.remove_machine("wide"), Catch::Contains("no machine named wide"));

  // The negotiator's group quota, changed by a reconfiguration.
  REQUIRE(seen.wait_for(caracara::EventKind::QuotaChanged, 1));
  pool.reconfigure(caracara::Node::CentralManager, {"GROUP_QUOTA_group_a = 2\n"});
  pool.submit("alice", "executable = /bin/true\naccounting_group = group_a\nqueue 1\n");  // a cycle
  // The next cycle computes the group's quota anew.
  const auto configured_2 = [&] {
    for (const caracara::GroupQuota& g : pool.group_quotas())
      if (g.name == "group_a") return g.configured_quota == 2;
    return false;
  };
  for (int i = 0; i < 30 && !configured_2(); ++i)
    seen.wait_for(caracara::EventKind::Cycle, seen.count(caracara::EventKind::Cycle) + 1);
  CHECK(configured_2());
  CHECK_THROWS_WITH(pool.reconfigure(caracara::Node::Machines, {"START = (\n", "late.conf", 3}),
                    Catch::Contains("late.conf, line 3"));

  pool.userprio("setfactor", "group_a.alice@api", 7);
  bool factor = false;
  for (const caracara::SubmitterPriority& p : pool.priorities())
    if (p.name == "group_a.alice@api") factor = p.factor == 7 && p.group == "group_a";
  CHECK(factor);
  CHECK_THROWS_WITH(pool.userprio("setcolour", "group_a.alice@api", 1), Catch::Contains("setcolour"));

  CHECK(pool.remove("Owner == \"alice\"") >= 3);
  REQUIRE(pool.wait_until_empty(60));
}

TEST_CASE("the real-time API refuses bad input naming the place", "[library][realtime]") {
  caracara::PoolSpec bad = pool_of(1, 1);
  bad.machines[0].config = {"NUM_CPUS = 1\nSTART = (\n", "ep.conf", 10};
  CHECK_THROWS_WITH(caracara::Pool(bad, options()), Catch::Contains("ep.conf, line 11"));
  caracara::PoolSpec twins = pool_of(2, 1);
  twins.machines[1].name = "ep1";
  CHECK_THROWS_WITH(caracara::Pool(twins, options()), Catch::Contains("two machines are named ep1"));
  caracara::PoolOptions no_keeper;
  no_keeper.procd = "/nonexistent/cara-procd";
  CHECK_THROWS_WITH(caracara::Pool(pool_of(1, 1), no_keeper), Catch::Contains("cara-procd"));

  caracara::Pool pool(pool_of(1, 1), options());
  CHECK_THROWS_AS(pool.submit("alice", "request_cpus = (\nqueue\n"), caracara::Error);
  CHECK_THROWS_AS(pool.remove("Owner =="), caracara::Error);
  pool.stop();
  CHECK_THROWS_WITH(pool.submit("alice", "executable = /bin/true\nqueue\n"), Catch::Contains("stopped"));
}

}  // namespace
