#include "model/negotiation/slot_classes.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <utility>

#include "model/common/parallel.h"
#include "model/negotiation/slot_memo.h"

namespace cara::negotiation {

SlotClasses::SlotClasses(const SlotPool& pool, classad::NameSet names, classad::NameSet match_names,
                         bool grouping, Threads threads, SlotMemo* memo)
    : pool_(pool), memo_(memo), keys_(memo != nullptr ? memo->writer() : own_keys_), grouping_(grouping) {
  // SlotWeight: a family's slots weigh alike for any job.
  for (const char* always :
       {"Requirements", "Rank", "Cpus", "Memory", "Disk", "PartitionableSlot", "SlotWeight"})
    match_names.insert(always);
  // A class must refine its family.
  names.insert(match_names.begin(), match_names.end());
  for (const std::string& n : names) name_symbols_.push_back(classad::intern(n));
  for (const std::string& n : match_names) match_symbols_.push_back(classad::intern(n));
  const auto& slots = pool.slots();
  class_of_.assign(slots.size(), -1);
  // The offered slots' class keys, written on the cycle's threads; then,
  // in slot order, the classes they make.
  std::vector<std::size_t> offered;
  for (std::size_t i = 0; i < slots.size(); ++i)
    if (slots[i].offered) offered.push_back(i);
  std::vector<std::string> keys = write_keys(offered, name_symbols_, true, threads);
  std::unordered_map<std::string, int> untakeable_keys;
  std::vector<std::size_t> firsts;  // by class: the slot that made it
  for (std::size_t k = 0; k < offered.size(); ++k) {
    const std::size_t i = offered[k];
    if (!slots[i].untakeable) {
      const auto [c, fresh] = class_for(i, std::move(keys[k]));
      if (fresh) firsts.push_back(i);
      class_of_[i] = c;
      classes_[static_cast<std::size_t>(c)].members.insert(i);
    } else if (!grouping_ || untakeable_keys.emplace(std::move(keys[k]), 0).second) {
      untakeable_.push_back(i);
    }
  }
  // Then their families (keyed on the threads too), in class order: the
  // numbers and live lists place() would have made slot by slot.
  std::vector<std::string> family_keys = write_keys(firsts, match_symbols_, false, threads);
  for (std::size_t c = 0; c < firsts.size(); ++c) {
    join_family(static_cast<int>(c), firsts[c], std::move(family_keys[c]));
    heads_[c] = *classes_[c].members.begin();
    set_live(static_cast<int>(c), true);
  }
  late_from_ = static_cast<int>(classes_.size());
}

std::vector<std::string> SlotClasses::write_keys(const std::vector<std::size_t>& slots,
                                                 const std::vector<classad::Symbol>& names, bool with_use,
                                                 Threads threads) {
  std::vector<std::string> keys(slots.size());
  if (!grouping_) return keys;  // every slot a class and a family of its own
  // The class key's part (kind 0) or the family key's (1), as the memo
  // keeps them for the names of this generation.
  const int kind = with_use ? 0 : 1;
  const std::uint32_t generation = memo_ != nullptr ? memo_->generation(names, !with_use) : 0;
  std::mutex absorbing;
  parallel_chunks(slots.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    SlotKeyWriter writer;
    for (std::size_t k = begin; k < end; ++k) {
      const PoolSlot& s = pool_.slots()[slots[k]];
      RememberedSlot* e = memo_ != nullptr ? pool_.remembered(slots[k]) : nullptr;
      if (const std::string* part = e != nullptr ? e->key_part(kind, generation) : nullptr) {
        keys[k] = SlotKeyWriter::key_with(s, with_use, *part);
        continue;
      }
      const std::string& attributes = writer.attributes(s, names);
      if (e != nullptr) e->keep_key_part(kind, generation, attributes);
      keys[k] = SlotKeyWriter::key_with(s, with_use, attributes);
    }
    std::lock_guard lock(absorbing);
    keys_.absorb(std::move(writer));
  });
  return keys;
}

bool SlotClasses::reads(classad::Symbol name) const {
  return keys_.reads(name);
}

