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
  double configured_quota = 0;  // as configured: the static number, or the fraction of the parent's
  double subtree_quota = 0;     // what the group and its subgroups may use together
  double quota = 0;             // the effective quota of the group's own submitters
  // From fairshare():
  double requested = 0;          // the own submitters' demand (SlotWeight of running and idle jobs)
  double allocated = 0;          // what they may hold this cycle: quota, or less, plus surplus
  double subtree_requested = 0;  // demand of the subtree not yet met, where surplus may go
};

// One row of `condor_userprio -quotas`.
struct QuotaRow {
  std::string name;
  double effective_quota = 0;
  double configured_quota = 0;
  bool accept_surplus = false;
  double subtree_quota = 0;
  double requested = 0;
  double allocated = 0;
  // The group's own quota and its subgroups' subtree quotas add up to
  // more than its subtree quota (only with oversubscription).
  bool oversubscribed = false;
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

  // Hands `pool` (the pool's total SlotWeight) down the tree, and forgets
  // what fairshare() gave before: every figure of the tree is then a
  // function of the configuration, the pool and what follows.
  void assign_quotas(double pool);
  // True when the groups' effective quotas add up to more than the pool
  // (possible only with oversubscription): condor_userprio -quotas flags it.
  bool oversubscribed() const;

  // Shares the quotas out to the groups' demands (group_fairshare.cpp):
  // `requested` holds each node's own demand, by index. Each group is
  // first allocated min(requested, quota); unused quota is surplus,
  // handed bottom-up: to the accepting siblings and the parent's own
  // submitters in proportion to their quotas, capped by their demand, and
  // what they cannot use goes up a level, recursively. A group that does
  // not accept surplus takes none from outside its subtree; a group with a
  // lending limit passes at most that much of its subtree's surplus up.
  // Call after assign_quotas().
  void fairshare(const std::vector<double>& requested);

  // The order groups negotiate in: by `sort_key` (GROUP_SORT_EXPR
  // evaluated over a group ad by the negotiation cycle), smallest first;
  // ties go to the larger quota, then by name.
  std::vector<int> negotiation_order(const std::vector<double>& sort_keys) const;

  std::vector<QuotaRow> quota_report() const;

 private:
  void assign(int node, double quota);
  double fairshare_node(int node);
  double allocate_surplus(int node, double surplus);

  std::vector<GroupNode> nodes_;  // [0] is the root
  bool allow_oversubscription_ = false;
  std::vector<std::string> warnings_;
  double pool_ = 0;
};

}  // namespace cara::accounting
