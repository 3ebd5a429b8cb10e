#include "model/negotiation/match_memo.h"

#include <iterator>

#include "model/negotiation/slot_memo.h"

namespace cara::negotiation {

signed char MatchMemo::Job::get(const std::string& family) {
  if (auto it = now.find(family); it != now.end()) return it->second ? kYes : kNo;
  auto it = before.find(family);
  if (it == before.end()) return kUnknown;
  // Asked again: kept for the next cycle too.
  const bool matched = it->second;
  now.insert(before.extract(it));
  return matched ? kYes : kNo;
}

void MatchMemo::Job::set(const std::string& family, bool matched) {
  now[family] = matched;
}

void MatchMemo::begin() {
  ++cycle_;
  for (auto it = jobs_.begin(); it != jobs_.end();)
    it = it->second.cycle + 1 < cycle_ ? jobs_.erase(it) : std::next(it);
}

MatchMemo::Job* MatchMemo::job(const classad::ClassAd& ad, std::uint32_t generation) {
  if (!SlotMemo::rememberable(ad)) return nullptr;
  auto [it, fresh] = jobs_.try_emplace(ad.identity());
  Job& j = it->second;
  if (fresh) j.ad = ad;
  if (j.generation != generation) {
    // Keys of another list of names: nothing to compare with.
    j.now.clear();
    j.before.clear();
    j.generation = generation;
  } else if (j.cycle != cycle_) {
    j.before = std::move(j.now);
    j.now.clear();
  }
  j.cycle = cycle_;
  return &j;
}

void MatchMemo::clear() {
  jobs_.clear();
}

}  // namespace cara::negotiation
