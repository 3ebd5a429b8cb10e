// The schedd's store (persistence/queue_store.h): what a commit stores is
// what a reopened store loads, finished jobs move to a bounded history in
// the same batch, and a damaged or newer record stops the load with the
// store and key named (issue 21: never a silent skip).
#include "persistence/queue_store.h"

#include <catch2/catch.hpp>

#include "model/classad/unparse.h"
#include "persistence/queue_records.h"
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

// A later JobRecord with one more field, as a newer caracara would write it.
struct JobRecordNext {
  std::string ad;
  std::int64_t extra = 7;
  template <class A>
  void serialize(A& a, unsigned /*version*/) {
    a& ad& extra;
  }
};

std::map<std::string, std::string> texts(const std::vector<classad::ClassAd>& jobs) {
  std::map<std::string, std::string> out;
  for (const classad::ClassAd& j : jobs) out.emplace(job_id(j).str(), classad::unparse(j));
  return out;
}

std::map<std::string, std::string> texts(const JobQueue& q) {
  std::map<std::string, std::string> out;
  for (const auto& [id, j] : q.jobs()) out.emplace(id.str(), classad::unparse(j));
  return out;
}

std::vector<std::string> history_ids(const QueueStore& s) {
  std::vector<std::string> out;
  REQUIRE(s.history([&](const classad::ClassAd& j) -> Status {
    out.push_back(job_id(j).str());
    return Ok{};
  }));
  return out;
}

Status commit(QueueStore& s, JobQueue& q) {
  auto touched = q.take_touched();
  auto finished = q.take_finished();
  return s.commit(q, touched, finished);
}

}  // namespace

BOOST_CLASS_VERSION(JobRecordNext, 2)

TEST_CASE("a committed queue loads back exactly, with its next cluster id", "[persistence][queue]") {
  TempDir dir("queue-store");
  const std::string path = dir / "spool/job_queue.db";  // the directories above it are made
  Queue q;
  {
    auto s = QueueStore::open(path, HistoryLimits{});
    REQUIRE(s);
    REQUIRE(q.submit(kExe + "arguments = \"a 'b c'\"\nenvironment = \"X=1\"\nqueue 3\n"));
    REQUIRE(q.submit(kExe + "queue 2\n"));
    REQUIRE(commit(*s, *q.queue));
    REQUIRE(q.queue->start({1, 1}, "slot1@ep", kT0 + 5));
    REQUIRE(q.queue->hold({2, 0}, "by hand", hold_code::kUserRequest, 0, kT0 + 6));
    REQUIRE(q.queue->complete({1, 1}, JobExit{false, 3}, kT0 + 9));
    REQUIRE(commit(*s, *q.queue));
  }
  auto s = QueueStore::open(path, HistoryLimits{});
  REQUIRE(s);
  auto stored = s->load();
  REQUIRE(stored);
  CHECK(stored->next_cluster == 3);
  // Every attribute as it was, the held job held; the completed one is in
  // the history, not the queue.
  CHECK(texts(stored->jobs) == texts(*q.queue));
  CHECK(texts(stored->jobs).count("1.1") == 0);
  CHECK(history_ids(*s) == std::vector<std::string>{"1.1"});
  CHECK(s->history_jobs() == 1);

  SECTION("ids stay used when the queue empties") {
    REQUIRE(q.queue->remove({1, 0}, "r", kT0 + 20));
    REQUIRE(q.queue->remove({1, 2}, "r", kT0 + 20));
    REQUIRE(q.queue->remove({2, 0}, "r", kT0 + 20));
    REQUIRE(q.queue->remove({2, 1}, "r", kT0 + 20));
    REQUIRE(commit(*s, *q.queue));
    auto empty = s->load();
    REQUIRE(empty);
    CHECK(empty->jobs.empty());
    CHECK(empty->next_cluster == 3);
    CHECK(history_ids(*s) == std::vector<std::string>{"1.1", "1.0", "1.2", "2.0", "2.1"});
  }
}

