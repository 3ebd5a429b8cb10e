// caracara's public API, virtual time (issue 29): a whole pool — the same
// accountant, negotiation cycle, schedd queue and claims, and startd slot
// state machines as a real caracara pool — stepped on a virtual clock, for
// scheduling-policy studies. Only standard C++ here: no caracara internals,
// no CAF, no RocksDB.
//
//   caracara::PoolSpec spec;
//   spec.common = "UID_DOMAIN = sim\n";
//   for (int i = 1; i <= 100; ++i) spec.machines.push_back({"ep" + std::to_string(i), "NUM_CPUS = 1\n"});
//   caracara::VirtualPool pool(spec);
//   pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 600\nqueue 500\n");
//   pool.advance(24 * 3600);
//   for (const auto& p : pool.priorities()) std::cout << p.name << " " << p.real_priority << "\n";
//
// Configuration and submit descriptions are HTCondor's languages. A job
// runs for its SimulatedRunTime (seconds; without one, until it is removed
// or evicted). Errors are thrown as caracara::Error, naming the place.
#pragma once

#include <caracara/pool_types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace caracara {

class VirtualPool {
 public:
  explicit VirtualPool(const PoolSpec& spec);
  ~VirtualPool();
  VirtualPool(VirtualPool&&) noexcept;
  VirtualPool& operator=(VirtualPool&&) noexcept;

  std::int64_t now() const;
  // Runs every event up to and including `time`.
  void run_until(std::int64_t time);
  void advance(std::int64_t seconds) { run_until(now() + seconds); }
  std::optional<std::int64_t> next_event() const;

  // condor_submit as `owner`, at now(): the job ids ("cluster.proc").
  std::vector<std::string> submit(const std::string& owner, const std::string& description);
  // `count` jobs of a job ClassAd (new or old syntax; Cmd names the
  // program), through the same submission path: every attribute as
  // `+Name = expression`. The schedd's own attributes (Owner, ClusterId,
  // JobStatus, QDate, ...) are refused.
  std::vector<std::string> submit_ad(const std::string& owner, const std::string& job_ad,
                                     std::int64_t count = 1);
  // condor_rm of the jobs `constraint` (a ClassAd expression) selects.
  std::size_t remove(const std::string& constraint);
  // condor_userprio: "setfactor", "setprio", "setaccum", "setfloor",
  // "setceil", "resetusage", "delete", "setbegin", "setlast".
  void userprio(const std::string& command, const std::string& name, double value = 0);
  // condor_reconfig with `config` added to the node's configuration;
  // machines: those whose name begins with `machine_prefix`.
  void reconfigure(Node node, const ConfigText& config, const std::string& machine_prefix = "");

  // A machine joins at now() (its startd starts and advertises its slots).
  // Its slots are what its configuration says (NUM_CPUS, SLOT_TYPE_<N>,
  // ...): to change a machine's slots, remove it and add it again with the
  // new layout, as condor_restart of its startd would.
  void add_machine(const MachineSpec& machine);
  // The machine leaves at now(), as a machine that loses its power: its
  // jobs are killed (Killed events) and go back to the queue, its slots
  // leave the pool.
  void remove_machine(const std::string& name);

  // The job's run ends now, by itself (exit code 0) or killed: for a pool
  // whose jobs something outside runs (Batsim), jobs without a
  // SimulatedRunTime run until told. Throws when the job is not running.
  void end_job(const std::string& job, bool killed = false);

  // Called for every event, in order; several callbacks may listen.
  void on_event(std::function<void(const Event&)> callback);

  std::vector<SubmitterPriority> priorities() const;  // as of now()
  std::vector<GroupQuota> group_quotas() const;       // as the last cycle computed them
  JobCounts jobs() const;
  double cores() const;  // the cores of the pool's static and partitionable slots

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace caracara
