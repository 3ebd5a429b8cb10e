// caracara's public API, real time (issue 29): a whole pool — collector,
// negotiator, schedd and one startd per machine, the very daemons `cara
// master` runs — in this process, running real jobs.
//
//   caracara::PoolSpec spec;
//   spec.common.text = "UID_DOMAIN = lab\nNEGOTIATOR_INTERVAL = 5\n";
//   spec.machines = {{"ep1", {"NUM_CPUS = 2\n"}}};
//   caracara::Pool pool(spec);
//   pool.on_event([](const caracara::Event& e) { std::cout << caracara::to_string(e.kind) << " " << e.job <<
//   "\n"; }); pool.submit("alice", "executable = /bin/echo\narguments = hello\noutput = out.$(Process)\nqueue
//   2\n"); pool.wait_until_empty(60);
//
// Jobs run as the user running the program (as nobody when that is root:
// no job runs as root), in the pool's directory, where relative paths of
// submit descriptions (output, error, log) land. Every node reads the
// pool's common configuration, then its own; its DAEMON_LIST and
// FULL_HOSTNAME are the pool's to set (the central manager is "cm", the
// access point "ap", a machine its name). Errors are thrown as
// caracara::Error, naming the place. The public headers include no CAF or
// RocksDB header.
#pragma once

#include <caracara/pool_types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace caracara {

struct PoolOptions {
  // Where jobs run and write (their initial directory); empty: a fresh
  // directory under /tmp, removed when the pool stops.
  std::string directory;
  // The process keeper jobs run under, cara-procd (find_package(caracara)
  // sets caracara_PROCD); empty: the one beside the program, else where
  // caracara's build installs it.
  std::string procd;
};

class Pool {
 public:
  // Starts every daemon.
  explicit Pool(const PoolSpec& spec, const PoolOptions& options = {});
  // Stops the pool (stop()).
  ~Pool();
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // Every daemon stops; jobs still running are killed. Waits for the
  // callbacks in progress; no callback is called after it returns.
  void stop();
  const std::string& directory() const;

  // condor_submit as `owner` (the job's Owner; it runs as the program's
  // user), acknowledged: the job ids ("cluster.proc").
  std::vector<std::string> submit(const std::string& owner, const std::string& description);
  // `count` jobs of a job ClassAd (new or old syntax; Cmd names the
  // program), through the same submission path: every attribute as
  // `+Name = expression`. The schedd's own attributes (Owner, ClusterId,
  // JobStatus, QDate, ...) are refused.
  std::vector<std::string> submit_ad(const std::string& owner, const std::string& job_ad,
                                     std::int64_t count = 1);
  // condor_rm of the jobs a ClassAd `constraint` selects: how many.
  std::size_t remove(const std::string& constraint);
  // condor_userprio: "setfactor", "setprio", "setaccum", "setfloor",
  // "setceil", "resetusage", "delete", ...
  void userprio(const std::string& command, const std::string& name, double value = 0);
  // condor_reconfig with `config` added to the node's configuration;
  // machines: those whose name begins with `machine_prefix`.
  void reconfigure(Node node, const ConfigText& config, const std::string& machine_prefix = "");
  // A machine joins: its startd starts and advertises its slots.
  void add_machine(const MachineSpec& machine);
  // The machine's startd stops at once (condor_off -fast): its jobs are
  // killed and go back to the queue; its slots leave the pool.
  void remove_machine(const std::string& name);

  // Called for every event, in order, on one thread of the pool's (never
  // a daemon's: a callback may call this Pool, as may any thread; only
  // stop() is refused from a callback). Times are the wall clock.
  void on_event(std::function<void(const Event&)> callback);
  // Waits until no job is queued or `timeout_seconds` passed; whether the
  // queue is empty.
  bool wait_until_empty(double timeout_seconds);

  std::vector<SubmitterPriority> priorities() const;  // as the accountant last updated them
  std::vector<GroupQuota> group_quotas() const;       // as the last cycle computed them
  JobCounts jobs() const;
  double cores() const;  // the cores of the slots the collector has now

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace caracara
