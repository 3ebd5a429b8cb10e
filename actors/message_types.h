// Registers every message type with an actor system's configuration, so
// the middleman can serialize them (STACK-NOTES.md: an unregistered type
// fails only at run time). Call before the actor_system is constructed.
#pragma once

#include <caf/fwd.hpp>
#include <cstddef>

namespace cara::actors {

void add_message_types(caf::actor_system_config& cfg);

// The scheduler's workers: one per hardware thread, at least two (so that
// an actor waiting on a synced write leaves another one running).
std::size_t scheduler_workers();

// What every caracara actor system is: CAF's sharing scheduler (on 2 cores
// the default work-stealing one starts 4 threads and spawning from an actor
// gets 40-300x slower; STACK-NOTES.md) with scheduler_workers() workers,
// CAF's own logger quiet (daemons log to their own files), and every
// message type registered.
void configure_actor_system(caf::actor_system_config& cfg);

}  // namespace cara::actors
