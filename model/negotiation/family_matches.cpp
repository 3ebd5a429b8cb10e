#include "model/negotiation/family_matches.h"

#include <utility>

namespace cara::negotiation {

void FamilyMatches::renew(std::vector<classad::Value> stamp) {
  if (stamped_ && classad::identical(stamp, stamp_)) return;
  known_.clear();
  stamp_ = std::move(stamp);
  stamped_ = true;
}

void FamilyMatches::set(int family, bool matched) {
  const auto f = static_cast<std::size_t>(family);
  if (known_.size() <= f) known_.resize(f + 1, kUnknown);
  known_[f] = matched ? kYes : kNo;
}

}  // namespace cara::negotiation
