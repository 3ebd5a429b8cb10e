// Taking a Collectors message (node_messages.h): only a daemon's own node
// says where its collectors are now; anything else is ignored.
#pragma once

#include <vector>

#include "actors/interfaces.h"
#include "net/guard.h"

namespace cara::actors {

template <class Self>
bool take_collectors(Self* self, const Collectors& c, std::vector<collector_actor>& into) {
  if (!net::from_this_node(self)) return false;
  into.clear();
  for (const collector_actor& a : c.collectors)
    if (a) into.push_back(a);
  return true;
}

}  // namespace cara::actors
