#include "actors/negotiator_lookup.h"

#include "model/negotiation/negotiator_ads.h"

namespace cara::actors {

std::vector<NewestNegotiator> newest_negotiators(const AdQueryReply& reply) {
  std::vector<NewestNegotiator> best;
  for (std::size_t i = 0; i < reply.ads.size() && i < reply.endpoints.size(); ++i) {
    const std::int64_t term = negotiation::active_term_of(reply.ads[i].ad);
    if (!reply.endpoints[i] || (!best.empty() && term < best.front().term)) continue;
    if (!best.empty() && term > best.front().term) best.clear();
    best.push_back(NewestNegotiator{endpoint<collector::AdType::Negotiator>(reply.endpoints[i]), term});
  }
  return best;
}

std::optional<NewestNegotiator> newest_negotiator(const AdQueryReply& reply) {
  auto all = newest_negotiators(reply);
  if (all.empty()) return std::nullopt;
  return all.front();
}

}  // namespace cara::actors
