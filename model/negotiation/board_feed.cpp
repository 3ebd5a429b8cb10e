#include "model/negotiation/board_feed.h"

#include <limits>

#include "model/classad/symbol.h"
#include "model/schedd/job_status.h"

namespace cara::negotiation {

const std::vector<BoardFeed::Key>& BoardFeed::feed(SlotBoard& board,
                                                   const std::vector<classad::ClassAd>& ads) {
  const std::uint64_t call = ++calls_;
  const std::size_t n = ads.size();
  static const classad::Symbol kName = classad::intern("Name");
  // The slots of the last list keyed for it alone go; each named slot
  // listed keeps its key while the keys kept so far stay increasing (the
  // collector lists its slots in one order, so all of them do).
  for (Key k : unnamed_) board.erase(k);
  unnamed_.clear();
  keys_.assign(n, 0);
  std::vector<Known*> named(n, nullptr);
  std::vector<unsigned char> kept(n, 0);
  Key lo = 0;
  std::string scratch;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view name = schedd::string_attr(ads[i], kName, scratch);
    if (name.empty()) continue;
    auto it = named_.find(name);
    if (it == named_.end()) {
      named[i] = &named_.emplace(std::string(name), Known{0, call}).first->second;
      continue;
    }
    Known& k = it->second;
    if (k.seen == call) continue;  // the name again: this list's alone
    k.seen = call;
    named[i] = &k;
    if (k.key > lo) {
      keys_[i] = lo = k.key;
      kept[i] = 1;
    } else {
      board.erase(k.key);  // out of order: keyed anew
      k.key = 0;
    }
  }
  // Slots no longer listed.
  for (auto it = named_.begin(); it != named_.end();) {
    if (it->second.seen == call) {
      ++it;
      continue;
    }
    board.erase(it->second.key);
    it = named_.erase(it);
  }
  // Each run of slots without a key between two kept keys `lo` and `hi`
  // (past the last: as many gaps of the spacing as it needs) takes keys
  // spread evenly between them.
  constexpr Key kMax = std::numeric_limits<Key>::max();
  bool room = true;
  lo = 0;
  for (std::size_t i = 0; i < n && room;) {
    if (kept[i] != 0) {
      lo = keys_[i++];
      continue;
    }
    std::size_t end = i;
    while (end < n && kept[end] == 0) ++end;
    const Key run = end - i;
    Key hi = 0;
    if (end < n) {
      hi = keys_[end];
    } else if (spacing_ <= kMax / (run + 1) && lo <= kMax - spacing_ * (run + 1)) {
      hi = lo + spacing_ * (run + 1);
    }
    if (hi == 0 || hi - lo <= run) {
      room = false;
      break;
    }
    const Key step = (hi - lo) / (run + 1);  // at least 1
    for (std::size_t j = i; j < end; ++j) keys_[j] = lo + step * (j - i + 1);
    i = end;
  }
  if (!room) {
    // No key left between two neighbours: every slot keyed anew.
    ++rekeyed_;
    for (std::size_t i = 0; i < n; ++i)
      if (kept[i] != 0) board.erase(keys_[i]);
    const Key spacing = n > 0 && spacing_ > kMax / (n + 1) ? kMax / (n + 1) : spacing_;
    for (std::size_t i = 0; i < n; ++i) keys_[i] = spacing * (i + 1);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (named[i] != nullptr)
      named[i]->key = keys_[i];
    else
      unnamed_.push_back(keys_[i]);
    board.set(keys_[i], ads[i]);
  }
  return keys_;
}

void BoardFeed::clear(SlotBoard& board) {
  for (const auto& [name, k] : named_) board.erase(k.key);
  for (Key k : unnamed_) board.erase(k);
  named_.clear();
  unnamed_.clear();
  keys_.clear();
}

}  // namespace cara::negotiation
