#include "model/negotiation/slot_classes.h"

#include <algorithm>
#include <limits>
#include <mutex>
#include <utility>

#include "model/common/parallel.h"
#include "model/negotiation/slot_memo.h"

namespace cara::negotiation {
namespace {

template <typename... Vectors>
void reserve_each(std::size_t n, Vectors&... vectors) {
  (vectors.reserve(n), ...);
}

}  // namespace

SlotClasses::SlotClasses(const SlotPool& pool, classad::NameSet names, classad::NameSet match_names,
                         bool grouping, Threads threads, SlotMemo* memo)
    : pool_(pool), memo_(memo), keys_(memo != nullptr ? memo->writer() : own_keys_), grouping_(grouping) {
  if (memo != nullptr) {
    const ClassKeyNames& key_names = memo->key_names(names, match_names);
    name_symbols_ = key_names.names;
    match_symbols_ = key_names.match;
  } else {
    ClassKeyNames key_names = class_key_names(std::move(names), std::move(match_names));
    name_symbols_ = std::move(key_names.names);
    match_symbols_ = std::move(key_names.match);
  }
  const auto& slots = pool.slots();
  class_of_.assign(slots.size(), -1);
  // The offered slots' class keys, written on the cycle's threads; then,
  // in slot order, the classes they make.
  // A board's bundle slots are each of a class of their own among the
  // untakeable ones (slot_board.h): kept, not keyed.
  std::vector<std::size_t> offered;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (!slots[i].offered) continue;
    if (slots[i].bundle_slot && slots[i].untakeable)
      untakeable_.push_back(i);
    else
      offered.push_back(i);
  }
  // Room for as many classes as slots, made once (a cycle builds its
  // classes anew; a simulated pool's cycle of a few dozen slots grew each
  // of these vectors from empty). Up to a bound: a pool of alike machines
  // makes a few hundred classes of 100,000 slots, and the rest grow as
  // they must.
  const std::size_t room = std::min<std::size_t>(offered.size(), 4096);
  reserve_each(room, classes_, heads_, family_of_, busy_, live_pos_, live_);
  if (grouping_) by_key_.reserve(room);
  std::vector<std::uint32_t> numbers;
  std::vector<std::string> keys = write_keys(offered, 0, threads, &numbers);
  if (memo_ != nullptr && grouping_) {
    start_parts_[0].assign(slots.size(), kNoPart);
    for (std::size_t k = 0; k < offered.size(); ++k) start_parts_[0][offered[k]] = numbers[k];
  }
  std::unordered_map<std::string, int> untakeable_keys;
  std::vector<std::size_t> firsts;  // by class: the slot that made it
  for (std::size_t k = 0; k < offered.size(); ++k) {
    const std::size_t i = offered[k];
    if (!slots[i].untakeable) {
      const auto [c, fresh] = class_for(i, std::move(keys[k]));
      if (fresh) firsts.push_back(i);
      class_of_[i] = c;
      Class& cls = classes_[static_cast<std::size_t>(c)];
      cls.slots.push_back(i);  // in index order: offered is
      ++cls.left;
    } else if (!grouping_ || untakeable_keys.try_emplace(std::move(keys[k]), 0).second) {
      untakeable_.push_back(i);
    }
  }
  // Then their families (keyed on the threads too), in class order: the
  // numbers and live lists place() would have made slot by slot.
  std::vector<std::string> family_keys = write_keys(firsts, 1, threads, &numbers);
  // And for as many families as classes.
  reserve_each(firsts.size(), families_, live_families_, live_family_pos_, live_member_, family_keys_,
               with_children_, signatures_, fixed_weights_);
  cells_.reserve(firsts.size() * match_symbols_.size());
  if (grouping_) family_by_key_.reserve(firsts.size());
  for (std::size_t c = 0; c < firsts.size(); ++c) {
    join_family(static_cast<int>(c), firsts[c], std::move(family_keys[c]), numbers[c]);
    heads_[c] = classes_[c].slots.front();
    set_live(static_cast<int>(c), true);
  }
  if (memo_ != nullptr && grouping_) {
    // A class's slots agree on its family key's part.
    start_parts_[1].assign(slots.size(), kNoPart);
    for (std::size_t i = 0; i < slots.size(); ++i)
      if (const int c = class_of_[i]; c >= 0) start_parts_[1][i] = numbers[static_cast<std::size_t>(c)];
  }
  late_from_ = static_cast<int>(classes_.size());
}

