// The accountant's store (persistence/accountant_store.h): a committed
// state loads back field for field, what the accountant no longer has is
// erased, a store never committed is empty (not an error), and a damaged
// record stops the load, naming the store and key.
#include "persistence/accountant_store.h"

#include <catch2/catch.hpp>
#include <memory>
#include <optional>

#include "tests/support/scratch.h"
#include "unit/accounting/support.h"

using namespace cara;
using cara::accounting_test::config_of;
using namespace cara::accounting;
using cara::persistence::AccountantStore;
using cara::scratch::TempDir;

namespace {

constexpr std::int64_t kT0 = 1700000000;

AccountantState load(const std::string& path) {
  auto s = AccountantStore::open(path);
  REQUIRE(s);
  auto state = s->load();
  REQUIRE(state);
  REQUIRE(*state);
  return std::move(**state);
}

}  // namespace

TEST_CASE("a committed accountant loads back field for field", "[persistence][accountant]") {
  TempDir dir("accountant-store");
  const std::string path = dir / "spool/accountant.db";
  Accountant a(config_of("GROUP_NAMES = group_cms\n"), kT0);
  REQUIRE(a.begin_claim({"slot1@ep", "group_cms.alice@physik.rwth-aachen.de", 2.5, kT0 + 5, {"db:2", "tape"}},
                        kT0 + 5));
  a.update_priorities(kT0 + 100);
  REQUIRE(a.set_factor("bob@physik.rwth-aachen.de", 1000));
  REQUIRE(a.set_floor("group_cms", 3, 600, kT0 + 100));
  REQUIRE(a.set_ceiling("bob@physik.rwth-aachen.de", 7, std::nullopt, kT0 + 100));
  {
    auto s = AccountantStore::open(path);
    REQUIRE(s);
    auto none = s->load();
    REQUIRE(none);
    CHECK_FALSE(*none);  // never committed: a fresh accountant
    REQUIRE(s->commit(a.state()));
    CHECK(s->commits() == 1);
  }
  auto restored = Accountant::restore(config_of("GROUP_NAMES = group_cms\n"), load(path));
  REQUIRE(restored);
  CHECK(restored->last_update() == kT0 + 100);
  REQUIRE(restored->records().size() == a.records().size());
  for (const auto& [key, r] : a.records()) {
    INFO(key);
    const CustomerRecord* o = restored->find(key);
    REQUIRE(o);
    CHECK(o->name == r.name);
    CHECK(o->is_group == r.is_group);
    CHECK(o->priority == r.priority);
    CHECK(o->factor == r.factor);
    CHECK(o->resources_used == r.resources_used);
    CHECK(o->weighted_resources_used == r.weighted_resources_used);
    CHECK(o->accumulated_usage == r.accumulated_usage);
    CHECK(o->weighted_accumulated_usage == r.weighted_accumulated_usage);
    CHECK(o->begin_usage_time == r.begin_usage_time);
    CHECK(o->last_usage_time == r.last_usage_time);
    CHECK(o->uncharged == r.uncharged);
    CHECK(o->weighted_uncharged == r.weighted_uncharged);
    CHECK(o->floor.has_value() == r.floor.has_value());
    CHECK(o->ceiling.has_value() == r.ceiling.has_value());
  }
  CHECK(restored->floor("group_cms", kT0 + 101) == 3);
  CHECK_FALSE(restored->floor("group_cms", kT0 + 700));
  CHECK(restored->ceiling("bob@physik.rwth-aachen.de", kT0 + 99999) == 7);
  REQUIRE(restored->claims().count("slot1@ep"));
  const ClaimRecord& c = restored->claims().at("slot1@ep");
  CHECK(c.submitter == "group_cms.alice@physik.rwth-aachen.de");
  CHECK(c.weight == 2.5);
  CHECK(c.start == kT0 + 5);
  CHECK(c.concurrency_limits == std::vector<std::string>{"db:2", "tape"});

  SECTION("what the accountant no longer has is erased") {
    REQUIRE(a.remove("bob@physik.rwth-aachen.de"));
    REQUIRE(a.end_claim("slot1@ep", kT0 + 200));
    {
      auto s = AccountantStore::open(path);
      REQUIRE(s);
      REQUIRE(s->load());  // learns the keys on disk
      REQUIRE(s->commit(a.state()));
    }
    const AccountantState after = load(path);
    CHECK(after.claims.empty());
    for (const CustomerRecord& r : after.records) CHECK(r.name != "bob@physik.rwth-aachen.de");
    CHECK(after.records.size() == a.records().size());
  }
}

TEST_CASE("a damaged accountant record stops the load, naming the store and key",
          "[persistence][accountant]") {
  TempDir dir("accountant-store");
  const std::string path = dir / "a";
  Accountant a(config_of(""), kT0);
  REQUIRE(a.set_factor("alice@physik.rwth-aachen.de", 10));
  {
    auto s = AccountantStore::open(path);
    REQUIRE(s);
    REQUIRE(s->commit(a.state()));
  }
  {
    auto raw = persistence::Store::open(path, "accountant", AccountantStore::kSchema);
    REQUIRE(raw);
    persistence::Batch b;
    b.put("rec/alice@physik.rwth-aachen.de", "garbage");
    REQUIRE(raw->write(b));
  }
  auto s = AccountantStore::open(path);
  REQUIRE(s);
  auto state = s->load();
  REQUIRE_FALSE(state);
  CHECK_THAT(state.error(), Catch::StartsWith("store accountant, key 'rec/alice@physik.rwth-aachen.de': "));
}

TEST_CASE("a state's version is stored with it, and a snapshot carries state and version",
          "[persistence][accountant][ha]") {
  TempDir dir("accountant-version");
  const std::string path = dir / "accountant.db";
  Accountant a(config_of(""), kT0);
  REQUIRE(a.begin_claim({"slot1@ep", "alice@site", 1, kT0 + 5, {"db"}}, kT0 + 5));
  a.update_priorities(kT0 + 60);
  REQUIRE(a.set_factor("alice@site", 250));
  {
    auto s = AccountantStore::open(path);
    REQUIRE(s);
    REQUIRE(s->load());
    CHECK(s->version() == ha::StateVersion{});  // nothing stored: no version
    REQUIRE(s->commit(a.state(), ha::StateVersion{3, 17}));
    CHECK(s->version() == ha::StateVersion{3, 17});
  }
  auto s = AccountantStore::open(path);
  REQUIRE(s);
  REQUIRE(s->load());
  CHECK(s->version() == ha::StateVersion{3, 17});

  // What a standby receives is what the active stored, version and all.
  const std::string bytes = persistence::encode_snapshot(a.state(), ha::StateVersion{3, 18});
  auto snap = persistence::decode_snapshot(bytes, "the active central manager");
  REQUIRE(snap);
  CHECK(snap->second == ha::StateVersion{3, 18});
  auto copy = Accountant::restore(config_of(""), snap->first);
  REQUIRE(copy);
  REQUIRE(copy->find("alice@site"));
  CHECK(copy->find("alice@site")->factor == 250);
  CHECK(copy->find("alice@site")->priority == a.find("alice@site")->priority);
  CHECK(copy->find("alice@site")->accumulated_usage == a.find("alice@site")->accumulated_usage);
  CHECK(copy->last_update() == kT0 + 60);
  REQUIRE(copy->claims().count("slot1@ep"));
  CHECK(copy->claims().at("slot1@ep").concurrency_limits == std::vector<std::string>{"db"});

  auto bad = persistence::decode_snapshot(bytes.substr(0, bytes.size() / 2), "the active central manager");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("the active central manager"));
}
