#include "model/negotiation/carved_weight.h"

#include "model/classad/references.h"
#include "model/classad/symbol.h"
#include "model/classad/unparse.h"
#include "model/common/text.h"

namespace cara::negotiation {
namespace {

// The resources a match to a partitionable slot sets in the dynamic slot
// it carves (slot_assessment.cpp, match_weight).
bool carved_resource(std::string_view name, const PoolSlot& s) {
  if (s.consumption_policy) {
    for (const auto& [resource, expr] : s.consumptions())
      if (classad::iequals(resource, name)) return true;
    return false;
  }
  return classad::iequals(name, "Cpus") || classad::iequals(name, "Memory") || classad::iequals(name, "Disk");
}

}  // namespace

void read_consumption(PoolSlot& s, const classad::ClassAd& ad) {
  PoolSlot::ConsumptionExprs exprs;
  std::vector<classad::Symbol> keyed;
  for (const classad::Attribute& a : ad.attributes()) {
    if (!is_consumption_attribute(a.name)) continue;
    const std::string_view resource = a.name.substr(11);
    keyed.push_back(a.symbol);
    keyed.push_back(classad::intern(resource));
    if (a.expr) exprs.emplace_back(std::string(resource), a.expr);
  }
  s.consumption_exprs =
      exprs.empty() ? nullptr : std::make_shared<const PoolSlot::ConsumptionExprs>(std::move(exprs));
  s.consumption_keyed =
      keyed.empty() ? nullptr : std::make_shared<const std::vector<classad::Symbol>>(std::move(keyed));
}

void classify_carved_weight(PoolSlot& s) {
  const classad::Attribute* w = s.ad->find("SlotWeight");
  if (w == nullptr || !w->expr) {
    s.carved_weight = PoolSlot::CarvedWeight::Resource;  // slot_weight falls back to Cpus
    s.weight_resource = "Cpus";
    return;
  }
  classad::References refs;
  classad::collect_references(*w->expr, nullptr, refs);  // every name as the expression spells it
  for (const classad::NameSet* names : {&refs.internal, &refs.external})
    for (const std::string& name : *names)
      if (!carved_resource(name, s)) return;  // reads more of the slot: a copy
  const std::string text = classad::unparse(*w->expr);
  if (refs.internal.empty() && refs.external.size() == 1 && classad::iequals(text, *refs.external.begin())) {
    s.carved_weight = PoolSlot::CarvedWeight::Resource;
    s.weight_resource = text;
  } else {
    s.carved_weight = PoolSlot::CarvedWeight::Overlay;
  }
}

const std::string& WeightSignatures::text(const classad::ExprPtr& e) {
  auto it = texts_.find(e.get());
  if (it == texts_.end()) it = texts_.emplace(e.get(), classad::unparse(*e)).first;
  return it->second;
}

// The signature is what decides the weight, as text: the consumption
// policy's expressions and how SlotWeight reads the carved resources.
int WeightSignatures::of(const PoolSlot& s) {
  const std::optional<std::string> key = key_of(s);
  return key ? number(*key, s.consumption_policy) : -1;
}

std::optional<std::string> WeightSignatures::key_of(const PoolSlot& s) {
  if (s.carved_weight == PoolSlot::CarvedWeight::Copy) return std::nullopt;
  // Without a consumption policy a resource the job does not request is
  // the slot's own: only a weight of the carved Cpus (always set) is the
  // job's alone.
  if (!s.consumption_policy &&
      !(s.carved_weight == PoolSlot::CarvedWeight::Resource && classad::iequals(s.weight_resource, "Cpus")))
    return std::nullopt;
  std::string key = s.consumption_policy ? "c" : "n";
  for (const auto& [resource, expr] : s.consumptions()) {
    classad::References refs;
    classad::collect_references(*expr, s.ad, refs);
    if (!refs.internal.empty()) return std::nullopt;  // reads the slot: no signature
    key += to_lower(resource) + '=' + text(expr) + ';';
  }
  key += std::to_string(static_cast<int>(s.carved_weight)) + to_lower(s.weight_resource);
  if (s.carved_weight == PoolSlot::CarvedWeight::Overlay) key += '|' + text(s.ad->find("SlotWeight")->expr);
  return key;
}

int WeightSignatures::number(const std::string& key, bool consumption) {
  // Slots come machine by machine, and a pool has few signatures: most
  // keys are the last one again, told by comparing, not hashing, them.
  if (last_ != nullptr && *last_ == key) return last_number_;
  auto [it, fresh] = numbers_.try_emplace(key, static_cast<int>(numbers_.size()));
  if (fresh) consumption_.push_back(consumption ? 1 : 0);
  last_ = &it->first;
  last_number_ = it->second;
  return it->second;
}

}  // namespace cara::negotiation
