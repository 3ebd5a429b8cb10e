// The chain of enclosing ads for a nested ClassAd value: an unscoped name
// not found in a nested ad is looked up in the ad that contains it, and so
// on outwards (HTCondor ClassAd::LookupInScope).
#pragma once

#include <memory>

namespace cara::classad {

class ClassAd;

// Evaluation frames point at links without owning them (the value holding
// the nested ad keeps its chain alive); a new nested ad value takes shared
// ownership of its enclosing chain through shared_from_this().
struct ScopeLink : std::enable_shared_from_this<ScopeLink> {
  ScopeLink(const ClassAd* a, std::shared_ptr<const ScopeLink> p) : ad(a), parent(std::move(p)) {}
  const ClassAd* ad;
  std::shared_ptr<const ScopeLink> parent;
};

}  // namespace cara::classad
