// The secret half of a claim id ("<public part>#<secret>"): 256 bits from
// OpenSSL's CSPRNG, as hex. Whoever holds a claim id may claim, activate or
// release the slot it names, so it must not be guessable; only the
// negotiator (for a match) and a startd (for the leftovers of a
// partitionable slot) make them.
#pragma once

#include <string>

namespace cara::net {

// 64 hex digits. Throws std::runtime_error when the CSPRNG cannot give
// bytes (it has no entropy), rather than return a weak secret.
std::string claim_secret();

}  // namespace cara::net
