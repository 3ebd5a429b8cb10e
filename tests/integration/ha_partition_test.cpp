// A partition between central managers (issue 22, section 4): each node on
// a host of its own (integration/net_lab.h: its own address in its own
// network namespace), the link between central managers cut while the
// execution and access points still reach every one of them. At most one
// active negotiator per connected part (with three or more central
// managers: only in the part with a majority of HAD_LIST), and one again
// after healing, holding the state of the higher term. Skipped, with the
// reason, where network namespaces cannot be made.
#include <catch2/catch.hpp>

#include "integration/ha_pool.h"

using namespace cara::test;

namespace {

// The lab of `hosts` hosts, or null after saying why there is none here.
std::unique_ptr<NetLab> lab_or_skip(int hosts) {
  if (auto why = NetLab::unavailable()) {
    WARN("skipped: " << *why);
    return nullptr;
  }
  auto lab = std::make_unique<NetLab>(hosts);
  REQUIRE(lab->ok());
  INFO(lab->error());
  return lab;
}

}  // namespace

TEST_CASE("three central managers cut apart: only the majority's side has an active negotiator",
          "[integration][ha][partition]") {
  auto lab = lab_or_skip(5);  // cm1..cm3, ep1, ap
  if (!lab) return;
  HaPool pool(3, "", "", lab.get());
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(await([&] { return pool.had(2, ") is reachable") >= 2; }, 60));
  REQUIRE(pool.job_runs());

  // cm1 (the active one) loses both links; ep1 and ap still reach it.
  const int cm1_heard = pool.had(0, ") is reachable");
  REQUIRE(lab->cut(0, 1));
  REQUIRE(lab->cut(0, 2));
  // cm1 alone is no majority of three: it stands by; cm2, first of the
  // majority's side, is active in a newer term, and cm3 is not.
  REQUIRE(await([&] { return pool.had(0, "standing by in term 1") >= 1; }, 30));
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  CHECK(pool.had(2, "active in term") == 0);
  REQUIRE(await([&] { return pool.shows_active(1, "cm2.pool", 2); }, 30));
  REQUIRE(pool.job_runs());
  // A change of priority in the majority's term.
  REQUIRE(run_process({CARA_BINARY, "userprio", "--config", pool.admin, "-setfactor", "dave@pool", "9"})
              .exit_code == 0);
  // Still one active: cm1 did not come back meanwhile.
  CHECK(pool.had(0, "active in term") == 1);

  // Healed: cm1 hears the others again and goes on standing by; the
  // active one keeps its role (HAD_USE_PRIMARY is false).
  REQUIRE(lab->heal(0, 1));
  REQUIRE(lab->heal(0, 2));
  REQUIRE(await([&] { return pool.had(0, ") is reachable") >= cm1_heard + 2; }, 60));
  CHECK_FALSE(await([&] { return pool.had(0, "active in term") > 1 || pool.had(1, "standing by") > 0; }, 3));
  REQUIRE(pool.job_runs());
  // cm1 holds the state of the higher term: with cm2 gone, whichever of
  // cm1 and cm3 is active has the factor set during the partition.
  pool.kill_cm(1);
  // (cm1's next term of its own above 2 is 4, cm3's is 3.)
  REQUIRE(await([&] { return pool.had(0, "active in term 4") + pool.had(2, "active in term 3") == 1; }, 30));
  REQUIRE(await([&] { return priorities(pool.admin).count("dave@pool") > 0; }, 30));
  CHECK(priorities(pool.admin).at("dave@pool").second == 9);
}

TEST_CASE("two central managers cut apart: each side active, one again after healing, in the newer term",
          "[integration][ha][partition]") {
  auto lab = lab_or_skip(4);  // cm1, cm2, ep1, ap
  if (!lab) return;
  HaPool pool(2, "", "", lab.get());
  REQUIRE(await([&] { return pool.had(0, "active in term 1") == 1; }, 60));
  REQUIRE(pool.job_runs());

  // HTCondor's rule with two: each side is a connected part, and each has
  // its active negotiator; the points, which reach both, follow the newer
  // term, so the older one's matches are refused.
  REQUIRE(lab->cut(0, 1));
  REQUIRE(await([&] { return pool.had(1, "active in term 2") == 1; }, 30));
  CHECK(pool.had(0, "standing by") == 0);
  REQUIRE(await([&] { return pool.shows_active(1, "cm2.pool", 2); }, 30));
  REQUIRE(pool.job_runs());
  REQUIRE(pool.job_runs());

  // Healed: the older term stands by, and one is active again.
  REQUIRE(lab->heal(0, 1));
  REQUIRE(await([&] { return pool.had(0, "standing by in term 2") >= 1; }, 60));
  CHECK(pool.had(1, "standing by") == 0);
  REQUIRE(await([&] { return pool.shows_active(0, "cm2.pool", 2); }, 30));
  CHECK(pool.status(0, {"-negotiator", "-af", "Name"}).out == "cm2.pool\n");
  REQUIRE(pool.job_runs());
}
