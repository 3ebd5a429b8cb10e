#include "actors/negotiator_lookup.h"

#include "model/negotiation/negotiator_ads.h"

namespace cara::actors {

std::optional<NewestNegotiator> newest_negotiator(const AdQueryReply& reply) {
  std::optional<NewestNegotiator> best;
  for (std::size_t i = 0; i < reply.ads.size() && i < reply.endpoints.size(); ++i) {
    const std::int64_t term = negotiation::active_term_of(reply.ads[i].ad);
    if (!reply.endpoints[i] || (best && term <= best->term)) continue;
    best = NewestNegotiator{endpoint<collector::AdType::Negotiator>(reply.endpoints[i]), term};
  }
  return best;
}

}  // namespace cara::actors
