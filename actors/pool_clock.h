// The time the model sees, from an actor's clock: seconds since the epoch.
// A real node's actor clock is the steady clock, so `offset` maps it to
// wall time once at start-up; under CAF's test coordinator the clock is
// virtual and `offset` fixes where virtual time begins, so every actor of a
// deterministic test agrees on `now` and timers move it exactly.
#pragma once

#include <chrono>
#include <cstdint>

namespace cara::actors {

struct PoolClock {
  std::int64_t offset = 0;  // epoch seconds at the actor clock's zero

  template <class Self>
  std::int64_t now(Self* self) const {
    using namespace std::chrono;
    return offset + duration_cast<seconds>(self->clock().now().time_since_epoch()).count();
  }
  // A real node: the wall clock now, mapped from the steady clock.
  static PoolClock wall() {
    using namespace std::chrono;
    const auto wall = duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
    const auto steady = duration_cast<seconds>(steady_clock::now().time_since_epoch()).count();
    return PoolClock{wall - steady};
  }
};

}  // namespace cara::actors
