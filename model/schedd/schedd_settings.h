// The schedd daemon's own knobs, beside its queue policy (queue_policy.h):
// its name and UID_DOMAIN, how often it advertises and evaluates periodic
// expressions, whether it fills the rest of a claimed partitionable slot
// itself, and where its queue and history are stored. The schedd actor and `cara submit -dry-run` read them
// here alone, so both name the schedd and its users alike.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

struct ScheddSettings {
  std::string name;                     // SCHEDD_NAME, else FULL_HOSTNAME
  std::string uid_domain;               // UID_DOMAIN (by default $(FULL_HOSTNAME)), else the name
  bool claim_leftovers = true;          // CLAIM_PARTITIONABLE_LEFTOVERS
  std::int64_t update_interval = 300;   // SCHEDD_INTERVAL, seconds
  std::int64_t periodic_interval = 60;  // PERIODIC_EXPR_INTERVAL, seconds
  // Where the queue and the history are stored (JOB_QUEUE_LOG: a RocksDB
  // directory, not HTCondor's text log), and how much history is kept:
  // MAX_HISTORY_LOG bytes and MAX_HISTORY_JOBS jobs, the oldest dropped
  // first (0 keeps none).
  std::string queue_store;
  std::int64_t history_max_bytes = 20 * 1024 * 1024;
  std::int64_t history_max_jobs = 100000;
  // QUEUE_SUPER_USERS: who may change anyone's jobs (condor_rm, condor_hold).
  std::set<std::string> super_users{"root", "condor"};

  // A value of the wrong type or out of range is an error naming the knob.
  static Result<ScheddSettings> from_config(const config::Config& config);
};

}  // namespace cara::schedd
