// A queue read back on several threads (persistence/read_back.h, issue 21)
// gives what one thread reading it in key order gives: the same jobs in
// the same order, and the first damaged record's error in key order,
// whichever thread met it first.
#include "persistence/read_back.h"

#include <catch2/catch.hpp>

#include "model/classad/unparse.h"
#include "persistence/queue_records.h"
#include "persistence/queue_store.h"
#include "persistence/record.h"
#include "tests/support/scratch.h"
#include "unit/schedd/support.h"

using namespace cara;
using namespace cara::schedd;
using namespace cara::schedd_test;
using cara::persistence::HistoryLimits;
using cara::persistence::QueueStore;
using cara::scratch::TempDir;

namespace {

std::vector<std::string> texts(const std::vector<classad::ClassAd>& jobs) {
  std::vector<std::string> out;
  for (const classad::ClassAd& j : jobs) out.push_back(classad::unparse(j));
  return out;
}

// A store of some 3,000 jobs in clusters of varied sizes (many batches of
// the read-back), some of them changed since they were submitted.
std::string queue_of_thousands(TempDir& dir) {
  const std::string path = dir / "q";
  Queue q;
  auto s = QueueStore::open(path, HistoryLimits{});
  REQUIRE(s);
  for (int n : {1200, 1, 700, 3, 1100})
    REQUIRE(q.submit(kExe + "arguments = job$(Process)\nqueue " + std::to_string(n) + "\n"));
  REQUIRE(q.queue->hold({1, 17}, "by hand", hold_code::kUserRequest, 0, kT0 + 1));
  REQUIRE(q.queue->start({3, 650}, "slot1@ep", kT0 + 2));
  auto touched = q.queue->take_touched();
  auto finished = q.queue->take_finished();
  REQUIRE(s->commit(*q.queue, touched, finished));
  return path;
}

}  // namespace

TEST_CASE("a queue read back on several threads is the queue read on one, in key order",
          "[persistence][queue][issue21]") {
  TempDir dir("read-back");
  const std::string path = queue_of_thousands(dir);
  auto load = [&](unsigned helpers) {
    auto s = QueueStore::open(path, HistoryLimits{});
    REQUIRE(s);
    s->set_read_back_helpers(helpers);
    auto stored = s->load();
    REQUIRE(stored);
    CHECK(stored->next_cluster == 6);
    return texts(stored->jobs);
  };
  const std::vector<std::string> one = load(0);
  REQUIRE(one.size() == 3004);
  for (unsigned helpers : {1u, 3u}) {
    INFO(helpers << " helpers");
    CHECK(load(helpers) == one);
  }
}

TEST_CASE("a queue read back on several threads stops at its first damaged record in key order",
          "[persistence][queue][issue21]") {
  TempDir dir("read-back");
  const std::string path = queue_of_thousands(dir);
  {
    // Two ads that do not parse, far apart: the first in key order is
    // named, whichever thread decodes it.
    auto raw = persistence::Store::open(path, "job queue", QueueStore::kSchema);
    REQUIRE(raw);
    persistence::Batch b;
    b.put("job/1.1000", persistence::encode(persistence::JobRecord{"[ ClusterId = "}));
    b.put("job/5.3", persistence::encode(persistence::JobRecord{"[ ProcId = "}));
    REQUIRE(raw->write(b));
  }
  for (unsigned helpers : {0u, 1u, 3u}) {
    INFO(helpers << " helpers");
    auto s = QueueStore::open(path, HistoryLimits{});
    REQUIRE(s);
    s->set_read_back_helpers(helpers);
    auto stored = s->load();
    REQUIRE_FALSE(stored);
    CHECK_THAT(stored.error(),
               Catch::StartsWith("store job queue, key 'job/1.1000': the job ad does not parse: "));
  }
}
