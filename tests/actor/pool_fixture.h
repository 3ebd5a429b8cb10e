// The embedded pool under CAF's test coordinator, shared by the actor
// tests: virtual time, no threads, no real processes (a stand-in JobRunner
// the test drives by hand), helpers to submit, read the queue and query
// the collector.
#pragma once

#include <map>

#include "actor/caf_catch.h"
#include "actors/collector.h"
#include "actors/pool.h"
#include "actors/system_accounts.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/collector/ad_store.h"
#include "model/config/config_host.h"

namespace cara::actors::testing {

// Jobs "run" until the test ends them.
class FakeRunner : public JobRunner {
 public:
  struct Run {
    classad::ClassAd job;
    std::function<void(ProcessExit)> on_exit;
    std::vector<int> signals;
    bool ended = false;
  };
  Result<std::int64_t> start(const classad::ClassAd& job, const startd::RunAs& as,
                             std::function<void(ProcessExit)> on_exit) override {
    accounts.push_back(as);
    runs.push_back(Run{job, std::move(on_exit), {}, false});
    return static_cast<std::int64_t>(runs.size() - 1);
  }
  void signal(std::int64_t handle, int sig) override {
    runs[static_cast<std::size_t>(handle)].signals.push_back(sig);
  }
  void finish(std::size_t i, int code) {
    runs[i].ended = true;
    runs[i].on_exit(ProcessExit{false, code, {}});
  }
  // The job dies of `sig` (after a kill the test let through).
  void kill(std::size_t i, int sig) {
    runs[i].ended = true;
    runs[i].on_exit(ProcessExit{true, sig, {}});
  }
  std::size_t running() const {
    std::size_t n = 0;
    for (const Run& r : runs) n += r.ended ? 0 : 1;
    return n;
  }
  std::vector<Run> runs;
  std::vector<startd::RunAs> accounts;  // whom each run was for
};

inline std::shared_ptr<const config::Config> make_config(const std::string& text, const char* daemon) {
  auto host = std::make_shared<config::MemoryHost>();
  auto c = config::config_from_text(text, {daemon, ""}, host);
  if (!c) FAIL(c.error());
  return std::make_shared<config::Config>(std::move(*c));
}

constexpr const char* kCentralManager =
    "DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR\n"
    "FULL_HOSTNAME = cm.test\nUID_DOMAIN = test\nNEGOTIATOR_INTERVAL = 60\n"
    "NEGOTIATOR_MIN_INTERVAL = 0\nNEGOTIATOR_CYCLE_DELAY = 0\n";
constexpr const char* kAccessPoint =
    "DAEMON_LIST = MASTER, SCHEDD\nFULL_HOSTNAME = ap.test\nUID_DOMAIN = test\n";

inline std::string execution_point(const std::string& host, int cpus, const std::string& extra = "") {
  return "DAEMON_LIST = MASTER, STARTD\nFULL_HOSTNAME = " + host +
         "\nUID_DOMAIN = test\nNUM_CPUS = " + std::to_string(cpus) +
         "\nMEMORY = " + std::to_string(cpus * 1000) + "\nSTART = true\nSUSPEND = false\nPREEMPT = false\n" +
         extra;
}

inline std::string str(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}
inline std::int64_t num(const classad::ClassAd& ad, const char* name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_int() ? v.as_int() : -1;
}

struct PoolFixture : test_coordinator_fixture<> {
  std::shared_ptr<FakeRunner> runner = std::make_shared<FakeRunner>();
  EmbeddedPool pool;
  // Whom jobs run as (run_as.h): by default a startd that is not root,
  // so every job runs as it; user logs are written as this process.
  Account daemon_account{"condor", 500, 500, {500}};
  std::shared_ptr<const AccountBook> accounts = std::make_shared<OneAccount>(current_account());
  // Every daemon's log lines, "WARNING text" / "INFO text".
  std::vector<std::string> log_lines;
  std::shared_ptr<os::DaemonLog> log =
      std::make_shared<os::DaemonLog>("pool", [this](os::LogLevel level, std::string_view text) {
        log_lines.push_back(std::string(level == os::LogLevel::Warning ? "WARNING " : "INFO ") +
                            std::string(text));
      });
  bool logged(const std::string& part) const {
    for (const std::string& l : log_lines)
      if (l.find(part) != std::string::npos) return true;
    return false;
  }

  // A central manager, an access point and the execution points `eps`.
  void start(const std::vector<std::string>& eps, const std::string& cm_extra = "",
             const std::string& ap_extra = "") {
    std::vector<std::shared_ptr<const config::Config>> nodes;
    nodes.push_back(make_config(std::string(kCentralManager) + cm_extra, "NEGOTIATOR"));
    nodes.push_back(make_config(std::string(kAccessPoint) + ap_extra, "SCHEDD"));
    for (const std::string& ep : eps) nodes.push_back(make_config(ep, "STARTD"));
    auto p = spawn_pool(sys, spec(std::move(nodes)));
    if (!p) FAIL(p.error());
    pool = *p;
    settle();
  }
  // The pool of `nodes`, with this fixture's runner, clock, accounts and log.
  PoolSpec spec(std::vector<std::shared_ptr<const config::Config>> nodes) {
    PoolSpec spec;
    spec.nodes = std::move(nodes);
    spec.runner = runner;
    spec.files = std::make_shared<config::MemoryHost>();
    spec.clock = PoolClock{1700000000};
    spec.seed = 42;
    spec.daemon_account = daemon_account;
    spec.accounts = accounts;
    spec.log = log;
    // Virtual time stands still between a test's steps: a durable schedd
    // commits as soon as it has read its mailbox (the gap has its own test).
    spec.commit_gap = {};
    return spec;
  }
  ~PoolFixture() override {
    stop_pool(sys, pool);
    settle();
    trigger_timeouts();  // the stopped actors' timers fire into the void
    settle();
  }
  // Delivers every message without moving time.
  void settle() {
    while (consume_message()) {
    }
  }
  // Moves virtual time in steps of 250 ms, delivering what each step sends.
  void advance(double seconds) {
    for (double t = 0; t < seconds; t += 0.25) {
      advance_time(std::chrono::milliseconds(250));
      settle();
    }
  }
  SubmitReply submit(const std::string& text, const std::string& owner = "alice") {
    SubmitRequest r;
    r.description = text;
    r.label = "test.submit";
    r.owner = owner;
    r.iwd = "/tmp";
    auto h = self->request(pool.schedd, caf::infinite, r);
    settle();
    SubmitReply out;
    h.receive([&](SubmitReply& reply) { out = reply; }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
  std::vector<classad::ClassAd> queue() {
    auto h = self->request(pool.schedd, caf::infinite, QueueQuery{});
    settle();
    std::vector<classad::ClassAd> jobs;
    h.receive(
        [&](QueueReply& q) {
          for (WireAd& a : q.jobs) jobs.push_back(std::move(a.ad));
        },
        [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return jobs;
  }
  CommandReply userprio(const UserprioCommand& c) {
    auto h = self->request(pool.negotiator, caf::infinite, c);
    settle();
    CommandReply out;
    h.receive([&](CommandReply& r) { out = r; }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
  AdQueryReply ads(collector::AdType type, const std::string& constraint = "") {
    auto h = self->request(pool.collector, caf::infinite,
                           AdQueryRequest{static_cast<std::int32_t>(type), constraint, {}, false});
    settle();
    AdQueryReply out;
    h.receive([&](AdQueryReply& r) { out = std::move(r); }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  }
};

}  // namespace cara::actors::testing
