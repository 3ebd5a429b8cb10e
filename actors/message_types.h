// Registers every message type with an actor system's configuration, so
// the middleman can serialize them (STACK-NOTES.md: an unregistered type
// fails only at run time). Call before the actor_system is constructed.
#pragma once

#include <caf/fwd.hpp>

namespace cara::actors {

void add_message_types(caf::actor_system_config& cfg);

}  // namespace cara::actors
