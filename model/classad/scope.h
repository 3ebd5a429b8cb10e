// The chain of enclosing ads for a nested ClassAd value: an unscoped name
// not found in a nested ad is looked up in the ad that contains it, and so
// on outwards (HTCondor ClassAd::LookupInScope).
#pragma once

#include <memory>

namespace cara::classad {

class ClassAd;

struct ScopeLink {
  const ClassAd* ad;
  std::shared_ptr<const ScopeLink> parent;
};

}  // namespace cara::classad
