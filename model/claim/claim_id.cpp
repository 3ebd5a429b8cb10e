#include "model/claim/claim_id.h"

namespace cara::claim {
namespace {

constexpr std::size_t kMaxLength = 512;

}  // namespace

std::string make_claim_id(std::string_view public_part, std::string_view secret) {
  std::string id;
  id.reserve(public_part.size() + 1 + secret.size());
  id.append(public_part).append(1, '#').append(secret);
  return id;
}

std::string_view public_claim_id(std::string_view id) {
  const auto hash = id.find('#');
  return hash == std::string_view::npos ? std::string_view{} : id.substr(0, hash);
}

Status check_claim_id(std::string_view id) {
  if (id.size() > kMaxLength)
    return Error{"malformed claim id: " + std::to_string(id.size()) + " characters, at most " +
                 std::to_string(kMaxLength) + " expected"};
  const auto hash = id.find('#');
  if (hash == std::string_view::npos || hash == 0 || hash + 1 == id.size())
    return Error{"malformed claim id '" + std::string(id.substr(0, 64)) +
                 "': expected <public part>#<secret>"};
  return Ok{};
}

}  // namespace cara::claim
