// Registers every message type with an actor system's configuration, so
// the middleman can serialize them (STACK-NOTES.md: an unregistered type
// fails only at run time). Call before the actor_system is constructed.
#pragma once

#include <caf/fwd.hpp>

namespace cara::actors {

void add_message_types(caf::actor_system_config& cfg);

// What every caracara actor system is: CAF's sharing scheduler (on 2 cores
// the default work-stealing one starts 4 threads and spawning from an actor
// gets 40-300x slower; STACK-NOTES.md), CAF's own logger quiet (daemons
// log to their own files), and every message type registered.
void configure_actor_system(caf::actor_system_config& cfg);

}  // namespace cara::actors
