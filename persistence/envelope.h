// Every value a store keeps is sealed in an envelope of our own
// (STACK-NOTES.md: Boost's binary archives check nothing, and garbage makes
// them allocate without bound): a format byte, the payload's length and a
// CRC-32 of the payload, then the payload. Opening checks all three, so a
// torn or corrupted value is an error that says what was wrong, never a
// wrong record.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/common/result.h"

namespace cara::persistence {

// The payload's encoding; a store refuses one it does not know.
enum class PayloadFormat : std::uint8_t {
  BoostBinary = 1,  // a Boost.Serialization binary archive, no header (record.h)
};

std::string seal(PayloadFormat format, std::string_view payload);

// The payload of `sealed` (a view into it), or what is wrong with it.
Result<std::string_view> open_envelope(std::string_view sealed, PayloadFormat expected);

}  // namespace cara::persistence