int SlotClasses::family_for(std::size_t slot, std::string key) {
  int f = static_cast<int>(families_.size());
  const PoolSlot& s = pool_.slots()[slot];
  if (grouping_) {
    auto [it, fresh] = family_by_key_.emplace(std::move(key), f);
    if (!fresh) return it->second;
  }
  families_.emplace_back();
  live_family_pos_.push_back(-1);
  live_member_.push_back(-1);
  // The family's values, as its first slot has them now (a partitionable
  // slot that gives resources away moves to another family).
  for (classad::Symbol name : match_symbols_) cells_.push_back(SlotValue::of(*s.ad, name));
  with_children_.push_back(s.children.empty() ? 0 : 1);
  signatures_.push_back(s.weight_signature);
  fixed_weights_.push_back(s.partitionable ? std::numeric_limits<double>::quiet_NaN() : s.weight);
  return f;
}

int SlotClasses::column_of(classad::Symbol name) const {
  for (std::size_t i = 0; i < match_symbols_.size(); ++i)
    if (match_symbols_[i] == name) return static_cast<int>(i);
  return -1;
}

std::pair<int, bool> SlotClasses::class_for(std::size_t slot, std::string key) {
  int c = static_cast<int>(classes_.size());
  if (grouping_) {
    auto it = by_key_.emplace(std::move(key), c).first;
    if (it->second != c) return {it->second, false};
  }
  classes_.emplace_back();
  heads_.push_back(kNoHead);
  family_of_.push_back(-1);
  busy_.push_back(pool_.slots()[slot].use == SlotUse::Busy ? 1 : 0);
  live_pos_.push_back(-1);
  return {c, true};
}

void SlotClasses::join_family(int c, std::size_t slot, std::string key) {
  // The class's first slot tells its family: every slot of the class
  // agrees on what the family key reads.
  const int f = family_for(slot, std::move(key));
  family_of_[static_cast<std::size_t>(c)] = f;
  families_[static_cast<std::size_t>(f)].classes.push_back(c);
}

int SlotClasses::place(std::size_t slot) {
  const PoolSlot& s = pool_.slots()[slot];
  const auto [c, fresh] = class_for(slot, grouping_ ? keys_.key(s, name_symbols_, true) : std::string());
  if (fresh) join_family(c, slot, grouping_ ? keys_.key(s, match_symbols_, false) : std::string());
  Class& cls = classes_[static_cast<std::size_t>(c)];
  cls.members.insert(slot);
  heads_[static_cast<std::size_t>(c)] = *cls.members.begin();
  if (live_pos_[static_cast<std::size_t>(c)] < 0) set_live(c, true);
  return c;
}

void SlotClasses::set_live(int c, bool live) {
  // Swap-remove keeps the live lists O(1) to update. `pos` is indexed by
  // item - `from`.
  auto update = [](std::vector<int>& list, std::vector<int>& pos, int item, bool in, int from = 0) {
    auto at = [&](int i) -> int& {
      const auto k = static_cast<std::size_t>(i - from);
      if (pos.size() <= k) pos.resize(k + 1, -1);
      return pos[k];
    };
    if (in) {
      at(item) = static_cast<int>(list.size());
      list.push_back(item);
      return;
    }
    const int where = at(item);
    const int last = list.back();
    list[static_cast<std::size_t>(where)] = last;
    at(last) = where;
    list.pop_back();
    at(item) = -1;
  };
  update(live_, live_pos_, c, live);
  if (c >= late_from_) update(late_live_, late_pos_, c, live, late_from_);
  const int f = family_of_[static_cast<std::size_t>(c)];
  Family& fam = families_[static_cast<std::size_t>(f)];
  fam.live += live ? 1 : -1;
  int& member = live_member_[static_cast<std::size_t>(f)];
  if (live && member < 0) {
    member = c;
  } else if (!live && member == c) {
    member = -1;
    for (int m : fam.classes)
      if (live_pos_[static_cast<std::size_t>(m)] >= 0) {
        member = m;
        break;
      }
  }
  if (live && fam.live == 1) update(live_families_, live_family_pos_, f, true);
  if (!live && fam.live == 0) update(live_families_, live_family_pos_, f, false);
}

void SlotClasses::take(std::size_t slot) {
  const int c = class_of_[slot];
  if (c < 0) return;
  Class& cls = classes_[static_cast<std::size_t>(c)];
  cls.members.erase(slot);
  heads_[static_cast<std::size_t>(c)] = cls.members.empty() ? kNoHead : *cls.members.begin();
  class_of_[slot] = -1;
  if (cls.members.empty()) set_live(c, false);
}

int SlotClasses::reclassify(std::size_t slot) {
  take(slot);
  class_of_[slot] = place(slot);
  return class_of_[slot];
}

}  // namespace cara::negotiation
