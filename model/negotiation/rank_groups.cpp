#include "model/negotiation/rank_groups.h"

#include "model/classad/eval.h"
#include "model/classad/references.h"
#include "model/classad/unparse.h"
#include "model/negotiation/ad_layer.h"

namespace cara::negotiation {

int RankGroups::group_of(std::size_t s) {
  static const classad::ClassAd kNoJob;
  const PoolSlot& slot = pool_.slots()[s];
  if (slot.rank_constant) return -1;
  const classad::Attribute* rank = slot.ad->find("Rank");
  if (rank == nullptr || !rank->expr || rank->is_literal()) return -1;
  classad::References refs;
  classad::collect_references(*rank->expr, slot.ad, refs);
  if (!refs.internal.empty()) return -1;
  const classad::Value unread = classad::evaluate(*rank->expr, slot.ad, &kNoJob, env_);
  if (!unread.is_number() && !unread.is_bool()) return -1;
  // Reading nothing of the slot, Rank spelled alike is one value for a
  // job whichever slot of the group asks.
  auto [it, fresh] = by_text_.emplace(classad::unparse(*rank->expr), static_cast<int>(groups_.size()));
  if (fresh) {
    Group g{rank->expr, s, unread, {}};
    for (const std::string& n : refs.external) g.names.push_back(n);
    groups_.push_back(std::move(g));
  }
  return it->second;
}

std::optional<classad::Value> RankGroups::value_for(int group, const classad::ClassAd& job) const {
  const Group& g = groups_[static_cast<std::size_t>(group)];
  for (const std::string& n : g.names) {
    const classad::Attribute* a = job.find(n);
    if (a != nullptr && (!a->expr || !a->is_literal())) return std::nullopt;
  }
  return classad::evaluate(*g.rank, pool_.slots()[g.slot].ad, &job, env_);
}

classad::ClassAd with_rank(const classad::ClassAd& ad, const classad::Value& value) {
  classad::ClassAd out = ad_layer(ad);
  if (value.is_bool()) {
    out.set("Rank", value.as_bool());
  } else if (value.is_int()) {
    out.set("Rank", value.as_int());
  } else {
    out.set("Rank", value.as_real());
  }
  return out;
}

}  // namespace cara::negotiation
