// When the next negotiation cycle starts (central-manager-configuration,
// NEGOTIATOR_INTERVAL, NEGOTIATOR_MIN_INTERVAL, NEGOTIATOR_CYCLE_DELAY):
// NEGOTIATOR_INTERVAL after the last start, or at once when a schedd asked
// for one (condor_reschedule); but never sooner than
// NEGOTIATOR_MIN_INTERVAL after the last start, nor NEGOTIATOR_CYCLE_DELAY
// after the last end.
#pragma once

#include <cstdint>

#include "model/negotiation/negotiator_policy.h"

namespace cara::negotiation {

struct CycleTimes {
  std::int64_t last_start = -1;  // -1: no cycle yet
  std::int64_t last_end = -1;
  bool requested = false;  // a schedd asked since the last start
};

std::int64_t next_cycle_at(const NegotiatorPolicy& policy, const CycleTimes& times, std::int64_t now);

}  // namespace cara::negotiation
