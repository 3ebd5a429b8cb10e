#include "model/claim/claim_gate.h"

#include <algorithm>

namespace cara::claim {

void ClaimGate::announce(const std::string& claim_id, std::int64_t now) {
  std::erase_if(announced_, [&](const auto& a) { return now - a.second > limits_.announced_for; });
  if (announced_.size() >= limits_.max_announced) announced_.erase(announced_.begin());
  announced_.emplace_back(claim_id, now);
}

bool ClaimGate::announce_match(const std::string& claim_id, std::int64_t term, std::int64_t now) {
  if (!terms_.admit(term)) return false;
  announce(claim_id, now);
  return true;
}

bool ClaimGate::admit(const std::string& claim_id, std::int64_t now) {
  auto a =
      std::find_if(announced_.begin(), announced_.end(), [&](const auto& x) { return x.first == claim_id; });
  if (a == announced_.end()) return false;
  const bool fresh = now - a->second <= limits_.announced_for;
  announced_.erase(a);  // used up, fresh or not
  return fresh;
}

}  // namespace cara::claim
