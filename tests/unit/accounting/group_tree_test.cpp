// Hierarchical group quotas (central-manager-configuration, "hierarchical
// quotas for a group"): the spec's examples verbatim.
#include "model/accounting/group_tree.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <memory>
#include <sstream>

#include "model/config/config.h"
#include "model/config/config_host.h"

using namespace cara;
using namespace cara::accounting;

namespace {

Result<GroupTree> try_tree(const std::string& text) {
  auto c = config::config_from_text(text, {"NEGOTIATOR", ""}, std::make_shared<config::MemoryHost>());
  if (!c) return Error{c.error()};
  return GroupTree::from_config(*c);
}

GroupTree tree(const std::string& text) {
  auto t = try_tree(text);
  if (!t) FAIL(t.error());
  return std::move(*t);
}

double quota(const GroupTree& t, const std::string& g) {
  return t.find(g)->quota;
}

}  // namespace

TEST_CASE("static quotas: 30 slots 20/10, 15 slots 10/5, 60 slots still 20/10",
          "[accounting][groups][spec]") {
  GroupTree t = tree(
      "GROUP_NAMES = group_physics, group_chemistry\n"
      "GROUP_QUOTA_group_physics =   20\n"
      "GROUP_QUOTA_group_chemistry = 10\n");
  t.assign_quotas(30);
  CHECK(quota(t, "group_physics") == Approx(20));
  CHECK(quota(t, "group_chemistry") == Approx(10));
  CHECK(quota(t, "<none>") == Approx(0));
  t.assign_quotas(15);  // half the pool lost: scaled down in proportion
  CHECK(quota(t, "group_physics") == Approx(10));
  CHECK(quota(t, "group_chemistry") == Approx(5));
  t.assign_quotas(60);  // never scaled up
  CHECK(quota(t, "group_physics") == Approx(20));
  CHECK(quota(t, "GROUP_CHEMISTRY") == Approx(10));  // names are case-insensitive
  CHECK(quota(t, "<none>") == Approx(30));
  CHECK_FALSE(t.oversubscribed());
}

TEST_CASE("dynamic quotas 0.33/0.66, and the hep/lep subgroups", "[accounting][groups][spec]") {
  GroupTree flat = tree(
      "GROUP_NAMES = group_physics, group_chemistry\n"
      "GROUP_QUOTA_DYNAMIC_group_chemistry = 0.33\n"
      "GROUP_QUOTA_DYNAMIC_group_physics =   0.66\n");
  flat.assign_quotas(100);
  CHECK(quota(flat, "group_chemistry") == Approx(33));
  CHECK(quota(flat, "group_physics") == Approx(66));
  CHECK(quota(flat, "<none>") == Approx(1));

  const std::string sub =
      "GROUP_NAMES = group_physics, group_physics.hep, group_physics.lep, group_chemistry\n"
      "GROUP_QUOTA_DYNAMIC_group_chemistry   =   0.33334\n"
      "GROUP_QUOTA_DYNAMIC_group_physics     =   0.66667\n"
      "GROUP_QUOTA_DYNAMIC_group_physics.hep =   0.75\n"
      "GROUP_QUOTA_DYNAMIC_group_physics.lep =   0.25\n";
  GroupTree t = tree(sub);
  t.assign_quotas(30);  // "the same 15 machines as specified in the static quota example"
  CHECK(quota(t, "group_physics.hep") == Approx(15).margin(0.001));
  CHECK(quota(t, "group_physics.lep") == Approx(5).margin(0.001));
  CHECK(quota(t, "group_chemistry") == Approx(10).margin(0.001));
  CHECK(t.find("group_physics")->subtree_quota == Approx(20).margin(0.001));
  CHECK(quota(t, "group_physics") == Approx(0).margin(0.001));  // its children take it all
  t.assign_quotas(60);                                          // dynamic quotas follow the pool
  CHECK(quota(t, "group_physics.hep") == Approx(30).margin(0.001));

  // Fractions adding up to more than 1 are scaled down to 1.
  GroupTree over = tree("GROUP_NAMES = a, b\nGROUP_QUOTA_DYNAMIC_a = 0.9\nGROUP_QUOTA_DYNAMIC_b = 0.6\n");
  over.assign_quotas(30);
  CHECK(quota(over, "a") == Approx(18));
  CHECK(quota(over, "b") == Approx(12));
}

