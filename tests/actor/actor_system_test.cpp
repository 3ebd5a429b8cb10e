// What configure_actor_system makes of an actor system: the sharing
// scheduler with one worker per hardware thread (at least two), not CAF's
// default of at least four, which on a two-core machine only adds turns
// through the shared queue (bench/RESULTS.md, the durable end-to-end run).
#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/scheduler/abstract_coordinator.hpp>
#include <thread>

#include "actor/caf_catch.h"
#include "actors/message_types.h"

using namespace cara;

TEST_CASE("an actor system has one scheduler worker per hardware thread, at least two", "[actor_system]") {
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const std::size_t hardware = std::thread::hardware_concurrency();
  CHECK(actors::scheduler_workers() == std::max<std::size_t>(2, hardware));
  CHECK(sys.scheduler().num_workers() == actors::scheduler_workers());
}
