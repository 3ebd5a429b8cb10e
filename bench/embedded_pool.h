// A pool of actors in one process for the bench programs: the shared setup
// of actor_bench and fairshare_bench (configurations, a stand-in runner,
// waiting for the slots, submitting and counting jobs).
#pragma once

#include <unistd.h>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scoped_actor.hpp>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "actors/collector.h"
#include "actors/message_types.h"
#include "actors/pool.h"
#include "actors/system_accounts.h"
#include "bench/timing.h"
#include "model/collector/ad_store.h"
#include "model/config/config.h"
#include "model/config/config_host.h"
#include "model/node/pool_event.h"
#include "os/system_host.h"
#include "tests/support/scratch.h"

namespace cara::bench {

// How long any wait in a bench may take before it counts as a failure.
inline constexpr auto kWait = std::chrono::seconds(120);

// A daemon's configuration from text; a bad one ends the bench.
inline std::shared_ptr<const config::Config> make_config(const std::string& text, const char* daemon) {
  auto c = config::config_from_text(text, {daemon, ""}, std::make_shared<os::SystemHost>());
  if (!c) {
    std::cerr << "bench: " << daemon << " configuration: " << c.error() << "\n";
    std::exit(1);
  }
  return std::make_shared<config::Config>(std::move(*c));
}

// Jobs that start and never end (the bench stops the pool).
class HoldRunner : public actors::JobRunner {
 public:
  Result<std::int64_t> start(const classad::ClassAd&, const startd::RunAs&,
                             std::function<void(actors::ProcessExit)>) override {
    return std::int64_t{1};
  }
  void signal(std::int64_t, int) override {}
};

// Real jobs, started by the process keeper built with the benches.
inline std::shared_ptr<actors::JobRunner> process_runner() {
  return std::make_shared<actors::ProcessRunner>(actors::ProcessRunner::Options{CARA_PROCD_BINARY, ""});
}

// Count of ads of `type` that satisfy `constraint`, or -1.
inline int count_ads(caf::scoped_actor& self, const actors::collector_actor& c, collector::AdType type,
                     const std::string& constraint) {
  int n = -1;
  self->request(c, kWait,
                actors::AdQueryRequest{static_cast<std::int32_t>(type), constraint, {"Name"}, false})
      .receive([&](actors::AdQueryReply& r) { n = static_cast<int>(r.ads.size()); }, [](caf::error&) {});
  return n;
}

// Waits until `startds` execution points of `slots` static slots each are in the collector.
inline bool await_slots(caf::scoped_actor& self, const actors::collector_actor& c, int startds, int slots) {
  const auto end = bench::Clock::now() + kWait;
  while (bench::Clock::now() < end) {
    if (count_ads(self, c, collector::AdType::Machine, "SlotID == " + std::to_string(slots)) == startds)
      return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Execution point `i` with `slots` static one-CPU slots.
inline std::string execution_point(int i, int slots) {
  return "DAEMON_LIST = MASTER, STARTD\nFULL_HOSTNAME = ep" + std::to_string(i) +
         ".bench\nUID_DOMAIN = bench\nNUM_CPUS = " + std::to_string(slots) +
         "\nNUM_SLOTS = " + std::to_string(slots) + "\nMEMORY = " + std::to_string(slots * 2048) +
         "\nSTART = true\n";
}

// A whole pool in one actor system (actors/pool.h): `startds` execution
// points of `slots` slots each, ready when their ads are in the collector.
// The central manager negotiates as soon as a schedd asks
// (NEGOTIATOR_MIN_INTERVAL and NEGOTIATOR_CYCLE_DELAY 0) unless `cm_extra`
// says otherwise.
struct RunningPool {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  actors::EmbeddedPool pool;
  scratch::TempDir iwd{"bench"};

 private:
  std::mutex finished_mutex_;
  std::condition_variable finished_changed_;
  int finished_ = 0;

 public:
  // `durable`: the schedd stores its queue (in `iwd`), as a node's does.
  RunningPool(int startds, int slots, std::shared_ptr<actors::JobRunner> runner, const std::string& ep_extra,
              const std::string& cm_extra = "", bool durable = false) {
    actors::configure_actor_system(cfg);
    sys = std::make_unique<caf::actor_system>(cfg);
    actors::PoolSpec spec;
    spec.nodes.push_back(
        make_config("DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR\n"
                    "FULL_HOSTNAME = cm.bench\nUID_DOMAIN = bench\nNEGOTIATOR_INTERVAL = 60\n"
                    "NEGOTIATOR_MIN_INTERVAL = 0\nNEGOTIATOR_CYCLE_DELAY = 0\n"
                    // A durable central manager's stores (accountant, absent
                    // ads) in the bench's directory too.
                    "LOCAL_DIR = " +
                        (iwd.path / "cm").string() + "\n" + cm_extra,
                    "NEGOTIATOR"));
    spec.nodes.push_back(
        make_config("DAEMON_LIST = MASTER, SCHEDD\nFULL_HOSTNAME = ap.bench\nUID_DOMAIN = bench\n"
                    "JOB_QUEUE_LOG = " +
                        (iwd.path / "job_queue.db").string() + "\n",
                    "SCHEDD"));
    spec.durable = durable;
    for (int i = 0; i < startds; ++i)
      spec.nodes.push_back(make_config(execution_point(i, slots) + ep_extra, "STARTD"));
    spec.runner = std::move(runner);
    // The jobs that finished, as the schedd reports them once their end is
    // stored: a run's end is this event, not the next poll of the queue.
    spec.observer = [this](const node::PoolEvent& e) {
      if (e.kind != node::PoolEventKind::Finished) return;
      std::lock_guard<std::mutex> lock(finished_mutex_);
      ++finished_;
      finished_changed_.notify_all();
    };
    // Like a personal pool: every job runs as this process's user, or as
    // nobody when that is root (whose jobs then write into a directory of
    // nobody's).
    auto account = actors::personal_account();
    if (!account) {
      std::cerr << "bench: running as root and there is no user nobody to run jobs as\n";
      std::exit(1);
    }
    spec.accounts = std::make_shared<actors::OneAccount>(*account);
    if (::chown(iwd.path.c_str(), account->uid, account->gid) != 0) {
      std::cerr << "bench: cannot give " << iwd.path << " to " << account->name << "\n";
      std::exit(1);
    }
    auto p = actors::spawn_pool(*sys, spec);
    if (!p) {
      std::cerr << "bench: " << p.error() << "\n";
      std::exit(1);
    }
    pool = *p;
    caf::scoped_actor self{*sys};
    if (!await_slots(self, pool.collector, startds, slots)) {
      std::cerr << "bench: the slots never reached the collector\n";
      std::exit(1);
    }
  }
  ~RunningPool() { actors::stop_pool(*sys, pool); }

  // Seconds from now until `n` jobs have finished since the pool started
  // (their ends stored), or -1 when they do not within kWait.
  double until_finished(int n) {
    const auto start = bench::Clock::now();
    std::unique_lock<std::mutex> lock(finished_mutex_);
    if (!finished_changed_.wait_until(lock, start + kWait, [&] { return finished_ >= n; })) return -1;
    return std::chrono::duration<double>(bench::Clock::now() - start).count();
  }

  bool submit(const std::string& description, const std::string& owner = "bench") {
    caf::scoped_actor self{*sys};
    actors::SubmitRequest r;
    r.description = description;
    r.label = "bench";
    r.owner = owner;
    r.iwd = iwd.path.string();
    bool ok = false;
    self->request(pool.schedd, kWait, r)
        .receive([&](actors::SubmitReply& reply) { ok = reply.ok; }, [](caf::error&) {});
    return ok;
  }

  // Jobs in the queue that satisfy `constraint` (-1: no answer).
  int jobs(const std::string& constraint) {
    caf::scoped_actor self{*sys};
    int n = -1;
    self->request(pool.schedd, kWait, actors::QueueQuery{constraint, {"JobStatus"}, false, ""})
        .receive([&](actors::QueueReply& q) { n = static_cast<int>(q.jobs.size()); }, [](caf::error&) {});
    return n;
  }

  // Seconds until `done()` holds, polling every 100 ms (a poll is a queue scan
  // in the schedd: more often would slow what is measured); -1 on timeout.
  template <class F>
  static double until(F&& done, std::chrono::milliseconds poll = std::chrono::milliseconds(100)) {
    const auto start = bench::Clock::now();
    while (!done()) {
      if (bench::Clock::now() - start > kWait) return -1;
      std::this_thread::sleep_for(poll);
    }
    return std::chrono::duration<double>(bench::Clock::now() - start).count();
  }
};

}  // namespace cara::bench
