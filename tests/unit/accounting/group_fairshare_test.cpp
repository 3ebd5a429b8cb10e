// Surplus between groups, lending limits, the group order and the
// userprio -quotas rows (central-manager-configuration, "Accounting Groups
// with Hierarchical Group Quotas").
#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <sstream>

#include "model/accounting/group_tree.h"
#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::accounting;

namespace {

GroupTree tree(const std::string& text) {
  auto c = config::config_from_text(text, {"NEGOTIATOR", ""}, std::make_shared<config::MemoryHost>());
  REQUIRE(c);
  auto t = GroupTree::from_config(*c);
  REQUIRE(t);
  return std::move(*t);
}

// Demands by group name; the rest ask for nothing.
std::vector<double> demands(const GroupTree& t, std::initializer_list<std::pair<const char*, double>> d) {
  std::vector<double> out(t.nodes().size(), 0);
  for (auto [name, v] : d) out[static_cast<std::size_t>(t.index_of(name))] = v;
  return out;
}

double allocated(const GroupTree& t, const char* g) {
  return t.find(g)->allocated;
}

const std::string kPhysics =
    "GROUP_NAMES = group_physics, group_physics.hep, group_physics.lep, group_chemistry\n"
    "GROUP_QUOTA_group_physics     =   20\n"
    "GROUP_QUOTA_group_physics.hep =   15\n"
    "GROUP_QUOTA_group_physics.lep =    5\n"
    "GROUP_QUOTA_group_chemistry   =   10\n"
    "GROUP_ACCEPT_SURPLUS = false\n"
    "GROUP_ACCEPT_SURPLUS_group_physics.lep = true\n"
    "GROUP_ACCEPT_SURPLUS_group_physics.hep = true\n";

}  // namespace

TEST_CASE("surplus example: hep and lep may exceed 15 and 5, never 20 together",
          "[accounting][groups][spec]") {
  GroupTree t = tree(kPhysics + "GROUP_ACCEPT_SURPLUS_group_physics = false\n");
  t.assign_quotas(30);
  t.fairshare(demands(t, {{"group_physics.hep", 60}, {"group_physics.lep", 60}}));
  CHECK(allocated(t, "group_physics.hep") == Approx(15));
  CHECK(allocated(t, "group_physics.lep") == Approx(5));
  // lep idle: hep takes lep's unused 5, and no more, though chemistry's
  // 10 are unused too.
  t.fairshare(demands(t, {{"group_physics.hep", 60}}));
  CHECK(allocated(t, "group_physics.hep") == Approx(20));
  t.fairshare(demands(t, {{"group_physics.lep", 60}, {"group_physics.hep", 2}}));
  CHECK(allocated(t, "group_physics.lep") == Approx(18));
  CHECK(allocated(t, "group_physics.hep") == Approx(2));
  CHECK(allocated(t, "group_chemistry") == Approx(0));
  // Demand below quota is all that is allocated.
  t.fairshare(demands(t, {{"group_chemistry", 4}}));
  CHECK(allocated(t, "group_chemistry") == Approx(4));

  // "If the group_physics had GROUP_ACCEPT_SURPLUS set to True, then
  // either group_physics.lep and group_physics.hep would not be limited by
  // quota": chemistry's unused 10 reach hep.
  GroupTree open = tree(kPhysics + "GROUP_ACCEPT_SURPLUS_group_physics = true\n");
  open.assign_quotas(30);
  open.fairshare(demands(open, {{"group_physics.hep", 60}}));
  CHECK(allocated(open, "group_physics.hep") == Approx(30));
  // A group that does not accept surplus gets no more than its quota.
  open.fairshare(demands(open, {{"group_chemistry", 60}}));
  CHECK(allocated(open, "group_chemistry") == Approx(10));
}

TEST_CASE("surplus goes to accepting peers in proportion to their quotas", "[accounting][groups]") {
  GroupTree t = tree(
      "GROUP_NAMES = a, b, c\nGROUP_QUOTA_a = 10\nGROUP_QUOTA_b = 20\nGROUP_QUOTA_c = 30\n"
      "GROUP_ACCEPT_SURPLUS = true\n");
  t.assign_quotas(60);
  t.fairshare(demands(t, {{"a", 100}, {"b", 100}}));  // c's 30 shared 1:2
  CHECK(allocated(t, "a") == Approx(20));
  CHECK(allocated(t, "b") == Approx(40));
  t.fairshare(demands(t, {{"a", 12}, {"b", 100}}));  // a's share is capped by its demand
  CHECK(allocated(t, "a") == Approx(12));
  CHECK(allocated(t, "b") == Approx(48));
}

TEST_CASE("GROUP_LENDING_LIMIT caps what a group's unused quota lends out", "[accounting][groups]") {
  GroupTree t = tree(
      "GROUP_NAMES = a, b\nGROUP_QUOTA_a = 10\nGROUP_QUOTA_b = 10\n"
      "GROUP_ACCEPT_SURPLUS = true\nGROUP_LENDING_LIMIT_a = 3\n");
  t.assign_quotas(20);
  t.fairshare(demands(t, {{"b", 100}}));
  CHECK(allocated(t, "b") == Approx(13));  // 10 + at most 3 of a's
  t.fairshare(demands(t, {{"a", 100}}));   // b lends without limit
  CHECK(allocated(t, "a") == Approx(20));
  GroupTree unset =
      tree("GROUP_NAMES = a, b\nGROUP_QUOTA_a = 10\nGROUP_QUOTA_b = 10\nGROUP_ACCEPT_SURPLUS = true\n");
  unset.assign_quotas(20);
  unset.fairshare(demands(unset, {{"b", 100}}));
  CHECK(allocated(unset, "b") == Approx(20));  // unset: HTCondor's behaviour
}

