#include "actors/submitter.h"

#include <caf/actor_system.hpp>
#include <caf/typed_event_based_actor.hpp>

#include "actors/collectors_update.h"
#include "model/collector/ad_store.h"

namespace cara::actors {
namespace {

struct SubmitterState {
  std::vector<collector_actor> collectors;
  static inline const char* name = "submitter";
};

using Self = submitter_actor::stateful_pointer<SubmitterState>;

submitter_actor::behavior_type submitter_behavior(Self self, schedd_actor schedd,
                                                  std::vector<collector_actor> collectors) {
  self->state.collectors = std::move(collectors);
  return {
      [self, schedd](RequestsQuery& q) { return self->delegate(schedd, std::move(q)); },
      [self](WireAd& ad) {
        // Its schedd's ad only: a peer must not advertise for a submitter.
        if (!net::from_this_node(self)) return;
        AdUpdate u;
        u.type = static_cast<std::int32_t>(collector::AdType::Submitter);
        u.ads.push_back(std::move(ad));
        u.endpoints.push_back(as_endpoint<collector::AdType::Submitter>(self));
        for (const collector_actor& c : self->state.collectors) self->send(c, u);
      },
      [self](Collectors& c) { take_collectors(self, c, self->state.collectors); },
  };
}

}  // namespace

submitter_actor spawn_submitter(caf::actor_system& sys, schedd_actor schedd,
                                std::vector<collector_actor> collectors) {
  return sys.spawn(submitter_behavior, std::move(schedd), std::move(collectors));
}

}  // namespace cara::actors
