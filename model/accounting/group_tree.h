// The tree of accounting groups and its configured quotas
// (central-manager-configuration, "Group accounting", "hierarchical
// quotas for a group"). GROUP_NAMES are dotted paths under the root
// "<none>", case-insensitive; each may have
//   GROUP_QUOTA_<g>          a static quota (slots, i.e. SlotWeight), or
//   GROUP_QUOTA_DYNAMIC_<g>  a fraction of what the parent has left after
//                            its static children;
//   GROUP_ACCEPT_SURPLUS[_<g>], GROUP_AUTOREGROUP[_<g>],
//   GROUP_LENDING_LIMIT_<g>  (beyond HTCondor: how much of the group's
//                            unused quota others may borrow; unset =
//                            unlimited, HTCondor's behaviour).
// assign_quotas() hands a pool down the tree as HTCondor does: static
// quotas first, scaled down in proportion when they exceed what the parent
// has (never scaled up), unless NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION;
// dynamic fractions share the rest, scaled down when they add up to more
// than 1; a group keeps for its own submitters what its children do not
// take.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::accounting {

struct GroupNode {
  std::string name;  // as configured ("<none>" for the root)
  int parent = -1;
  std::vector<int> children;
  std::optional<double> static_quota;
  std::optional<double> dynamic_quota;  // fraction of the parent's
  bool accept_surplus = false;
  bool autoregroup = false;
  std::optional<double> lending_limit;
  // From assign_quotas():
  double subtree_quota = 0;  // what the group and its subgroups may use together
  double config_quota = 0;   // what is left for the group's own submitters
};

class GroupTree {
 public:
  static Result<GroupTree> from_config(const config::Config& config);

  const std::vector<GroupNode>& nodes() const { return nodes_; }
  const GroupNode& root() const { return nodes_[0]; }
  // The node of `name` (case-insensitive; "<none>" is the root), or null.
  const GroupNode* find(std::string_view name) const;
  int index_of(std::string_view name) const;  // -1 when absent
  bool allow_oversubscription() const { return allow_oversubscription_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  // Hands `pool` (the pool's total SlotWeight) down the tree.
  void assign_quotas(double pool);
  // True when the subtree quotas of the root's children add up to more
  // than the pool (possible only with oversubscription): condor_userprio
  // -quotas flags it.
  bool oversubscribed() const;

 private:
  void assign(int node, double quota);

  std::vector<GroupNode> nodes_;  // [0] is the root
  bool allow_oversubscription_ = false;
  std::vector<std::string> warnings_;
  double pool_ = 0;
};

}  // namespace cara::accounting
