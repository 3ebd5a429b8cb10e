#include "model/negotiation/slot_memo.h"

#include <algorithm>
#include <stdexcept>

namespace cara::negotiation {

void SlotMemo::begin(const NegotiatorPolicy& policy) {
  // The writer caches one entry per slot expression tree it followed; ads
  // whose updates bring new trees each time would grow it without end.
  const std::size_t bound = 16 * entries() + 4096;
  if (!begun_ || slot_constraint_ != policy.slot_constraint || use_slot_weights_ != policy.use_slot_weights ||
      writer_.cached() > bound) {
    clear();
    slot_constraint_ = policy.slot_constraint;
    use_slot_weights_ = policy.use_slot_weights;
    begun_ = true;
  }
  ++cycle_;
}

bool SlotMemo::rememberable(const classad::ClassAd& ad) {
  // An ad with no attributes has no identity of its own.
  return ad.identity() != std::pair<const void*, const void*>{nullptr, nullptr};
}

RememberedSlot* SlotMemo::find(const classad::ClassAd& ad) {
  if (!rememberable(ad)) return nullptr;
  auto it = entries_.find(ad.identity());
  return it == entries_.end() ? nullptr : &it->second;
}

RememberedSlot& SlotMemo::remember(const classad::ClassAd& ad) {
  RememberedSlot& e = entries_[ad.identity()];
  e = RememberedSlot{};
  e.ad = ad;
  e.seen = cycle_;
  return e;
}

bool SlotMemo::see(RememberedSlot& e) {
  if (e.seen == cycle_) return false;
  e.seen = cycle_;
  return true;
}

void SlotMemo::end_pool() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.seen != cycle_)
      it = entries_.erase(it);
    else
      ++it;
  }
}

std::uint32_t SlotMemo::generation(const std::vector<classad::Symbol>& names, int kind) {
  std::vector<Names>& lists = lists_[kind];
  for (Names& n : lists) {
    if (n.names != names) continue;
    // Parts numbered for ads long gone would grow the table without end:
    // past a bound, the list starts a new generation (the remembered
    // numbers of the old one then never match).
    if (n.parts.size() > 4 * entries() + 1024) {
      n.parts.clear();
      n.cells.clear();
      n.generation = ++next_generation_;
    }
    return n.generation;
  }
  // A list not among the last few: a new generation, in place of the
  // oldest (whose parts then never match again).
  if (lists.size() < kLists) {
    lists.emplace_back();
  } else {
    std::rotate(lists.begin(), lists.begin() + 1, lists.end());
  }
  lists.back().names = names;
  lists.back().parts.clear();
  lists.back().cells.clear();
  lists.back().generation = ++next_generation_;
  return lists.back().generation;
}

std::uint32_t SlotMemo::part_number(int kind, std::uint32_t generation, const std::string& text) {
  std::lock_guard lock(numbering_);
  for (Names& n : lists_[kind])
    if (n.generation == generation)
      return n.parts.try_emplace(text, static_cast<std::uint32_t>(n.parts.size())).first->second;
  // A generation no longer listed (it cannot be: generation() made it for
  // this cycle's keys, and only a later call evicts it).
  throw std::logic_error("key part numbered for a generation that is gone");
}

const std::vector<SlotValue>* SlotMemo::family_cells(std::uint32_t generation, std::uint32_t part) const {
  for (const Names& n : lists_[1]) {
    if (n.generation != generation) continue;
    auto it = n.cells.find(part);
    return it == n.cells.end() ? nullptr : &it->second;
  }
  return nullptr;
}

void SlotMemo::keep_family_cells(std::uint32_t generation, std::uint32_t part, std::vector<SlotValue> cells) {
  for (Names& n : lists_[1])
    if (n.generation == generation) n.cells.emplace(part, std::move(cells));
}

std::int64_t RememberedSlot::key_part(int kind, std::uint32_t generation) const {
  for (const KeyPart& p : parts_[kind])
    if (p.generation == generation && generation != 0) return p.number;
  return -1;
}

void RememberedSlot::keep_key_part(int kind, std::uint32_t generation, std::uint32_t number) {
  KeyPart* parts = parts_[kind];
  KeyPart& oldest = parts[0].generation <= parts[1].generation ? parts[0] : parts[1];
  oldest.generation = generation;
  oldest.number = number;
}

int SlotMemo::significant_id(const std::vector<std::string>& names) {
  auto [it, fresh] = significant_ids_.try_emplace(names, static_cast<int>(significant_lists_.size()));
  if (fresh) significant_lists_.push_back(names);
  return it->second;
}

void SlotMemo::trim_significant() {
  if (!trim_significant_lists()) return;
  for (auto& [id, e] : entries_) e.significant = -1;
}

bool SlotMemo::trim_significant_lists() {
  if (significant_lists_.size() <= entries() + 1024) return false;
  significant_ids_.clear();
  significant_lists_.clear();
  ++epoch_;
  return true;
}

void SlotMemo::clear() {
  significant_ids_.clear();
  significant_lists_.clear();
  entries_.clear();
  lists_[0].clear();
  lists_[1].clear();
  writer_ = SlotKeyWriter{};
  matches_.clear();
  begun_ = false;
  ++epoch_;
}

const ClassKeyNames& SlotMemo::key_names(const classad::NameSet& names, const classad::NameSet& match_names) {
  // The sets compare by their spellings: a name spelled otherwise (a
  // request reading `memory` after one that read `Memory`) is asked anew,
  // which costs only the time.
  if (!key_names_ || key_names_in_[0] != names || key_names_in_[1] != match_names) {
    key_names_ = class_key_names(names, match_names);
    key_names_in_[0] = names;
    key_names_in_[1] = match_names;
  }
  return *key_names_;
}

}  // namespace cara::negotiation
