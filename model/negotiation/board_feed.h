// A negotiator's slot board (slot_board.h) kept in step with a collector's
// slot ads (issue 30: "incremental cycles driven by what changed since the
// last one", invalidated by collector updates). The negotiator asks the
// collector for every slot ad each cycle ("The Negotiation Cycle", step 1);
// a collector on the negotiator's node answers with the very ads it stores,
// each unchanged until its startd updates it, so a board that is given the
// whole list describes again only the ads that changed.
//
// The board takes its slots in key order, and a cycle over the board must
// take them in the order of the collector's list, as a cycle over the list
// would. The feed gives each slot, by Name, a key that keeps that order:
// keys far apart at first, a new slot the key halfway between its
// neighbours', a slot that moved a new key; when no key is left between
// two neighbours, every slot is keyed anew (and described again). A Name
// given twice in one list, or none, is keyed for that list alone.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/classad/classad.h"
#include "model/negotiation/slot_board.h"

namespace cara::negotiation {

class BoardFeed {
 public:
  using Key = SlotBoard::Key;
  // `spacing`: the gap between the keys of neighbours keyed afresh (tests
  // make it small to see the feed key everything anew).
  explicit BoardFeed(Key spacing = Key{1} << 32) : spacing_(spacing < 2 ? 2 : spacing) {}

  // Sets every ad of `ads` on `board` (the same ad again changes nothing
  // there) and erases the slots no longer in it. The keys, by place in
  // `ads`, strictly increasing; valid until the next call.
  const std::vector<Key>& feed(SlotBoard& board, const std::vector<classad::ClassAd>& ads);
  // Erases every slot this feed set on `board` (a negotiator whose
  // collector moved to another node: its ads are no longer the same).
  void clear(SlotBoard& board);

  // How many times feed() keyed every slot anew (for tests).
  std::int64_t rekeyed() const { return rekeyed_; }

 private:
  struct Known {
    Key key = 0;
    std::uint64_t seen = 0;  // the feed() call that last listed it
  };
  Key spacing_;
  std::uint64_t calls_ = 0;
  std::int64_t rekeyed_ = 0;
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Known, NameHash, std::equal_to<>> named_;
  std::vector<Key> unnamed_;  // the keys of the last list's unnamed or repeated slots
  std::vector<Key> keys_;     // by place in the last list
};

}  // namespace cara::negotiation
