// condor_defrag's configuration (central-manager-configuration,
// "Defragmenting Dynamic Slots", and the DEFRAG_* knobs of HTCondor's
// configuration reference): read and checked once, so that the daemon, a
// reconfiguration check and the simulator see the same policy.
#pragma once

#include <cstdint>
#include <string>

#include "model/classad/expr.h"
#include "model/common/result.h"
#include "model/config/config.h"
#include "model/startd/slot_state.h"

namespace cara::defrag {

// DEFRAG_DRAINING_MACHINES_PER_HOUR as whole machines: so many each poll,
// so many more once an hour and once a day. "The lowest rate of draining
// that is supported is one machine per day or one machine per
// DEFRAG_INTERVAL, whichever is lower. A fractional number of machines ...
// is rounded to the nearest whole number of machines on a per day basis."
struct DrainRate {
  int per_poll = 0;
  int per_hour = 0;
  int per_day = 0;
};
// `machines_per_hour` at one poll every `interval` seconds (> 0).
DrainRate split_rate(double machines_per_hour, std::int64_t interval);

struct DefragPolicy {
  // DEFRAG_NAME (default FULL_HOSTNAME): the daemon's ad's Name, and what
  // its drains say in DrainReason ("Defrag <name>").
  std::string name;
  std::string host;  // FULL_HOSTNAME: the ad's Machine
  // DEFRAG_INTERVAL: seconds between polls; 0 or less: no defragmentation.
  std::int64_t interval = 600;
  // DEFRAG_UPDATE_INTERVAL: seconds between the daemon's ads.
  std::int64_t update_interval = 300;
  double machines_per_hour = 0;  // DEFRAG_DRAINING_MACHINES_PER_HOUR
  DrainRate rate;
  // -1: no limit.
  std::int64_t max_concurrent_draining = -1;  // DEFRAG_MAX_CONCURRENT_DRAINING
  std::int64_t max_whole_machines = -1;       // DEFRAG_MAX_WHOLE_MACHINES
  // DEFRAG_SCHEDULE (HTCondor's daemon reads DEFRAG_DRAINING_SCHEDULE,
  // which wins when set): graceful, quick or fast.
  startd::DrainSchedule schedule = startd::DrainSchedule::Graceful;
  std::string schedule_name = "graceful";
  classad::ExprPtr requirements;         // DEFRAG_REQUIREMENTS; null: every drainable machine
  classad::ExprPtr whole_machine;        // DEFRAG_WHOLE_MACHINE_EXPR
  classad::ExprPtr cancel_requirements;  // DEFRAG_CANCEL_REQUIREMENTS; null: drains are never cancelled
  classad::ExprPtr rank;                 // DEFRAG_RANK; null: every machine ranks 0
  // DEFRAG_DRAINING_START_EXPR, as text for the drain request; empty:
  // START is False while draining.
  std::string draining_start;

  // The policy of `config`; an error names the knob and what was expected.
  static Result<DefragPolicy> from_config(const config::Config& config);
  // "Defrag <name>": the DrainReason of this daemon's drains.
  std::string drain_reason() const { return "Defrag " + name; }
};

}  // namespace cara::defrag
