// Which negotiator a collector's Negotiator ads name as the pool's: the one
// of the newest term (HadTerm; 0 without high availability), the first of
// them when several share it. The schedd asks those of the newest term for
// cycles, the web endpoint asks the first for the groups' reports.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "actors/messages.h"

namespace cara::actors {

struct NewestNegotiator {
  negotiator_actor negotiator;
  std::int64_t term = 0;
};

// None when no ad has an endpoint.
std::optional<NewestNegotiator> newest_negotiator(const AdQueryReply& reply);
// Every negotiator of the newest term, in the ads' order: several when the
// pool is sharded among negotiators (NEGOTIATOR_SLOT_CONSTRAINT), each of
// which a schedd asks for a cycle.
std::vector<NewestNegotiator> newest_negotiators(const AdQueryReply& reply);

}  // namespace cara::actors
