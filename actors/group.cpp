#include "actors/group.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "model/negotiation/negotiator_ads.h"
#include "net/guard.h"

namespace cara::actors {
namespace {

struct GroupState {
  classad::ClassAd report;
  static inline const char* name = "group";
};

using Self = group_actor::stateful_pointer<GroupState>;

group_actor::behavior_type group_behavior(Self self, std::string name, double configured) {
  negotiation::GroupOutcome none;
  none.name = std::move(name);
  none.configured_quota = configured;
  self->state.report = negotiation::group_ad(none, 0);
  return {
      [self](GroupTurn& t) {
        // Only the negotiator that spawned the group hands it turns.
        if (!net::from_this_node(self)) return;
        self->state.report = std::move(t.report.ad);
      },
      [self](GroupQuery) { return WireAd{self->state.report}; },
  };
}

}  // namespace

group_actor spawn_group(caf::actor_system& sys, std::string name, double configured) {
  return sys.spawn(group_behavior, std::move(name), configured);
}

}  // namespace cara::actors
