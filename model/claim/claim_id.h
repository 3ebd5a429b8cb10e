// A claim id: "<public part>#<secret>" (HTCondor's claim ids too end in
// their secret). The public part names the claim where anyone may read it
// (a slot ad's PublicClaimId); the secret is what only the matched schedd
// and the slot know. Ids are made and read here only: the negotiator's and
// the startd's (for leftovers) are made with make_claim_id, a slot ad
// shows public_claim_id, and a claim id that arrives from the wire is
// checked with check_claim_id before anything looks it up.
#pragma once

#include <string>
#include <string_view>

#include "model/common/result.h"

namespace cara::claim {

std::string make_claim_id(std::string_view public_part, std::string_view secret);

// The part before '#'; empty when there is none.
std::string_view public_claim_id(std::string_view id);

// Both parts present, the public one without '#', at most 512 characters
// (a bound on what a stranger can make a daemon keep or log).
Status check_claim_id(std::string_view id);

}  // namespace cara::claim
