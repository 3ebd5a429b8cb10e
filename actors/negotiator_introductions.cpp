// A negotiator's introductions to the nodes it must message
// (negotiator_state.h, actors/introducer.h).
#include <caf/actor_system.hpp>
#include <set>

#include "actors/negotiator_state.h"
#include "model/collector/ad_store.h"
#include "model/schedd/job_status.h"

namespace cara::actors::negotiator_parts {

using schedd::string_attr;

void introduce_then(Self self, const NegotiatorSetup& setup, const std::vector<schedd_actor>& schedds,
                    const std::vector<slot_actor>& slots, std::function<void()> then) {
  const net::Guard* guard = setup.context.guard.get();
  if (!setup.introducer || !guard) return then();
  // The guard is asked once per node, not per slot (a node has dozens).
  std::set<caf::node_id> seen, strangers;
  auto note = [&](const caf::node_id& node) {
    if (!node || node == self->system().node() || !seen.insert(node).second) return;
    if (!guard->identity(node)) strangers.insert(node);
  };
  for (const schedd_actor& s : schedds)
    if (s) note(s.node());
  for (const slot_actor& s : slots)
    if (s) note(s.node());
  if (strangers.empty()) return then();
  using collector::AdType;
  auto go_on = [then](caf::error&) { then(); };
  self->request(self->state.collectors.front(), setup.request_timeout,
                AdQueryRequest{static_cast<std::int32_t>(AdType::Master), "", {"MyAddress"}, false})
      .then(
          [self, setup, strangers, then, go_on](AdQueryReply& masters) {
            JoinNodes join;
            for (std::size_t i = 0; i < masters.ads.size() && i < masters.endpoints.size(); ++i) {
              const std::string address = string_attr(masters.ads[i].ad, "MyAddress");
              if (masters.endpoints[i] && strangers.count(masters.endpoints[i]->node()) && !address.empty())
                join.addresses.push_back(address);
            }
            if (join.addresses.empty()) return then();
            const auto wait = setup.request_timeout * static_cast<int>(join.addresses.size() + 1);
            self->request(setup.introducer, wait, std::move(join))
                .then(
                    [setup, then](NodesJoined& r) {
                      if (r.joined > 0) setup.context.info("joined " + std::to_string(r.joined) + " nodes");
                      for (const std::string& why : r.failures) setup.context.warning(why);
                      then();
                    },
                    go_on);
          },
          go_on);
}

}  // namespace cara::actors::negotiator_parts
