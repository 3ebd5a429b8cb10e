// The accountant's state across a restart (issue 21): an accountant
// restored from what another committed continues exactly as the other
// would have, factors, floors, ceilings and the claims being charged
// included; a state that would charge twice or charge no one is refused.
#include <catch2/catch.hpp>
#include <memory>

#include "model/accounting/accountant.h"
#include "unit/accounting/support.h"

using namespace cara;
using cara::accounting_test::config_of;
using namespace cara::accounting;

namespace {

constexpr std::int64_t kT0 = 1700000000;
constexpr std::int64_t kHour = 3600;

void same(const Accountant& a, const Accountant& b) {
  REQUIRE(a.records().size() == b.records().size());
  for (const auto& [key, r] : a.records()) {
    INFO(key);
    const CustomerRecord* o = b.find(key);
    REQUIRE(o);
    CHECK(o->name == r.name);
    CHECK(o->is_group == r.is_group);
    CHECK(o->priority == r.priority);  // exactly: the same doubles
    CHECK(o->factor == r.factor);
    CHECK(o->resources_used == r.resources_used);
    CHECK(o->accumulated_usage == r.accumulated_usage);
    CHECK(o->weighted_accumulated_usage == r.weighted_accumulated_usage);
    CHECK(o->begin_usage_time == r.begin_usage_time);
    CHECK(o->last_usage_time == r.last_usage_time);
    CHECK(o->uncharged == r.uncharged);
  }
  CHECK(a.claims().size() == b.claims().size());
  CHECK(a.last_update() == b.last_update());
}

}  // namespace

TEST_CASE("a restored accountant goes on exactly as the one whose state it was", "[accounting][durability]") {
  const std::string conf = "GROUP_NAMES = group_cms\nGROUP_QUOTA_group_cms = 10\nPRIORITY_HALFLIFE = 3600\n";
  Accountant before(config_of(conf), kT0);
  REQUIRE(before.begin_claim({"slot1@ep", "group_cms.alice@physik.rwth-aachen.de", 2, kT0 + 10, {"db:2"}},
                             kT0 + 10));
  REQUIRE(before.begin_claim({"slot2@ep", "bob@physik.rwth-aachen.de", 1, kT0 + 20, {}}, kT0 + 20));
  before.update_priorities(kT0 + kHour);
  REQUIRE(before.set_factor("bob@physik.rwth-aachen.de", 1000));
  REQUIRE(before.set_floor("group_cms", 2, 600, kT0 + kHour));
  REQUIRE(before.set_ceiling("bob@physik.rwth-aachen.de", 5, std::nullopt, kT0 + kHour));
  REQUIRE(before.end_claim("slot2@ep", kT0 + kHour + 30));  // owed, not yet charged

  auto after = Accountant::restore(config_of(conf), before.state());
  REQUIRE(after);
  same(before, *after);
  CHECK(after->concurrency_in_use("db") == 2);
  CHECK(after->floor("group_cms", kT0 + kHour + 1) == 2);
  CHECK_FALSE(after->floor("group_cms", kT0 + kHour + 600));  // its duration lapses as before
  CHECK(after->ceiling("bob@physik.rwth-aachen.de", kT0 + 9 * kHour) == 5);
  // The same updates give the same priorities, to the last bit.
  before.update_priorities(kT0 + 3 * kHour);
  after->update_priorities(kT0 + 3 * kHour);
  same(before, *after);
  REQUIRE(before.end_claim("slot1@ep", kT0 + 4 * kHour));
  REQUIRE(after->end_claim("slot1@ep", kT0 + 4 * kHour));
  before.update_priorities(kT0 + 5 * kHour);
  after->update_priorities(kT0 + 5 * kHour);
  same(before, *after);
}

TEST_CASE("a state that would charge twice or charge no one is not restored", "[accounting][durability]") {
  Accountant a(config_of(""), kT0);
  REQUIRE(a.begin_claim({"slot1@ep", "alice@physik.rwth-aachen.de", 1, kT0, {}}, kT0));
  SECTION("a record twice, in another case") {
    AccountantState s = a.state();
    s.records.push_back(s.records[0]);
    s.records.back().name = "ALICE@physik.rwth-aachen.de";
    auto r = Accountant::restore(config_of(""), s);
    REQUIRE_FALSE(r);
    CHECK(r.error() == "accountant record alice@physik.rwth-aachen.de is stored twice");
  }
  SECTION("a claim twice") {
    AccountantState s = a.state();
    s.claims.push_back(s.claims[0]);
    auto r = Accountant::restore(config_of(""), s);
    REQUIRE_FALSE(r);
    CHECK(r.error() == "the claim on slot1@ep is stored twice");
  }
  SECTION("a claim of no record") {
    AccountantState s = a.state();
    s.records.clear();
    auto r = Accountant::restore(config_of(""), s);
    REQUIRE_FALSE(r);
    CHECK(r.error() == "the claim on slot1@ep is charged to alice@physik.rwth-aachen.de, who has no record");
  }
}