std::vector<std::string> SlotClasses::write_keys(const std::vector<std::size_t>& slots, int kind,
                                                 Threads threads, std::vector<std::uint32_t>* numbers) {
  std::vector<std::string> keys(slots.size());
  if (numbers != nullptr) numbers->assign(slots.size(), kNoPart);
  if (!grouping_) return keys;  // every slot a class and a family of its own
  // With a memo, the class key's part (kind 0) or the family key's (1) is
  // the memo's number of it for the names of this generation.
  if (memo_ != nullptr)
    generation_[kind] = memo_->generation(kind == 0 ? name_symbols_ : match_symbols_, kind);
  std::mutex absorbing;
  parallel_chunks(slots.size(), threads.count, threads.min_slots, [&](std::size_t begin, std::size_t end) {
    SlotKeyWriter writer;
    for (std::size_t k = begin; k < end; ++k)
      keys[k] = key_of(writer, slots[k], kind, true, numbers != nullptr ? &(*numbers)[k] : nullptr);
    std::lock_guard lock(absorbing);
    keys_.absorb(std::move(writer));
  });
  return keys;
}

std::string SlotClasses::key_of(SlotKeyWriter& writer, std::size_t slot, int kind, bool remembered,
                                std::uint32_t* number_out) {
  const PoolSlot& s = pool_.slots()[slot];
  const bool with_use = kind == 0;
  const std::vector<classad::Symbol>& names = kind == 0 ? name_symbols_ : match_symbols_;
  if (memo_ == nullptr) return SlotKeyWriter::key_with(s, with_use, writer.attributes(s, names));
  auto key = [&](std::uint32_t number) {
    return SlotKeyWriter::key_with(s, with_use,
                                   std::string_view(reinterpret_cast<const char*>(&number), sizeof number));
  };
  RememberedSlot* e = remembered ? pool_.remembered(slot) : nullptr;
  const std::uint32_t generation = generation_[kind];
  if (e != nullptr) {
    if (const std::int64_t number = e->key_part(kind, generation); number >= 0) {
      if (number_out != nullptr) *number_out = static_cast<std::uint32_t>(number);
      return key(static_cast<std::uint32_t>(number));
    }
  }
  const std::uint32_t number = memo_->part_number(kind, generation, writer.attributes(s, names));
  if (e != nullptr) e->keep_key_part(kind, generation, number);
  if (number_out != nullptr) *number_out = number;
  return key(number);
}

const std::vector<classad::Symbol>& SlotClasses::resources_of(const PoolSlot& s) {
  const PoolSlot::ConsumptionExprs* exprs = &s.consumptions();
  auto it = resources_.find(exprs);
  if (it != resources_.end()) return it->second;
  std::vector<classad::Symbol> names;
  for (const auto& [resource, expr] : *exprs) names.push_back(classad::intern(resource));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return resources_.emplace(exprs, std::move(names)).first->second;
}

std::string SlotClasses::rekey(std::size_t slot, int kind) {
  if (!grouping_) return {};
  const std::vector<std::uint32_t>& start = start_parts_[kind];
  if (slot < start.size() && start[slot] != kNoPart) {
    // The part of the start, then what consume() changed since (the
    // weight is in every key): a marker makes it longer than any number
    // alone, so it equals no key written whole.
    const PoolSlot& s = pool_.slots()[slot];
    std::string part(reinterpret_cast<const char*>(&start[slot]), sizeof start[slot]);
    part += '+';
    if (SlotKeyWriter::append_inline_values(*s.ad, resources_of(s), part))
      return SlotKeyWriter::key_with(s, kind == 0, part);
  }
  return key_of(keys_, slot, kind, false);
}

