// The collector's stores (issue 21): absent ads kept across restarts
// (COLLECTOR_PERSISTENT_AD_LOG) and the pool history (KEEP_POOL_HISTORY),
// bounded by POOL_HISTORY_MAX_STORAGE and read by time range.
#include "persistence/collector_store.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"
#include "model/classad/parser.h"
#include "persistence/collector_records.h"
#include "persistence/pool_history_store.h"
#include "persistence/record.h"
#include "tests/support/scratch.h"

using namespace cara;
using namespace cara::collector;
using cara::persistence::CollectorStore;
using cara::persistence::PoolHistoryStore;
using cara::scratch::TempDir;

namespace {

constexpr std::int64_t kT0 = 1700000000;

classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_classad(text);
  if (!a) FAIL(a.error());
  return std::move(*a);
}

std::vector<std::string> names(const std::vector<KeptAd>& ads) {
  std::vector<std::string> out;
  for (const KeptAd& a : ads) out.push_back(a.key);
  return out;
}

std::vector<classad::ClassAd> rows(std::int64_t t, int n) {
  std::vector<classad::ClassAd> out;
  for (int i = 0; i < n; ++i) {
    classad::ClassAd r = ad("[ MyType = \"MachineHistory\"; Slots = 4 ]");
    r.set("Time", t);
    r.set("Name", "ep" + std::to_string(i));
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<std::int64_t> times(const PoolHistoryStore& h, std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> out;
  REQUIRE(h.range(from, to, [&](const classad::ClassAd& row) -> Status {
    const std::int64_t t = classad::evaluate_attr(row, "Time").as_int();
    if (out.empty() || out.back() != t) out.push_back(t);
    return Ok{};
  }));
  return out;
}

}  // namespace

TEST_CASE("absent ads are stored as they change and read back by a new collector",
          "[persistence][collector]") {
  TempDir dir("collector-store");
  const std::string path = dir / "ads";
  CollectorPolicy p;
  p.absent_requirements = *classad::parse_expression("true");
  {
    auto s = CollectorStore::open(path);
    REQUIRE(s);
    AdStore ads(p);
    for (const char* n : {"slot1@a", "slot1@b", "slot1@c"})
      REQUIRE(ads.update(AdType::Machine, ad(std::string("[ Name = \"") + n + "\"; Cpus = 2 ]"), kT0));
    ads.lose(AdType::Machine, "slot1@a", kT0 + 1);
    ads.lose(AdType::Machine, "slot1@b", kT0 + 1);
    REQUIRE(ads.update(AdType::Machine, ad("[ Name = \"slot1@z\"; Offline = true ]"), kT0 + 1));
    REQUIRE(s->commit(ads, ads.take_kept_changes()));
    // b comes back: its stored absent ad goes.
    REQUIRE(ads.update(AdType::Machine, ad("[ Name = \"slot1@b\"; Cpus = 2 ]"), kT0 + 2));
    REQUIRE(s->commit(ads, ads.take_kept_changes()));
  }
  {
    auto s = CollectorStore::open(path);
    REQUIRE(s);
    auto loaded = s->load();
    REQUIRE(loaded);
    CHECK(names(*loaded) == std::vector<std::string>{"slot1@a", "slot1@z"});
    CHECK(loaded->front().expires == kT0 + 1 + p.absent_expire_after);
    CHECK_FALSE(loaded->front().offline);
    CHECK(loaded->back().offline);
    CHECK(classad::evaluate_attr(loaded->front().ad, "Cpus").as_int() == 2);
  }

  SECTION("a damaged record stops the load, naming the store and key") {
    {
      auto raw = persistence::Store::open(path, "collector ads", CollectorStore::kSchema);
      REQUIRE(raw);
      persistence::Batch b;
      b.put("kept/Machine/slot1@a", persistence::encode(persistence::KeptAdRecord{0, "[ Name = ", 0, false}));
      REQUIRE(raw->write(b));
    }
    auto again = CollectorStore::open(path);
    REQUIRE(again);
    auto bad = again->load();
    REQUIRE_FALSE(bad);
    CHECK_THAT(bad.error(),
               Catch::StartsWith("store collector ads, key 'kept/Machine/slot1@a': the ad does not parse"));
  }
}

TEST_CASE("the pool history keeps the newest samples within its bound and reads a time range",
          "[persistence][collector][history]") {
  TempDir dir("pool-history");
  const std::string path = dir / "hist";
  std::int64_t one_sample = 0;
  {
    auto h = PoolHistoryStore::open(path, 1 << 20);
    REQUIRE(h);
    REQUIRE(h->append(kT0, rows(kT0, 3)));
    one_sample = h->bytes();
    for (int i = 1; i < 10; ++i) REQUIRE(h->append(kT0 + 60 * i, rows(kT0 + 60 * i, 3)));
    CHECK(h->samples() == 10);
    CHECK(times(*h, kT0 + 60, kT0 + 180) == std::vector<std::int64_t>{kT0 + 60, kT0 + 120, kT0 + 180});
    CHECK(times(*h, kT0 + 1, kT0 + 59).empty());
    // The same second again replaces its sample; an older one is refused.
    REQUIRE(h->append(kT0 + 540, rows(kT0 + 540, 1)));
    CHECK(h->samples() == 10);
    CHECK_FALSE(h->append(kT0 + 100, rows(kT0 + 100, 1)));
  }
  // Reopened with room for four samples: the next append drops the oldest.
  auto h = PoolHistoryStore::open(path, 4 * one_sample);
  REQUIRE(h);
  CHECK(h->samples() == 10);
  REQUIRE(h->append(kT0 + 600, rows(kT0 + 600, 3)));
  CHECK(h->bytes() <= 4 * one_sample);
  CHECK(times(*h, 0, kT0 + 10000) == std::vector<std::int64_t>{kT0 + 420, kT0 + 480, kT0 + 540, kT0 + 600});
  std::size_t n = 0;
  REQUIRE(h->range(kT0 + 540, kT0 + 540, [&](const classad::ClassAd&) -> Status {
    ++n;
    return Ok{};
  }));
  CHECK(n == 1);  // the replaced sample had one row
}
