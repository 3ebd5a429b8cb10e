// The schedd's store (DESIGN.md "State and durability"): its queued jobs,
// the next cluster id, and the history of the jobs that left the queue,
// in one RocksDB database so that a job moves from the queue to the
// history in one atomic batch. The schedd commits what each change
// touched (JobQueue::take_touched) with a synced write before it answers
// anyone or acts on the change; a restarted schedd loads the queue back.
//
// Keys: "job/<cluster>.<proc>" (the job's ad), "meta/next_cluster",
// "hist/<sequence>" (a finished job's ad, oldest first). The history is
// bounded by bytes (MAX_HISTORY_LOG) and by jobs (MAX_HISTORY_JOBS); the
// oldest go first.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/schedd/job_status.h"
#include "persistence/store.h"

namespace cara::schedd {
class JobQueue;
}

namespace cara::persistence {

struct HistoryLimits {
  std::int64_t max_bytes = 20 * 1024 * 1024;  // MAX_HISTORY_LOG (HTCondor's default); 0: none kept
  std::int64_t max_jobs = 100000;             // MAX_HISTORY_JOBS; 0: none kept
};

struct StoredQueue {
  std::vector<classad::ClassAd> jobs;
  std::int64_t next_cluster = 1;
};

class QueueStore {
 public:
  static constexpr std::uint32_t kSchema = 1;

  // Opens (creating) the store at `path` and reads the history's index.
  static Result<QueueStore> open(const std::string& path, HistoryLimits limits);

  // The queue as last committed. A record that does not decode is an error
  // naming the store and the key (the first such, in key order). Decoded on
  // this thread and read_back_helpers() more (read_back.h), or as many as
  // set_read_back_helpers() says.
  Result<StoredQueue> load() const;
  void set_read_back_helpers(unsigned helpers) { helpers_ = helpers; }

  // Stores, in one synced batch: each job of `touched` as `queue` has it
  // now (erased when it left the queue), `finished` into the history, and
  // the next cluster id. An error means nothing of it was stored.
  Status commit(const schedd::JobQueue& queue, const std::vector<schedd::JobId>& touched,
                const std::vector<classad::ClassAd>& finished);

  // The history, oldest first; `visit` returning an error stops with it.
  Status history(const std::function<Status(const classad::ClassAd&)>& visit) const;
  std::size_t history_jobs() const { return history_.size(); }
  std::int64_t history_bytes() const { return history_bytes_; }

  // A reconfiguration: applies from the next commit on.
  void set_limits(HistoryLimits limits) { limits_ = limits; }

 private:
  struct HistoryEntry {
    std::uint64_t seq;
    std::int64_t bytes;
  };
  QueueStore(Store store, HistoryLimits limits);
  Status read_history_index();

  Store store_;
  HistoryLimits limits_;
  std::deque<HistoryEntry> history_;  // oldest first
  std::int64_t history_bytes_ = 0;
  std::uint64_t next_seq_ = 1;
  unsigned helpers_;
};

}  // namespace cara::persistence
