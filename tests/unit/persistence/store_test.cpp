// A daemon's RocksDB store (persistence/store.h): synced batches, scans by
// prefix, the schema version, and what survives reopening.
#include "persistence/store.h"

#include <sys/resource.h>

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

TEST_CASE("a store another handle holds open is refused, not shared", "[persistence][store]") {
  TempDir dir("store");
  const std::string path = (dir.path / "queue").string();
  auto first = Store::open(path, "job queue", 1);
  REQUIRE(first);
  // Two schedds configured with one JOB_QUEUE_LOG would each lose the
  // other's writes.
  auto second = Store::open(path, "job queue", 1);
  REQUIRE_FALSE(second);
  CHECK_THAT(second.error(),
             Catch::StartsWith("store job queue (" + path + "): cannot open: ") && Catch::Contains("lock"));
}

TEST_CASE("a store is not opened where its files cannot grow, and says why", "[persistence][store]") {
  TempDir dir("store");
  const std::string path = (dir.path / "queue").string();
  rlimit before{};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &before) == 0);
  rlimit small = before;
  small.rlim_cur = 64 * 1024;  // the soft limit only: raised again below
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  auto s = Store::open(path, "job queue", 1);
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &before) == 0);
  REQUIRE_FALSE(s);
  CHECK(s.error() ==
        "store job queue (" + path +
            "): cannot open: the file size limit (RLIMIT_FSIZE, ulimit -f) is 65536 bytes; a store "
            "needs at least 1048576 bytes");
  CHECK(Store::open(path, "job queue", 1));
}
