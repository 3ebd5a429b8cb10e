#include "net/claim_secret.h"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace cara::net {

std::string claim_secret() {
  std::array<unsigned char, 32> bytes{};
  if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
    throw std::runtime_error("no entropy for a claim id (OpenSSL's RAND_bytes failed)");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

}  // namespace cara::net