TEST_CASE("the thesis's groups: doubling only with oversubscription", "[accounting][groups][thesis]") {
  std::ifstream in(std::string(CARA_FIXTURES) + "/thesis/central_manager.config");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  for (bool over : {false, true}) {
    GroupTree t = tree(text.str() + (over ? "\nNEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION = True\n" : ""));
    t.assign_quotas(24);
    t.fairshare(demands(
        t,
        {{"group_auger", 1250}, {"group_icecube", 1250}, {"group_cms.cms", 2501}, {"group_cms.dcms", 5001}}));
    CHECK(allocated(t, "group_auger") == Approx(3));
    CHECK(allocated(t, "group_icecube") == Approx(3));
    // group_cms has no submitters of its own: with oversubscription it
    // keeps 18 besides its children's quotas and hands them to them as
    // surplus, 12 and 24 "allocated slots" as the thesis reports.
    CHECK(allocated(t, "group_cms.cms") == Approx(over ? 12 : 6));
    CHECK(allocated(t, "group_cms.dcms") == Approx(over ? 24 : 12));
    CHECK(t.oversubscribed() == over);
    const auto rows = t.quota_report();
    const auto cms =
        std::find_if(rows.begin(), rows.end(), [](const QuotaRow& r) { return r.name == "group_cms"; });
    REQUIRE(cms != rows.end());
    CHECK(cms->oversubscribed == over);  // 18 own + 12 + 6 below a subtree quota of 18
    CHECK(cms->subtree_quota == Approx(18));
    CHECK(cms->configured_quota == Approx(18));
  }
}

TEST_CASE("userprio -quotas rows: effective, configured, surplus, subtree, requested",
          "[accounting][groups][spec]") {
  GroupTree t = tree(kPhysics);
  t.assign_quotas(30);
  t.fairshare(demands(t, {{"group_physics.hep", 60}, {"group_physics.lep", 60}}));
  const auto rows = t.quota_report();
  auto row = [&](const std::string& name) {
    for (const QuotaRow& r : rows)
      if (r.name == name) return r;
    FAIL("no row " << name);
    return QuotaRow{};
  };
  // The spec's condor_userprio -quotas example.
  CHECK(row("group_physics.hep").effective_quota == Approx(15));
  CHECK(row("group_physics.hep").configured_quota == Approx(15));
  CHECK(row("group_physics.hep").subtree_quota == Approx(15));
  CHECK(row("group_physics.hep").requested == Approx(60));
  CHECK(row("group_physics.hep").accept_surplus);
  CHECK(row("group_physics.lep").effective_quota == Approx(5));
  CHECK_FALSE(row("group_chemistry").accept_surplus);
  CHECK_FALSE(row("<none>").oversubscribed);

  GroupTree dynamic = tree("GROUP_NAMES = a\nGROUP_QUOTA_DYNAMIC_a = 0.5\n");
  dynamic.assign_quotas(30);
  CHECK(dynamic.quota_report()[1].configured_quota == Approx(15));
}

TEST_CASE("groups negotiate most starved first, <none> last", "[accounting][groups][spec]") {
  GroupTree t = tree(
      "GROUP_NAMES = big, small, mid\nGROUP_QUOTA_big = 12\nGROUP_QUOTA_small = 3\nGROUP_QUOTA_mid = 6\n");
  t.assign_quotas(24);
  // Sort keys as GROUP_SORT_EXPR's default gives them: usage / quota, and
  // 3.4e38 for <none>.
  std::vector<double> keys(t.nodes().size(), 0);
  keys[0] = 3.4e38;
  keys[static_cast<std::size_t>(t.index_of("big"))] = 6.0 / 12;
  keys[static_cast<std::size_t>(t.index_of("mid"))] = 0;
  keys[static_cast<std::size_t>(t.index_of("small"))] = 0;
  const auto order = t.negotiation_order(keys);
  REQUIRE(order.size() == 4);
  CHECK(t.nodes()[static_cast<std::size_t>(order[0])].name == "mid");  // tie: the larger quota first
  CHECK(t.nodes()[static_cast<std::size_t>(order[1])].name == "small");
  CHECK(t.nodes()[static_cast<std::size_t>(order[2])].name == "big");
  CHECK(t.nodes()[static_cast<std::size_t>(order[3])].name == "<none>");
}

TEST_CASE("a new cycle's quotas keep nothing of the last cycle's shares", "[accounting][groups]") {
  // A board's cycle may run twice on one tree (negotiation/board_cycle.cpp):
  // the second run must see the tree as the first did.
  GroupTree fresh = tree(kPhysics);
  fresh.assign_quotas(30);
  GroupTree used = tree(kPhysics);
  used.assign_quotas(30);
  used.fairshare(demands(used, {{"group_physics.hep", 60}, {"group_chemistry", 4}}));
  REQUIRE(allocated(used, "group_physics.hep") > 0);
  used.assign_quotas(30);
  for (std::size_t i = 0; i < used.nodes().size(); ++i) {
    INFO(used.nodes()[i].name);
    CHECK(used.nodes()[i].allocated == 0);
    CHECK(used.nodes()[i].requested == 0);
    CHECK(used.nodes()[i].subtree_requested == 0);
    CHECK(used.nodes()[i].quota == fresh.nodes()[i].quota);
  }
  CHECK(used.quota_report().size() == fresh.quota_report().size());
  for (std::size_t i = 0; i < used.quota_report().size(); ++i)
    CHECK(used.quota_report()[i].allocated == fresh.quota_report()[i].allocated);
}
