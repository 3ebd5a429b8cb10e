// How long condor_master waits before restarting a daemon that died of an
// error, and when a daemon counts as recovered (HTCondor's daemon::NextStart
// and daemon::Recover): the n-th restart in a row waits
//   MASTER_BACKOFF_CONSTANT + ceil(MASTER_BACKOFF_FACTOR ^ (n - 1))
// seconds, at most MASTER_BACKOFF_CEILING; a daemon that then runs
// MASTER_RECOVER_FACTOR seconds starts its count again. Each knob may be
// set per daemon as MASTER_<NAME>_BACKOFF_CONSTANT and so on.
#pragma once

#include <cstdint>
#include <string>

#include "model/config/config.h"

namespace cara::node {

struct RestartBackoff {
  std::int64_t constant = 9;    // MASTER_BACKOFF_CONSTANT
  double factor = 2.0;          // MASTER_BACKOFF_FACTOR
  std::int64_t ceiling = 3600;  // MASTER_BACKOFF_CEILING
  std::int64_t recover = 300;   // MASTER_RECOVER_FACTOR (seconds)

  // The knobs for daemon `name` (as in DAEMON_LIST), per-daemon ones first.
  // A value out of range keeps the default (as condor_master); one that is
  // not a number is an error naming the knob.
  static Result<RestartBackoff> from_config(const config::Config& config, const std::string& name);

  // Seconds before the next restart, `restarts` being how many restarts in
  // a row came before it (0 for the first).
  std::int64_t delay(std::int64_t restarts) const;
};

}  // namespace cara::node
