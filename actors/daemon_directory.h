// A node's daemons by their DAEMON_LIST names (a gate's directory, the
// master's status), each as the interface its name says. The directory
// holds daemons of every kind side by side, untyped; this is the one place
// an entry becomes typed, so a COLLECTOR entry cannot be taken for a
// schedd.
#pragma once

#include <caf/actor.hpp>
#include <caf/actor_cast.hpp>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "actors/handles.h"
#include "actors/master.h"

namespace cara::actors {

// The DAEMON_LIST name of the daemon with interface Handle.
template <class Handle>
constexpr const char* daemon_name() {
  static_assert(std::is_same_v<Handle, collector_actor> || std::is_same_v<Handle, negotiator_actor> ||
                    std::is_same_v<Handle, schedd_actor> || std::is_same_v<Handle, startd_actor> ||
                    std::is_same_v<Handle, master_actor> || std::is_same_v<Handle, had_actor> ||
                    std::is_same_v<Handle, defrag_actor>,
                "no daemon of DAEMON_LIST has this interface");
  if constexpr (std::is_same_v<Handle, collector_actor>) return "COLLECTOR";
  if constexpr (std::is_same_v<Handle, negotiator_actor>) return "NEGOTIATOR";
  if constexpr (std::is_same_v<Handle, schedd_actor>) return "SCHEDD";
  if constexpr (std::is_same_v<Handle, startd_actor>) return "STARTD";
  if constexpr (std::is_same_v<Handle, master_actor>) return "MASTER";
  if constexpr (std::is_same_v<Handle, had_actor>) return "HAD";
  if constexpr (std::is_same_v<Handle, defrag_actor>) return "DEFRAG";
}

// The daemon of that kind in `daemons`, or a null handle.
template <class Handle>
Handle daemon_in(const std::map<std::string, caf::actor>& daemons) {
  auto it = daemons.find(daemon_name<Handle>());
  return it == daemons.end() ? Handle{} : caf::actor_cast<Handle>(it->second);
}
template <class Handle>
Handle daemon_in(const std::vector<std::string>& names, const std::vector<caf::actor>& daemons) {
  for (std::size_t i = 0; i < names.size() && i < daemons.size(); ++i)
    if (names[i] == daemon_name<Handle>()) return caf::actor_cast<Handle>(daemons[i]);
  return Handle{};
}

}  // namespace cara::actors