bool SlotClasses::reads(classad::Symbol name) const {
  return keys_.reads(name);
}

int SlotClasses::family_for(std::size_t slot, std::string key, std::uint32_t part) {
  int f = static_cast<int>(families_.size());
  const PoolSlot& s = pool_.slots()[slot];
  const std::string* kept_key = nullptr;
  if (grouping_) {
    auto [it, fresh] = family_by_key_.try_emplace(std::move(key), f);
    if (!fresh) return it->second;
    // The map's nodes stay where they are.
    if (memo_ != nullptr) kept_key = &it->first;
  }
  family_keys_.push_back(kept_key);
  families_.emplace_back();
  live_family_pos_.push_back(-1);
  live_member_.push_back(-1);
  // The family's values, as its first slot has them now (a partitionable
  // slot that gives resources away moves to another family), or as the
  // memo kept them for its key.
  const bool keepable = memo_ != nullptr && grouping_ && part != kNoPart;
  const std::vector<SlotValue>* kept = keepable ? memo_->family_cells(generation_[1], part) : nullptr;
  if (kept != nullptr) {
    cells_.insert(cells_.end(), kept->begin(), kept->end());
  } else {
    const std::size_t from = cells_.size();
    for (classad::Symbol name : match_symbols_) cells_.push_back(SlotValue::of(*s.ad, name));
    if (keepable)
      memo_->keep_family_cells(
          generation_[1], part,
          std::vector<SlotValue>(cells_.begin() + static_cast<std::ptrdiff_t>(from), cells_.end()));
  }
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
    auto it = by_key_.try_emplace(std::move(key), c).first;
    if (it->second != c) return {it->second, false};
  }
  classes_.emplace_back();
  heads_.push_back(kNoHead);
  family_of_.push_back(-1);
  busy_.push_back(pool_.slots()[slot].use == SlotUse::Busy ? 1 : 0);
  live_pos_.push_back(-1);
  return {c, true};
}

void SlotClasses::join_family(int c, std::size_t slot, std::string key, std::uint32_t part) {
  // The class's first slot tells its family: every slot of the class
  // agrees on what the family key reads.
  const int f = family_for(slot, std::move(key), part);
  family_of_[static_cast<std::size_t>(c)] = f;
  families_[static_cast<std::size_t>(f)].classes.push_back(c);
}

int SlotClasses::place(std::size_t slot) {
  // The slot's ad changed this cycle (an owned copy): keyed from it, not
  // from what the memo remembers of the input ad.
  const auto [c, fresh] = class_for(slot, rekey(slot, 0));
  if (fresh) join_family(c, slot, rekey(slot, 1), kNoPart);
  class_of_[slot] = c;
  join_class(c, slot);
  if (live_pos_[static_cast<std::size_t>(c)] < 0) set_live(c, true);
  return c;
}

void SlotClasses::join_class(int c, std::size_t slot) {
  Class& cls = classes_[static_cast<std::size_t>(c)];
  // A slot that left the class and comes back is still in its vector.
  auto at = std::lower_bound(cls.slots.begin(), cls.slots.end(), slot);
  if (at == cls.slots.end() || *at != slot) at = cls.slots.insert(at, slot);
  const auto pos = static_cast<std::size_t>(at - cls.slots.begin());
  std::size_t& head = heads_[static_cast<std::size_t>(c)];
  // Before the first slot left (or none was left): the first now.
  if (cls.left == 0 || pos <= cls.first) cls.first = pos;
  ++cls.left;
  head = cls.slots[cls.first];
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
  class_of_[slot] = -1;
  --cls.left;
  std::size_t& head = heads_[static_cast<std::size_t>(c)];
  if (cls.left == 0) {
    head = kNoHead;
    set_live(c, false);
    return;
  }
  if (head != slot) return;
  while (class_of_[cls.slots[cls.first]] != c) ++cls.first;
  head = cls.slots[cls.first];
}

int SlotClasses::reclassify(std::size_t slot) {
  take(slot);
  class_of_[slot] = place(slot);
  return class_of_[slot];
}

}  // namespace cara::negotiation
