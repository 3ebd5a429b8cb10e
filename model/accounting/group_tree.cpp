#include "model/accounting/group_tree.h"

#include <algorithm>

#include "model/accounting/accountant_config.h"
#include "model/common/text.h"
#include "model/config/config.h"

namespace cara::accounting {
namespace {

Result<std::optional<double>> optional_real(const config::Config& config, const std::string& knob) {
  if (!config.defined(knob)) return std::optional<double>();
  auto v = config.real(knob);
  if (!v) return Error{v.error()};
  return std::optional<double>(*v);
}

Result<bool> flag(const config::Config& config, const std::string& knob, bool fallback) {
  if (!config.defined(knob)) return fallback;
  return config.boolean(knob);
}

}  // namespace

Result<GroupTree> GroupTree::from_config(const config::Config& config) {
  GroupTree t;
  auto oversub = config.boolean("NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION");
  if (!oversub) return Error{oversub.error()};
  t.allow_oversubscription_ = *oversub;
  auto surplus = flag(config, "GROUP_ACCEPT_SURPLUS", false);
  if (!surplus) return Error{surplus.error()};
  auto regroup = flag(config, "GROUP_AUTOREGROUP", false);
  if (!regroup) return Error{regroup.error()};
  GroupNode root;
  root.name = kNoGroup;
  root.accept_surplus = *surplus;
  root.autoregroup = *regroup;
  t.nodes_.push_back(root);
  auto names = config.list("GROUP_NAMES");
  if (!names) return Error{names.error()};
  // Parents before children, whatever order GROUP_NAMES lists them in.
  std::vector<std::string> sorted = *names;
  std::stable_sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
    return std::count(a.begin(), a.end(), '.') < std::count(b.begin(), b.end(), '.');
  });
  for (const std::string& name : sorted) {
    if (t.index_of(name) >= 0) return Error{"GROUP_NAMES lists " + name + " twice"};
    GroupNode n;
    n.name = name;
    const std::size_t dot = name.rfind('.');
    n.parent = dot == std::string::npos ? 0 : t.index_of(name.substr(0, dot));
    if (n.parent < 0)
      return Error{"GROUP_NAMES lists " + name + " but not its parent group " + name.substr(0, dot)};
    auto sq = optional_real(config, "GROUP_QUOTA_" + name);
    if (!sq) return Error{sq.error()};
    auto dq = optional_real(config, "GROUP_QUOTA_DYNAMIC_" + name);
    if (!dq) return Error{dq.error()};
    if (*sq && **sq < 0) return Error{"GROUP_QUOTA_" + name + " must not be negative"};
    if (*dq && (**dq < 0 || **dq > 1))
      return Error{"GROUP_QUOTA_DYNAMIC_" + name + " must be a fraction between 0 and 1"};
    if (*sq && *dq)
      t.warnings_.push_back("both GROUP_QUOTA_" + name + " and GROUP_QUOTA_DYNAMIC_" + name +
                            " are set; the static quota is used");
    n.static_quota = *sq;
    if (!*sq) n.dynamic_quota = *dq;
    if (!*sq && !*dq) n.static_quota = 0;  // HTCondor: a group without a quota has none
    auto s = flag(config, "GROUP_ACCEPT_SURPLUS_" + name, *surplus);
    if (!s) return Error{s.error()};
    n.accept_surplus = *s;
    auto r = flag(config, "GROUP_AUTOREGROUP_" + name, *regroup);
    if (!r) return Error{r.error()};
    n.autoregroup = *r;
    auto lend = optional_real(config, "GROUP_LENDING_LIMIT_" + name);
    if (!lend) return Error{lend.error()};
    if (*lend && **lend < 0) return Error{"GROUP_LENDING_LIMIT_" + name + " must not be negative"};
    n.lending_limit = *lend;
    const int index = static_cast<int>(t.nodes_.size());
    t.nodes_.push_back(std::move(n));
    t.nodes_[static_cast<std::size_t>(t.nodes_.back().parent)].children.push_back(index);
  }
  return t;
}

int GroupTree::index_of(std::string_view name) const {
  const std::string want = to_lower(name);
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (to_lower(nodes_[i].name) == want) return static_cast<int>(i);
  return -1;
}

const GroupNode* GroupTree::find(std::string_view name) const {
  const int i = index_of(name);
  return i < 0 ? nullptr : &nodes_[static_cast<std::size_t>(i)];
}

void GroupTree::assign_quotas(double pool) {
  // A new cycle's quotas: nothing of the last one's shares is left, so a
  // cycle run again (a board's, negotiation/board_cycle.cpp) gives the
  // same figures as the first time.
  for (GroupNode& n : nodes_) n.requested = n.allocated = n.subtree_requested = 0;
  pool_ = pool;
  nodes_[0].configured_quota = pool;
  assign(0, pool);
}

void GroupTree::assign(int index, double quota) {
  GroupNode& node = nodes_[static_cast<std::size_t>(index)];
  node.subtree_quota = quota;
  double statics = 0, fractions = 0;
  for (int c : node.children) {
    const GroupNode& child = nodes_[static_cast<std::size_t>(c)];
    if (child.static_quota) statics += *child.static_quota;
    if (child.dynamic_quota) fractions += *child.dynamic_quota;
  }
  // Static quotas first, scaled down (never up) to what this group has;
  // dynamic fractions share what is left, scaled down when above 1.
  const double static_share = allow_oversubscription_ ? statics : std::min(statics, quota);
  const double static_scale = statics > 0 ? static_share / statics : 0;
  const double dynamic_pool = std::max(0.0, quota - static_share);
  const double dynamic_scale = fractions > 1 ? 1 / fractions : 1;
  double given = 0;
  for (int c : node.children) {
    const GroupNode& child = nodes_[static_cast<std::size_t>(c)];
    const double q = child.static_quota ? *child.static_quota * static_scale
                                        : child.dynamic_quota.value_or(0) * dynamic_scale * dynamic_pool;
    given += q;
    nodes_[static_cast<std::size_t>(c)].configured_quota =
        child.static_quota ? *child.static_quota : child.dynamic_quota.value_or(0) * quota;
    assign(c, q);
  }
  // With oversubscription a group keeps its whole quota for itself, even
  // what its children were given (the thesis's doubling, section 6). The
  // root's implied quota is the pool itself, not a configured one: it
  // keeps only what its children leave, or the thesis's auger and icecube
  // would have been given more than their quotas too.
  GroupNode& self = nodes_[static_cast<std::size_t>(index)];
  self.quota = allow_oversubscription_ && index != 0 ? quota : std::max(0.0, quota - given);
}

bool GroupTree::oversubscribed() const {
  double sum = 0;
  for (const GroupNode& n : nodes_) sum += n.quota;
  return sum > pool_ + 1e-9;
}

std::vector<QuotaRow> GroupTree::quota_report() const {
  std::vector<QuotaRow> rows;
  for (const GroupNode& n : nodes_) {
    QuotaRow r;
    r.name = n.name;
    r.effective_quota = n.quota;
    r.configured_quota = n.configured_quota;
    r.accept_surplus = n.accept_surplus;
    r.subtree_quota = n.subtree_quota;
    r.requested = n.requested;
    r.allocated = n.allocated;
    double below = n.quota;
    for (int c : n.children) below += nodes_[static_cast<std::size_t>(c)].subtree_quota;
    r.oversubscribed = below > n.subtree_quota + 1e-9;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace cara::accounting
