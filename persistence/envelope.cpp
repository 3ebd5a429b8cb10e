#include "persistence/envelope.h"

#include <zlib.h>

namespace cara::persistence {
namespace {

constexpr std::size_t kHeader = 1 + 4 + 4;  // format, length, CRC-32

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint32_t get_u32(std::string_view in) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[static_cast<std::size_t>(i)]);
  return v;
}

// CRC-32 (ISO-HDLC, as zlib and Boost's crc_32_type compute it: the
// records written with either read alike). zlib's is several times faster
// than a byte-wise table, and a schedd restarting checks every job's.
std::uint32_t crc32(std::string_view data) {
  std::uint32_t crc = static_cast<std::uint32_t>(::crc32_z(0L, Z_NULL, 0));
  return static_cast<std::uint32_t>(
      ::crc32_z(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<z_size_t>(data.size())));
}

}  // namespace

std::string seal(PayloadFormat format, std::string_view payload) {
  std::string out;
  out.reserve(kHeader + payload.size());
  out.push_back(static_cast<char>(format));
  put_u32(out, static_cast<std::uint32_t>(payload.size()));
  put_u32(out, crc32(payload));
  out.append(payload);
  return out;
}

Result<std::string_view> open_envelope(std::string_view sealed, PayloadFormat expected) {
  if (sealed.size() < kHeader)
    return Error{"a value of " + std::to_string(sealed.size()) + " bytes is shorter than its " +
                 std::to_string(kHeader) + "-byte envelope"};
  const auto format = static_cast<std::uint8_t>(sealed[0]);
  if (format != static_cast<std::uint8_t>(expected))
    return Error{"unknown payload format " + std::to_string(format) + " (expected " +
                 std::to_string(static_cast<int>(expected)) + ")"};
  const std::uint32_t length = get_u32(sealed.substr(1, 4));
  const std::string_view payload = sealed.substr(kHeader);
  if (payload.size() != length)
    return Error{"the envelope says " + std::to_string(length) + " bytes, the value holds " +
                 std::to_string(payload.size())};
  if (crc32(payload) != get_u32(sealed.substr(5, 4)))
    return Error{"checksum mismatch: the value is corrupted"};
  return payload;
}

}  // namespace cara::persistence
