// Which negotiator a collector's Negotiator ads name as the pool's: the one
// of the newest term (HadTerm; 0 without high availability), the first of
// them when several share it. The schedd follows it for reschedules, the
// web endpoint asks it for the groups' reports.
#pragma once

#include <cstdint>
#include <optional>

#include "actors/messages.h"

namespace cara::actors {

struct NewestNegotiator {
  negotiator_actor negotiator;
  std::int64_t term = 0;
};

// None when no ad has an endpoint.
std::optional<NewestNegotiator> newest_negotiator(const AdQueryReply& reply);

}  // namespace cara::actors
