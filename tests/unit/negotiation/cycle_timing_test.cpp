// When the next cycle starts (model/negotiation/cycle_timing.h):
// NEGOTIATOR_INTERVAL, a reschedule, NEGOTIATOR_MIN_INTERVAL and
// NEGOTIATOR_CYCLE_DELAY.
#include "model/negotiation/cycle_timing.h"

#include <catch2/catch.hpp>

using namespace cara::negotiation;

TEST_CASE("the next cycle waits for the interval, a reschedule, the minimum interval and the delay",
          "[negotiation][timing]") {
  NegotiatorPolicy policy;
  policy.interval = 60;
  policy.min_interval = 5;
  policy.cycle_delay = 20;
  struct Row {
    const char* what;
    CycleTimes times;
    std::int64_t now, at;
  };
  const Row rows[] = {
      {"the first cycle starts at once", {-1, -1, false}, 1000, 1000},
      {"then NEGOTIATOR_INTERVAL after the last start", {1000, 1010, false}, 1015, 1060},
      {"a reschedule starts one now ...", {1000, 1010, true}, 1040, 1040},
      {"... but not within NEGOTIATOR_CYCLE_DELAY of the last end", {1000, 1010, true}, 1020, 1030},
      {"... nor within NEGOTIATOR_MIN_INTERVAL of the last start", {1000, -1, true}, 1001, 1005},
      {"a long cycle pushes the next past its interval", {1000, 1070, false}, 1070, 1090},
  };
  for (const Row& r : rows) {
    INFO(r.what);
    CHECK(next_cycle_at(policy, r.times, r.now) == r.at);
  }
}
