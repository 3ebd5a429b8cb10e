#include "actors/group.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

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
  self->state.report = group_ad(none, 0);
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

classad::ClassAd group_ad(const negotiation::GroupOutcome& o, std::int64_t cycle) {
  classad::ClassAd a;
  a.set("MyType", "Accounting");
  a.set("Name", o.name);
  a.set("IsAccountingGroup", true);
  a.set("ConfigQuota", o.configured_quota);
  a.set("EffectiveQuota", o.effective_quota);
  a.set("SubtreeQuota", o.subtree_quota);
  a.set("SurplusPolicy", o.accept_surplus ? "byquota" : "no");
  a.set("Requested", o.requested);
  a.set("GroupResourcesAllocated", o.allocated);
  a.set("GroupResourcesInUse", o.usage);
  a.set("Oversubscribed", o.oversubscribed);
  a.set("MatchesLastCycle", o.matched);
  a.set("GroupSortKey", o.sort_key);
  a.set("NegotiationTurn", static_cast<std::int64_t>(o.turn));
  a.set("LastCycle", cycle);
  return a;
}

group_actor spawn_group(caf::actor_system& sys, std::string name, double configured) {
  return sys.spawn(group_behavior, std::move(name), configured);
}

}  // namespace cara::actors