TEST_CASE("static subgroup quotas, and dynamic siblings share what static ones leave",
          "[accounting][groups]") {
  GroupTree t = tree(
      "GROUP_NAMES = group_physics, group_physics.hep, group_physics.lep, group_chemistry\n"
      "GROUP_QUOTA_group_physics     =   20\n"
      "GROUP_QUOTA_group_physics.hep =   15\n"
      "GROUP_QUOTA_group_physics.lep =    5\n"
      "GROUP_QUOTA_group_chemistry   =   10\n");
  t.assign_quotas(30);
  CHECK(quota(t, "group_physics.hep") == Approx(15));
  CHECK(quota(t, "group_physics.lep") == Approx(5));
  GroupTree mixed = tree("GROUP_NAMES = s, d\nGROUP_QUOTA_s = 10\nGROUP_QUOTA_DYNAMIC_d = 0.5\n");
  mixed.assign_quotas(30);
  CHECK(quota(mixed, "s") == Approx(10));
  CHECK(quota(mixed, "d") == Approx(10));  // half of the 20 left
}

TEST_CASE("NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION keeps quotas above the pool",
          "[accounting][groups][spec]") {
  // The spec's strict-priority recipe: a quota of one million.
  const std::string strict =
      "GROUP_NAMES = group_physics, group_chemistry\n"
      "GROUP_QUOTA_group_physics = 1000000\n"
      "GROUP_QUOTA_group_chemistry = 100000\n";
  GroupTree scaled = tree(strict);
  scaled.assign_quotas(30);
  CHECK(quota(scaled, "group_physics") == Approx(30.0 * 1000000 / 1100000));
  CHECK_FALSE(scaled.oversubscribed());
  GroupTree over = tree(strict + "NEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION = True\n");
  over.assign_quotas(30);
  CHECK(quota(over, "group_physics") == Approx(1000000));
  CHECK(quota(over, "group_chemistry") == Approx(100000));
  CHECK(over.oversubscribed());  // userprio -quotas flags it
}

TEST_CASE("the thesis's groups: a parent keeps its whole quota only with oversubscription",
          "[accounting][groups][thesis]") {
  std::ifstream in(std::string(CARA_FIXTURES) + "/thesis/central_manager.config");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  GroupTree t = tree(text.str());
  t.assign_quotas(24);
  CHECK(quota(t, "group_auger") == Approx(3));
  CHECK(quota(t, "group_icecube") == Approx(3));
  CHECK(quota(t, "group_cms.dcms") == Approx(12));
  CHECK(quota(t, "group_cms.cms") == Approx(6));
  CHECK(quota(t, "group_cms") == Approx(0));
  CHECK(t.find("group_cms")->accept_surplus);  // GROUP_ACCEPT_SURPLUS = True
  CHECK_FALSE(t.find("group_cms")->autoregroup);
  CHECK_FALSE(t.oversubscribed());
  // With oversubscription group_cms keeps its 18 besides its children's
  // 12 and 6: the doubling the thesis observed with HTCondor 8.6.
  GroupTree over = tree(text.str() + "\nNEGOTIATOR_ALLOW_QUOTA_OVERSUBSCRIPTION = True\n");
  over.assign_quotas(24);
  CHECK(quota(over, "group_cms") == Approx(18));
  CHECK(quota(over, "group_cms.dcms") == Approx(12));
}

TEST_CASE("group configuration errors say what is wrong", "[accounting][groups][errors]") {
  CHECK_THAT(try_tree("GROUP_NAMES = a.b\n").error(),
             Catch::Contains("lists a.b but not its parent group a"));
  CHECK_THAT(try_tree("GROUP_NAMES = a, A\n").error(), Catch::Contains("lists A twice"));
  CHECK_THAT(try_tree("GROUP_NAMES = a\nGROUP_QUOTA_DYNAMIC_a = 1.5\n").error(),
             Catch::Contains("GROUP_QUOTA_DYNAMIC_a must be a fraction between 0 and 1"));
  CHECK_THAT(try_tree("GROUP_NAMES = a\nGROUP_QUOTA_a = -3\n").error(),
             Catch::Contains("must not be negative"));
  GroupTree both = tree("GROUP_NAMES = a\nGROUP_QUOTA_a = 3\nGROUP_QUOTA_DYNAMIC_a = 0.5\n");
  REQUIRE(both.warnings().size() == 1);
  CHECK_THAT(both.warnings()[0], Catch::Contains("the static quota is used"));
  GroupTree lend = tree("GROUP_NAMES = a\nGROUP_LENDING_LIMIT_a = 4\nGROUP_ACCEPT_SURPLUS_a = true\n");
  CHECK(lend.find("a")->lending_limit == 4.0);
  CHECK(lend.find("a")->accept_surplus);
  CHECK_FALSE(lend.root().accept_surplus);
}
