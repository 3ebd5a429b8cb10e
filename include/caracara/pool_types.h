// caracara's public API: what its two faces share — a pool's
// configuration, the events it reports, the state it is read for. A pool
// runs in virtual time (virtual_pool.h) or in real time (pool.h). Only
// standard C++ here: no caracara internals, no CAF, no RocksDB.
#pragma once

#include <cstdint>
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
  std::int64_t start = 1704067200;  // virtual time: the clock at the start (seconds since the epoch)
  std::uint64_t seed = 1;           // $RANDOM_INTEGER in submit descriptions, claim ids
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

}  // namespace caracara
