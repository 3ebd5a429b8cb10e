// Surplus sharing and the group order (central-manager-configuration,
// "Accounting Groups with Hierarchical Group Quotas": "Surplus slots are
// distributed bottom-up from within the quota tree ... Any node that does
// not accept surplus implements a hard cap on the number of slots that the
// sum of its children use").
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "model/accounting/accountant_config.h"
#include "model/accounting/group_tree.h"
#include "model/common/text.h"

namespace cara::accounting {
namespace {

constexpr double kEpsilon = 1e-9;

struct Claimant {
  int node;  // -1: the parent's own submitters
  double weight, demand, given = 0;
};

// Water-fills `amount` over `claimants` in proportion to their weights
// (equal shares when no claimant has a weight), none beyond its demand.
// Returns what is left.
double water_fill(std::vector<Claimant>& claimants, double amount) {
  for (std::size_t round = 0; round <= claimants.size() && amount > kEpsilon; ++round) {
    double weights = 0;
    std::size_t active = 0;
    for (const Claimant& c : claimants) {
      if (c.demand - c.given > kEpsilon) {
        weights += c.weight;
        ++active;
      }
    }
    if (active == 0) break;
    double handed = 0;
    for (Claimant& c : claimants) {
      if (c.demand - c.given <= kEpsilon) continue;
      const double share = weights > 0 ? amount * c.weight / weights : amount / static_cast<double>(active);
      const double take = std::min(share, c.demand - c.given);
      c.given += take;
      handed += take;
    }
    amount -= handed;
  }
  return amount;
}

}  // namespace

void GroupTree::fairshare(const std::vector<double>& requested) {
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes_[i].requested = i < requested.size() ? std::max(0.0, requested[i]) : 0;
    nodes_[i].allocated = 0;
    nodes_[i].subtree_requested = 0;
  }
  fairshare_node(0);
}

double GroupTree::fairshare_node(int index) {
  GroupNode& n = nodes_[static_cast<std::size_t>(index)];
  n.allocated = std::min(n.requested, n.quota);
  n.subtree_requested = n.requested - n.allocated;
  double surplus = n.quota - n.allocated;
  for (int c : n.children) {
    surplus += fairshare_node(c);
    const GroupNode& child = nodes_[static_cast<std::size_t>(c)];
    if (child.accept_surplus)
      nodes_[static_cast<std::size_t>(index)].subtree_requested += child.subtree_requested;
  }
  surplus = allocate_surplus(index, surplus);
  // GROUP_LENDING_LIMIT_<g>: what the subtree does not use beyond the
  // limit stays unused rather than going to other groups.
  const GroupNode& self = nodes_[static_cast<std::size_t>(index)];
  if (self.lending_limit) surplus = std::min(surplus, *self.lending_limit);
  return surplus;
}

double GroupTree::allocate_surplus(int index, double surplus) {
  if (surplus <= kEpsilon || nodes_[static_cast<std::size_t>(index)].subtree_requested <= kEpsilon)
    return surplus;
  const GroupNode& n = nodes_[static_cast<std::size_t>(index)];
  // The group's own submitters share in what reaches the group: surplus
  // from outside reaches it only when it accepts surplus, and surplus from
  // its own subgroups stays under its cap either way.
  std::vector<Claimant> claimants;
  const double own_demand = n.requested - n.allocated;
  if (own_demand > kEpsilon) claimants.push_back({-1, n.quota, own_demand});
  for (int c : n.children) {
    const GroupNode& child = nodes_[static_cast<std::size_t>(c)];
    if (child.accept_surplus && child.subtree_requested > kEpsilon)
      claimants.push_back({c, child.subtree_quota, child.subtree_requested});
  }
  double left = water_fill(claimants, surplus);
  double handed = 0;
  for (const Claimant& c : claimants) {
    if (c.given <= 0) continue;
    handed += c.given;
    if (c.node < 0) {
      nodes_[static_cast<std::size_t>(index)].allocated += c.given;
    } else {
      left += allocate_surplus(c.node, c.given);
    }
  }
  nodes_[static_cast<std::size_t>(index)].subtree_requested -= handed;
  return left;
}

std::vector<int> GroupTree::negotiation_order(const std::vector<double>& sort_keys) const {
  std::vector<int> order(nodes_.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](int i) {
    const double k =
        static_cast<std::size_t>(i) < sort_keys.size() ? sort_keys[static_cast<std::size_t>(i)] : 0;
    return std::isfinite(k) ? k : std::numeric_limits<double>::max();
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double ka = key(a), kb = key(b);
    if (ka != kb) return ka < kb;
    const GroupNode& na = nodes_[static_cast<std::size_t>(a)];
    const GroupNode& nb = nodes_[static_cast<std::size_t>(b)];
    // Equally starved groups (none uses anything yet): the larger quota
    // first, so that the spec's strict-priority recipe (a quota of one
    // million) holds from the first cycle; then by name.
    if (na.quota != nb.quota) return na.quota > nb.quota;
    return to_lower(na.name) < to_lower(nb.name);
  });
  return order;
}

}  // namespace cara::accounting
