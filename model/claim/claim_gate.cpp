#include "model/claim/claim_gate.h"

#include <algorithm>

namespace cara::claim {

std::optional<std::int32_t> ClaimGate::announce(const std::string& claim_id, std::int64_t now) {
  auto w = std::find_if(waiting_.begin(), waiting_.end(), [&](const auto& x) { return x.first == claim_id; });
  if (w != waiting_.end()) {
    const std::int32_t token = w->second;
    waiting_.erase(w);
    return token;
  }
  std::erase_if(announced_, [&](const auto& a) { return now - a.second > limits_.announced_for; });
  if (announced_.size() >= limits_.max_announced) announced_.erase(announced_.begin());
  announced_.emplace_back(claim_id, now);
  return std::nullopt;
}

Admission ClaimGate::admit(const std::string& claim_id, std::int64_t now) {
  auto a =
      std::find_if(announced_.begin(), announced_.end(), [&](const auto& x) { return x.first == claim_id; });
  if (a != announced_.end()) {
    const bool fresh = now - a->second <= limits_.announced_for;
    announced_.erase(a);  // used up, fresh or not
    if (fresh) return Admission{Admission::Kind::Pass, 0};
  }
  if (waiting_.size() >= limits_.max_waiting) return Admission{Admission::Kind::Refuse, 0};
  const std::int32_t token = ++tokens_;
  waiting_.emplace_back(claim_id, token);
  return Admission{Admission::Kind::Wait, token};
}

bool ClaimGate::expire(std::int32_t token) {
  auto w = std::find_if(waiting_.begin(), waiting_.end(), [&](const auto& x) { return x.second == token; });
  if (w == waiting_.end()) return false;
  waiting_.erase(w);
  return true;
}

}  // namespace cara::claim
