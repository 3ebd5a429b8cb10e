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

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace caracara {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Configuration text, with the file and first line its errors name.
struct ConfigText {
  std::string text;
  std::string file = "<text>";
  int first_line = 1;
};

struct MachineSpec {
  std::string name;   // its host name (FULL_HOSTNAME)
  ConfigText config;  // its STARTD configuration, after the pool's common text
};

struct PoolSpec {
  ConfigText common;           // what every node reads first
  ConfigText central_manager;  // the negotiator's own configuration
  ConfigText access_point;     // the schedd's own configuration
  std::vector<MachineSpec> machines;
  std::int64_t start = 1704067200;  // the virtual clock at the start (seconds since the epoch)
  std::uint64_t seed = 1;           // $RANDOM_INTEGER in submit descriptions
};

enum class EventKind {
  Submitted,        // a job was queued
  Matched,          // the negotiator matched a job to a slot
  Claimed,          // the slot granted the claim
  Started,          // the job began to run
  Finished,         // its run ended by itself
  Killed,           // its run was ended (preempted, vacated, removed)
  Removed,          // it left the queue without completing
  Cycle,            // a negotiation cycle ran (detail: how many matches)
  PriorityChanged,  // after a cycle: a submitter's effective priority moved (value: the new one)
  QuotaChanged,     // after a cycle: a group's effective quota moved (value: the new one)
};
const char* to_string(EventKind kind);

struct Event {
  EventKind kind = EventKind::Submitted;
  std::int64_t time = 0;
  std::string job;        // "cluster.proc", when the event is a job's
  std::string submitter;  // the accounting principal (group.user@domain), or the group
  std::string slot;       // slot1_1@host
  double value = 0;       // cores (Started, Finished, Killed); priority or quota (changes)
  std::string detail;
};

struct SubmitterPriority {
  std::string name, group;
  double real_priority = 0, effective_priority = 0, factor = 0;
  double resources_used = 0;     // claims held
  double accumulated_usage = 0;  // resource-seconds
};

struct GroupQuota {
  std::string name;
  double configured_quota = 0, effective_quota = 0, allocated = 0, requested = 0, usage = 0;
};

struct JobCounts {
  std::int64_t idle = 0, running = 0, held = 0;
};

enum class Node { CentralManager, AccessPoint, Machines };

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
  // condor_rm of the jobs `constraint` (a ClassAd expression) selects.
  std::size_t remove(const std::string& constraint);
  // condor_userprio: "setfactor", "setprio", "setaccum", "setfloor",
  // "setceil", "resetusage", "delete", "setbegin", "setlast".
  void userprio(const std::string& command, const std::string& name, double value = 0);
  // condor_reconfig with `config` added to the node's configuration;
  // machines: those whose name begins with `machine_prefix`.
  void reconfigure(Node node, const ConfigText& config, const std::string& machine_prefix = "");

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
