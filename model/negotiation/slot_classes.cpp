#include "model/negotiation/slot_classes.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "model/accounting/accountant_config.h"
#include "model/classad/unparse.h"
#include "model/common/text.h"

namespace cara::negotiation {
namespace {

// The shortest text that reads back as `d`: one number, one text.
std::string number_text(double d) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, d).ptr;
  return std::string(buf, end);
}

}  // namespace

SlotClasses::SlotClasses(const SlotPool& pool, classad::NameSet names, classad::NameSet match_names,
                         bool grouping)
    : pool_(pool), grouping_(grouping) {
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
  std::unordered_map<std::string, int> untakeable_keys;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const PoolSlot& s = slots[i];
    if (!s.offered) continue;
    if (!s.untakeable) {
      class_of_[i] = place(i);
    } else if (!grouping_ || untakeable_keys.emplace(key(s, name_symbols_, true), 0).second) {
      untakeable_.push_back(i);
    }
  }
  late_from_ = static_cast<int>(classes_.size());
}

const std::vector<classad::Symbol>& SlotClasses::names_in(const classad::ExprPtr& expr) {
  auto it = refs_.find(expr.get());
  if (it != refs_.end()) return it->second.second;
  classad::References refs;
  classad::collect_references(*expr, nullptr, refs);
  std::vector<classad::Symbol> names;
  for (const classad::NameSet* set : {&refs.internal, &refs.external})
    for (const std::string& n : *set) names.push_back(classad::intern(n));
  return refs_.emplace(expr.get(), std::make_pair(expr, std::move(names))).first->second.second;
}

bool SlotClasses::reads(classad::Symbol name) const {
  for (const auto& [tree, read] : refs_)
    if (std::find(read.second.begin(), read.second.end(), name) != read.second.end()) return true;
  return false;
}

const std::string& SlotClasses::text_of(const classad::ExprPtr& expr) {
  auto it = texts_.find(expr.get());
  if (it != texts_.end()) return it->second.second;
  return texts_.emplace(expr.get(), std::make_pair(expr, classad::unparse(*expr))).first->second.second;
}

std::string SlotClasses::key(const PoolSlot& s, const std::vector<classad::Symbol>& names, bool with_use) {
  std::string k;
  // A partitionable slot whose dynamic slots it may preempt is alike to
  // no other: what it offers depends on them.
  if (!s.children.empty()) k += "p" + std::to_string(s.input) + "|";
  k += s.consumption_policy ? 'c' : '-';
  k += number_text(s.weight);
  k += '|';
  if (with_use) {
    k += static_cast<char>('0' + static_cast<int>(s.use));
    k += s.retiring ? 'r' : '-';
    if (s.use == SlotUse::Busy) {
      k += s.remote_key;
      k += '|' + number_text(s.current_rank) + '|' + number_text(s.remote_eup);
    }
    k += '|';
  }
  // The attributes read, followed through the ad; sorted by symbol, a
  // canonical order (symbols ignore case).
  std::vector<classad::Symbol>& seen = seen_;
  std::vector<classad::Symbol>& pending = pending_;
  seen.clear();
  pending.assign(names.begin(), names.end());
  // Names seen are marked with this call's number, by symbol: a slot ad
  // reads some sixty names, which a search of `seen` would compare with
  // each other thousands of times.
  if (++mark_ == 0) {
    marks_.assign(marks_.size(), 0);
    mark_ = 1;
  }
  auto marked = [&](classad::Symbol name) { return name < marks_.size() && marks_[name] == mark_; };
  const classad::ClassAd& ad = *s.ad;
  if (s.partitionable) {
    // Consumption<R> expressions decide how a partitionable slot splits,
    // and R how much it has to split: a family's slots fit a job alike.
    for (const classad::Attribute& a : ad.attributes())
      if (is_consumption_attribute(a.name)) {
        pending.push_back(a.symbol);
        pending.push_back(classad::intern(a.name.substr(11)));
      }
  }
  while (!pending.empty()) {
    const classad::Symbol name = pending.back();
    pending.pop_back();
    if (marked(name)) continue;
    if (marks_.size() <= name) marks_.resize(name + 1, 0);
    marks_[name] = mark_;
    seen.push_back(name);
    const classad::Attribute* a = ad.find(name);
    if (a == nullptr || !a->expr || a->is_literal()) continue;
    for (classad::Symbol ref : names_in(a->expr))
      if (!marked(ref)) pending.push_back(ref);
  }
  std::sort(seen.begin(), seen.end());
  for (classad::Symbol name : seen) {
    const classad::Attribute* a = ad.find(name);
    if (a == nullptr || !a->expr) continue;
    k.append(reinterpret_cast<const char*>(&name), sizeof name);
    k += '=';
    if (a->is_literal()) {
      classad::unparse(k, a->literal());
    } else {
      k += text_of(a->expr);
    }
    k += '\n';
  }
  return k;
}

int SlotClasses::family_for(std::size_t slot) {
  int f = static_cast<int>(families_.size());
  const PoolSlot& s = pool_.slots()[slot];
  if (grouping_) {
    auto [it, fresh] = family_by_key_.emplace(key(s, match_symbols_, false), f);
    if (!fresh) return it->second;
  }
  families_.emplace_back();
  live_family_pos_.push_back(-1);
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

int SlotClasses::place(std::size_t slot) {
  int c = static_cast<int>(classes_.size());
  bool fresh = true;
  if (grouping_) {
    auto it = by_key_.emplace(key(pool_.slots()[slot], name_symbols_, true), c).first;
    fresh = it->second == c;
    c = it->second;
  }
  if (fresh) {
    // The class's first slot tells its family: every slot of the class
    // agrees on what the family key reads.
    const int f = family_for(slot);
    classes_.emplace_back();
    heads_.push_back(kNoHead);
    family_of_.push_back(f);
    busy_.push_back(pool_.slots()[slot].use == SlotUse::Busy ? 1 : 0);
    families_[static_cast<std::size_t>(f)].classes.push_back(c);
    live_pos_.push_back(-1);
  }
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