TEST_CASE("the history keeps the newest jobs within its byte and job limits", "[persistence][queue]") {
  TempDir dir("queue-store");
  const std::string path = dir / "q";
  Queue q;
  auto finish_cluster = [&](QueueStore& s, int jobs) {
    auto r = q.submit(kExe + "queue " + std::to_string(jobs) + "\n");
    REQUIRE(r);
    for (int p = 0; p < jobs; ++p) REQUIRE(q.queue->remove({r->cluster, p}, "done", kT0 + 1));
    REQUIRE(commit(s, *q.queue));
  };
  SECTION("by jobs") {
    std::optional<QueueStore> s;
    auto reopen = [&] {
      s.reset();  // one handle at a time
      auto opened = QueueStore::open(path, HistoryLimits{1 << 30, 3});
      REQUIRE(opened);
      s.emplace(std::move(*opened));
    };
    reopen();
    finish_cluster(*s, 2);
    finish_cluster(*s, 2);
    CHECK(history_ids(*s) == std::vector<std::string>{"1.1", "2.0", "2.1"});
    // A reopened store knows its history and keeps trimming it.
    reopen();
    CHECK(s->history_jobs() == 3);
    finish_cluster(*s, 1);
    CHECK(history_ids(*s) == std::vector<std::string>{"2.0", "2.1", "3.0"});
    // More in one commit than the limit: only the newest stay.
    finish_cluster(*s, 5);
    CHECK(history_ids(*s) == std::vector<std::string>{"4.2", "4.3", "4.4"});
    s->set_limits(HistoryLimits{1 << 30, 0});
    finish_cluster(*s, 1);
    CHECK(history_ids(*s).empty());
  }
  SECTION("by bytes") {
    auto s = QueueStore::open(path, HistoryLimits{1 << 30, 1000});
    REQUIRE(s);
    finish_cluster(*s, 1);
    const std::int64_t one = s->history_bytes();
    REQUIRE(one > 100);
    // Room for two and a half jobs of this size: two are kept.
    s->set_limits(HistoryLimits{one * 5 / 2, 1000});
    finish_cluster(*s, 4);
    CHECK(history_ids(*s) == std::vector<std::string>{"2.2", "2.3"});
    CHECK(s->history_bytes() <= one * 5 / 2);
  }
}

TEST_CASE("a damaged or newer job record stops the load, naming the store and key", "[persistence][queue]") {
  TempDir dir("queue-store");
  const std::string path = dir / "q";
  Queue q;
  {
    auto s = QueueStore::open(path, HistoryLimits{});
    REQUIRE(s);
    REQUIRE(q.submit(kExe + "queue 2\n"));
    REQUIRE(commit(*s, *q.queue));
  }
  auto overwrite = [&](const std::string& key, const std::string& value) {
    auto raw = persistence::Store::open(path, "job queue", QueueStore::kSchema);
    REQUIRE(raw);
    persistence::Batch b;
    b.put(key, value);
    REQUIRE(raw->write(b));
  };
  auto load_error = [&] {
    auto s = QueueStore::open(path, HistoryLimits{});
    REQUIRE(s);
    auto stored = s->load();
    REQUIRE_FALSE(stored);
    return stored.error();
  };
  SECTION("a flipped byte") {
    std::string damaged;
    {
      auto raw = persistence::Store::open(path, "job queue", QueueStore::kSchema);
      REQUIRE(raw);
      auto v = raw->get("job/1.1");
      REQUIRE(v);
      REQUIRE(*v);
      damaged = **v;
    }
    damaged[damaged.size() / 2] ^= 0x20;
    overwrite("job/1.1", damaged);
    CHECK_THAT(load_error(),
               Catch::StartsWith("store job queue, key 'job/1.1': ") && Catch::Contains("checksum"));
  }
  SECTION("a record of a newer version") {
    overwrite("job/1.0", persistence::encode(JobRecordNext{"[ ClusterId = 1; ProcId = 0; JobStatus = 1 ]"}));
    CHECK(load_error() ==
          "store job queue, key 'job/1.0': 8 bytes left over after the record: written by a newer version of "
          "caracara?");
  }
  SECTION("an ad that does not parse") {
    overwrite("job/1.0", persistence::encode(persistence::JobRecord{"[ ClusterId = "}));
    CHECK_THAT(load_error(),
               Catch::StartsWith("store job queue, key 'job/1.0': the job ad does not parse: "));
  }
  SECTION("an ad under another job's key") {
    overwrite("job/1.0", persistence::encode(persistence::JobRecord{"[ ClusterId = 1; ProcId = 1 ]"}));
    CHECK(load_error() == "store job queue, key 'job/1.0': the ad is of job 1.1");
  }
}

// The queue read back on several threads (persistence/read_back.h, issue 21)
// is what one thread reading it in key order gives: the same jobs in the
// same order, and the first damaged record's error in key order, whichever
// thread met it first.
namespace {

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
    std::vector<std::string> out;
    for (const classad::ClassAd& j : stored->jobs) out.push_back(classad::unparse(j));  // in order
    return out;
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
