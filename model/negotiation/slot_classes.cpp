#include "model/negotiation/slot_classes.h"

#include <cstdio>

#include "model/accounting/accountant_config.h"
#include "model/classad/unparse.h"

namespace cara::negotiation {
namespace {

std::string number_text(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

}  // namespace

SlotClasses::SlotClasses(const SlotPool& pool, classad::NameSet names, bool grouping)
    : pool_(pool), names_(std::move(names)), grouping_(grouping) {
  for (const char* always : {"Requirements", "Rank", "Cpus", "Memory", "Disk", "PartitionableSlot"})
    names_.insert(always);
  const auto& slots = pool.slots();
  class_of_.assign(slots.size(), -1);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const PoolSlot& s = slots[i];
    if (s.offered) class_of_[i] = place(i);
  }
}

const std::vector<std::string>& SlotClasses::names_in(const classad::ExprPtr& expr) {
  auto it = refs_.find(expr.get());
  if (it != refs_.end()) return it->second.second;
  classad::References refs;
  classad::collect_references(*expr, nullptr, refs);
  std::vector<std::string> names(refs.internal.begin(), refs.internal.end());
  names.insert(names.end(), refs.external.begin(), refs.external.end());
  return refs_.emplace(expr.get(), std::make_pair(expr, std::move(names))).first->second.second;
}

const std::string& SlotClasses::text_of(const classad::ExprPtr& expr) {
  auto it = texts_.find(expr.get());
  if (it != texts_.end()) return it->second.second;
  return texts_.emplace(expr.get(), std::make_pair(expr, classad::unparse(*expr))).first->second.second;
}

std::string SlotClasses::key(const PoolSlot& s) {
  std::string k;
  k += static_cast<char>('0' + static_cast<int>(s.use));
  k += s.retiring ? 'r' : '-';
  k += s.consumption_policy ? 'c' : '-';
  k += number_text(s.weight);
  k += '|';
  if (s.use == SlotUse::Busy) {
    k += accounting::lower(s.remote_submitter);
    k += '|' + number_text(s.current_rank) + '|' + number_text(s.remote_eup) + '|';
  }
  // The attributes read, followed through the ad; `seen` keeps the order
  // canonical (NameSet sorts case-insensitively).
  classad::NameSet seen;
  std::vector<std::string> pending(names_.begin(), names_.end());
  const classad::ClassAd& ad = *s.ad;
  for (const classad::Attribute& a : ad.attributes()) {
    // Consumption<R> expressions decide how a partitionable slot splits.
    if (is_consumption_attribute(a.name)) pending.emplace_back(a.name);
  }
  while (!pending.empty()) {
    std::string name = std::move(pending.back());
    pending.pop_back();
    if (!seen.insert(name).second) continue;
    const classad::Attribute* a = ad.find(name);
    if (a == nullptr || !a->expr) continue;
    for (const std::string& ref : names_in(a->expr))
      if (seen.find(ref) == seen.end()) pending.push_back(ref);
  }
  for (const std::string& name : seen) {
    const classad::Attribute* a = ad.find(name);
    if (a == nullptr || !a->expr) continue;
    k += accounting::lower(name);
    k += '=';
    k += text_of(a->expr);
    k += '\n';
  }
  return k;
}

int SlotClasses::place(std::size_t slot) {
  int c = -1;
  if (grouping_) {
    std::string k = key(pool_.slots()[slot]);
    auto [it, fresh] = by_key_.emplace(std::move(k), static_cast<int>(classes_.size()));
    c = it->second;
    if (fresh) classes_.emplace_back();
  } else {
    c = static_cast<int>(classes_.size());
    classes_.emplace_back();
  }
  Class& cls = classes_[static_cast<std::size_t>(c)];
  cls.members.insert(slot);
  if (live_pos_.size() < classes_.size()) live_pos_.resize(classes_.size(), -1);
  if (live_pos_[static_cast<std::size_t>(c)] < 0) {
    live_pos_[static_cast<std::size_t>(c)] = static_cast<int>(live_.size());
    live_.push_back(c);
  }
  return c;
}

void SlotClasses::take(std::size_t slot) {
  const int c = class_of_[slot];
  if (c < 0) return;
  Class& cls = classes_[static_cast<std::size_t>(c)];
  cls.members.erase(slot);
  class_of_[slot] = -1;
  if (!cls.members.empty()) return;
  // Swap the emptied class out of the live list.
  const int pos = live_pos_[static_cast<std::size_t>(c)];
  const int last = live_.back();
  live_[static_cast<std::size_t>(pos)] = last;
  live_pos_[static_cast<std::size_t>(last)] = pos;
  live_.pop_back();
  live_pos_[static_cast<std::size_t>(c)] = -1;
}

int SlotClasses::reclassify(std::size_t slot) {
  take(slot);
  class_of_[slot] = place(slot);
  return class_of_[slot];
}

}  // namespace cara::negotiation
