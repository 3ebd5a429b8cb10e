// The negotiator's own copy of a slot ad, for what a cycle adds to it (the
// Remote* attributes, the resources a match takes from a partitionable
// slot, a Rank at a rank group's value): it shows what the slot's ad
// shows and takes changes of its own without copying the slot's
// attributes (some 65 in a site's pool, 30,000 slots).
#pragma once

#include "model/classad/classad.h"

namespace cara::negotiation {

// Chained to `ad`; or, when `ad` is chained already (the startd chains its
// slot ads to its machine's, and a busy slot's annotated ad is chained to
// the slot's), a copy that shares its parent and copies only its own few
// attributes when first changed: chaining to a chained ad would flatten
// it into a copy of every attribute (a fifth of a simulated cycle).
// For set and insert; an erase may show undefined where `ad` had a value.
inline classad::ClassAd ad_layer(const classad::ClassAd& ad) {
  classad::ClassAd out;
  if (ad.chained())
    out = ad;
  else
    out.chain_to(ad);
  return out;
}

}  // namespace cara::negotiation
