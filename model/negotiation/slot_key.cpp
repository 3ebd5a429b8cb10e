#include "model/negotiation/slot_key.h"

#include <algorithm>

#include "model/classad/references.h"
#include "model/classad/unparse.h"

namespace cara::negotiation {

ClassKeyNames class_key_names(classad::NameSet names, classad::NameSet match_names) {
  // SlotWeight: a family's slots weigh alike for any job.
  for (const char* always :
       {"Requirements", "Rank", "Cpus", "Memory", "Disk", "PartitionableSlot", "SlotWeight"})
    match_names.insert(always);
  // A class must refine its family.
  names.insert(match_names.begin(), match_names.end());
  ClassKeyNames out;
  for (const std::string& n : names) out.names.push_back(classad::intern(n));
  for (const std::string& n : match_names) out.match.push_back(classad::intern(n));
  return out;
}

const std::vector<classad::Symbol>& SlotKeyWriter::names_in(const classad::ExprPtr& expr) {
  auto it = refs_.find(expr.get());
  if (it != refs_.end()) return it->second.second;
  classad::References refs;
  classad::collect_references(*expr, nullptr, refs);
  std::vector<classad::Symbol> names;
  for (const classad::NameSet* set : {&refs.internal, &refs.external})
    for (const std::string& n : *set) names.push_back(classad::intern(n));
  return refs_.emplace(expr.get(), std::make_pair(expr, std::move(names))).first->second.second;
}

bool SlotKeyWriter::reads(classad::Symbol name) const {
  return reads_any([name](classad::Symbol s) { return s == name; });
}

bool SlotKeyWriter::reads_any(const std::function<bool(classad::Symbol)>& pred) const {
  for (const auto& [tree, read] : refs_)
    for (classad::Symbol name : read.second)
      if (pred(name)) return true;
  return false;
}

void SlotKeyWriter::absorb(SlotKeyWriter&& other) {
  if (refs_.empty() && texts_.empty()) {
    refs_.swap(other.refs_);
    texts_.swap(other.texts_);
    return;
  }
  refs_.merge(other.refs_);
  texts_.merge(other.texts_);
}

const std::string& SlotKeyWriter::text_of(const classad::ExprPtr& expr) {
  auto it = texts_.find(expr.get());
  if (it != texts_.end()) return it->second.second;
  return texts_.emplace(expr.get(), std::make_pair(expr, classad::unparse(*expr))).first->second.second;
}

std::string SlotKeyWriter::key_with(const PoolSlot& s, bool with_use, std::string_view attributes) {
  // Numbers as their bytes, strings after their length: each field has a
  // fixed size or says its size, so two keys are equal exactly when every
  // field is (a key per slot and cycle: no text conversions).
  // Sized exactly: a key holding the memo's number for its attributes
  // fits in the string itself, with no allocation.
  const bool busy = with_use && s.use == SlotUse::Busy;
  std::string k;
  k.reserve(
      (s.children.empty() ? 0 : 1 + sizeof s.input) + 1 + sizeof s.weight + (with_use ? 2 : 0) +
      (busy ? sizeof(std::uint32_t) + s.remote_key.size() + sizeof s.current_rank + sizeof s.remote_eup : 0) +
      attributes.size());
  auto raw = [&k](const auto& v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
  // A partitionable slot whose dynamic slots it may preempt is alike to
  // no other: what it offers depends on them.
  if (!s.children.empty()) {
    k += 'p';
    raw(s.input);
  }
  k += s.consumption_policy ? 'c' : '-';
  raw(s.weight);
  if (with_use) {
    k += static_cast<char>('0' + static_cast<int>(s.use));
    k += s.retiring ? 'r' : '-';
    if (busy) {
      raw(static_cast<std::uint32_t>(s.remote_key.size()));
      k += s.remote_key;
      raw(s.current_rank);
      raw(s.remote_eup);
    }
  }
  k += attributes;
  return k;
}

namespace {

// An inline value as a key holds it: a kind byte, then its bytes.
void append_inline(const classad::ClassAd::IndexSlot& entry, std::string& k) {
  const auto tag = static_cast<std::uint8_t>(entry.tag);
  k += static_cast<char>(tag);
  if (tag >= classad::ClassAd::IndexSlot::String0) {
    k.append(entry.v.s, tag - classad::ClassAd::IndexSlot::String0);
  } else if (tag >= classad::ClassAd::IndexSlot::Boolean) {
    k.append(reinterpret_cast<const char*>(&entry.v), sizeof entry.v.i);  // its bytes, whichever type
  }
}

}  // namespace

bool SlotKeyWriter::append_inline_values(const classad::ClassAd& ad,
                                         const std::vector<classad::Symbol>& names, std::string& out) {
  const std::size_t was = out.size();
  for (const classad::Symbol name : names) {
    out.append(reinterpret_cast<const char*>(&name), sizeof name);
    const classad::ClassAd::IndexSlot* entry = ad.find_slot(name);
    if (entry == nullptr) {
      out += '\xff';  // absent: no tag has this value
    } else if (entry->has_inline_value()) {
      append_inline(*entry, out);
    } else {
      out.resize(was);
      return false;
    }
  }
  return true;
}

const std::string& SlotKeyWriter::attributes(const PoolSlot& s, const std::vector<classad::Symbol>& names) {
  // Written into a buffer that keeps its capacity: a key of some 65
  // attributes grown by appends was reallocated about seven times, which
  // cost more than writing it.
  std::string& k = buffer_;
  k.clear();
  // The attributes read, followed through the ad; sorted by symbol, a
  // canonical order (symbols ignore case).
  // Each name with its entry in the ad's lookup index (null: not there),
  // found once. The entry holds a scalar or short string literal itself,
  // so most names are keyed without reading the attribute or its tree
  // (two cache misses each in a pool of 30,000 slot ads).
  std::vector<std::pair<classad::Symbol, const classad::ClassAd::IndexSlot*>>& seen = seen_;
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
  if (s.partitionable && s.consumption_keyed) {
    // Consumption<R> expressions decide how a partitionable slot splits,
    // and R how much it has to split: a family's slots fit a job alike.
    pending.insert(pending.end(), s.consumption_keyed->begin(), s.consumption_keyed->end());
  }
  while (!pending.empty()) {
    const classad::Symbol name = pending.back();
    pending.pop_back();
    if (marked(name)) continue;
    if (marks_.size() <= name) marks_.resize(name + 1, 0);
    marks_[name] = mark_;
    const classad::ClassAd::IndexSlot* entry = ad.find_slot(name);
    seen.emplace_back(name, entry);
    if (entry == nullptr || entry->has_inline_value()) continue;
    const classad::Attribute& a = ad.at(*entry);
    if (!a.expr || a.is_literal()) continue;
    for (classad::Symbol ref : names_in(a.expr))
      if (!marked(ref)) pending.push_back(ref);
  }
  std::sort(seen.begin(), seen.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  // Each value in a form that tells every two apart: a kind byte, then the
  // inline value's bytes, or the text's length and the text.
  for (const auto& [name, entry] : seen) {
    if (entry == nullptr) continue;
    k.append(reinterpret_cast<const char*>(&name), sizeof name);
    if (entry->has_inline_value()) {
      append_inline(*entry, k);
      continue;
    }
    const classad::Attribute& a = ad.at(*entry);
    if (!a.expr) continue;
    k += static_cast<char>(classad::ClassAd::IndexSlot::None);
    std::string_view text;
    std::string literal;
    if (a.is_literal()) {
      classad::unparse(literal, a.literal());
      text = literal;
    } else {
      text = text_of(a.expr);
    }
    const auto size = static_cast<std::uint32_t>(text.size());
    k.append(reinterpret_cast<const char*>(&size), sizeof size);
    k += text;
  }
  return k;
}

}  // namespace cara::negotiation
