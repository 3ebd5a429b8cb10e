// A daemon's RocksDB store (persistence/store.h): synced batches, scans by
// prefix, the schema version, and what survives reopening.
#include "persistence/store.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <string>

#include "tests/support/scratch.h"

using namespace cara;
using namespace cara::persistence;
using cara::scratch::TempDir;

namespace {

std::map<std::string, std::string> all(const Store& s, std::string_view prefix = "") {
  std::map<std::string, std::string> out;
  REQUIRE(s.scan(prefix, [&](std::string_view k, std::string_view v) {
    out.emplace(k, v);
    return Status{Ok{}};
  }));
  return out;
}

}  // namespace

TEST_CASE("a batch is applied whole and is there after reopening", "[persistence][store]") {
  TempDir dir("store");
  const std::string path = (dir.path / "queue").string();
  {
    auto s = Store::open(path, "job queue", 1);
    REQUIRE(s);
    Batch b;
    b.put("job/1.0", "a");
    b.put("job/1.1", "b");
    b.put("meta/next_cluster", "2");
    REQUIRE(s->write(b));
    Batch c;
    c.erase("job/1.0");
    c.put("job/2.0", "c");
    REQUIRE(s->write(c));
  }
  auto s = Store::open(path, "job queue", 1);
  REQUIRE(s);
  CHECK(all(*s, "job/") == std::map<std::string, std::string>{{"job/1.1", "b"}, {"job/2.0", "c"}});
  auto next = s->get("meta/next_cluster");
  REQUIRE(next);
  REQUIRE(*next);
  CHECK(**next == "2");
  auto none = s->get("job/1.0");
  REQUIRE(none);
  CHECK_FALSE(*none);
  // The store's own schema key is not a record.
  CHECK(all(*s).size() == 3);
}

TEST_CASE("a store of another schema version is refused, naming it", "[persistence][store]") {
  TempDir dir("store");
  const std::string path = (dir.path / "accountant").string();
  REQUIRE(Store::open(path, "accountant", 1));
  auto newer = Store::open(path, "accountant", 2);
  REQUIRE_FALSE(newer);
  CHECK(newer.error() ==
        "store accountant (" + path + "): schema version 1 on disk, this build reads version 2");
}

TEST_CASE("a store that cannot be opened says where and why", "[persistence][store]") {
  TempDir dir("store");
  const std::string path = (dir.path / "plain-file").string();
  { std::ofstream(path) << "not a database"; }
  auto s = Store::open(path, "history", 1);
  REQUIRE_FALSE(s);
  CHECK_THAT(s.error(), Catch::StartsWith("store history (" + path + "): cannot open: "));
}

TEST_CASE("a scan stops at the first error its visitor gives", "[persistence][store]") {
  TempDir dir("store");
  auto s = Store::open((dir.path / "s").string(), "s", 1);
  REQUIRE(s);
  Batch b;
  for (const char* k : {"a/1", "a/2", "a/3"}) b.put(k, "v");
  REQUIRE(s->write(b));
  int seen = 0;
  const Status stopped = s->scan("a/", [&](std::string_view k, std::string_view) -> Status {
    ++seen;
    if (k == "a/2") return Error{"bad record at a/2"};
    return Ok{};
  });
  REQUIRE_FALSE(stopped);
  CHECK(stopped.error() == "bad record at a/2");
  CHECK(seen == 2);
}
