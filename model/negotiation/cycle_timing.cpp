#include "model/negotiation/cycle_timing.h"

#include <algorithm>

namespace cara::negotiation {

std::int64_t next_cycle_at(const NegotiatorPolicy& policy, const CycleTimes& times, std::int64_t now) {
  std::int64_t at = times.last_start < 0 || times.requested ? now : times.last_start + policy.interval;
  if (times.last_start >= 0) at = std::max(at, times.last_start + policy.min_interval);
  if (times.last_end >= 0) at = std::max(at, times.last_end + policy.cycle_delay);
  return at;
}

}  // namespace cara::negotiation
