#include "persistence/queue_store.h"

#include "model/classad/expr_cache.h"
#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/schedd/job_queue.h"
#include "persistence/numbered_key.h"
#include "persistence/queue_records.h"
#include "persistence/read_back.h"
#include "persistence/record.h"

namespace cara::persistence {
namespace {

constexpr std::string_view kJobPrefix = "job/";
constexpr std::string_view kHistoryPrefix = "hist/";
constexpr std::string_view kNextCluster = "meta/next_cluster";
constexpr const char* kName = "job queue";
// Distinct value texts the reading of a store remembers at most: the
// shared values of many clusters, while each job's own (ProcId) pass by.
constexpr std::size_t kSharedTexts = 4096;

std::string job_key(const schedd::JobId& id) {
  return std::string(kJobPrefix) + id.str();
}

// Key order is age order.
std::string history_key(std::uint64_t seq) {
  return numbered_key(kHistoryPrefix, seq);
}

// `shared` holds the trees of the values read before: the jobs read back
// share them as the jobs they were submitted as did (one cluster's jobs
// spell nearly every value alike), instead of a copy of each per job.
Result<classad::ClassAd> decode_ad(std::string_view stored, const RecordPlace& place,
                                   classad::ExprCache& shared, std::size_t reserve = 0) {
  auto record = decode<JobRecord>(stored, place);
  if (!record) return Error{record.error()};
  auto ad = classad::parse_new_classad_sharing(record->ad, shared, reserve);
  if (!ad) return Error{place.describe() + ": the job ad does not parse: " + ad.error()};
  return ad;
}

std::string encode_ad(const classad::ClassAd& ad) {
  return encode(JobRecord{classad::unparse(ad)});
}

}  // namespace

QueueStore::QueueStore(Store store, HistoryLimits limits)
    : store_(std::move(store)), limits_(limits), helpers_(read_back_helpers()) {}

Result<QueueStore> QueueStore::open(const std::string& path, HistoryLimits limits) {
  auto store = Store::open(path, kName, kSchema);
  if (!store) return Error{store.error()};
  QueueStore q(std::move(*store), limits);
  if (Status s = q.read_history_index(); !s) return Error{s.error()};
  return q;
}

Status QueueStore::read_history_index() {
  return store_.scan(kHistoryPrefix, [&](std::string_view key, std::string_view value) -> Status {
    const auto seq = key_number(key, kHistoryPrefix);
    if (!seq)
      return Error{"store " + store_.name() + " (" + store_.path() + "), key '" + std::string(key) +
                   "': not a history key"};
    history_.push_back({*seq, static_cast<std::int64_t>(key.size() + value.size())});
    history_bytes_ += history_.back().bytes;
    next_seq_ = *seq + 1;
    return Ok{};
  });
}

Result<StoredQueue> QueueStore::load() const {
  StoredQueue out;
  // Jobs in key order come cluster by cluster, alike: each thread's cache
  // shares a cluster's values, and the size of the last ad is the next's.
  auto jobs = read_ads_back(
      store_, kJobPrefix,
      [this](std::string_view key, std::string_view value, classad::ExprCache& shared,
             std::size_t& last_size) -> Result<classad::ClassAd> {
        const RecordPlace place{store_.name(), std::string(key)};
        auto ad = decode_ad(value, place, shared, last_size);
        if (!ad) return Error{ad.error()};
        if (job_key(schedd::job_id(*ad)) != key)
          return Error{place.describe() + ": the ad is of job " + schedd::job_id(*ad).str()};
        return ad;
      },
      helpers_, kSharedTexts);
  if (!jobs) return Error{jobs.error()};
  out.jobs = std::move(*jobs);
  auto next = store_.get(kNextCluster);
  if (!next) return Error{next.error()};
  if (*next) {
    auto record = decode<NextClusterRecord>(**next, RecordPlace{store_.name(), std::string(kNextCluster)});
    if (!record) return Error{record.error()};
    out.next_cluster = record->next_cluster;
  } else if (!out.jobs.empty()) {
    return Error{"store " + store_.name() + " (" + store_.path() + "): jobs without the key '" +
                 std::string(kNextCluster) + "'"};
  }
  return out;
}

Status QueueStore::commit(const schedd::JobQueue& queue, const std::vector<schedd::JobId>& touched,
                          const std::vector<classad::ClassAd>& finished) {
  Batch batch;
  for (const schedd::JobId& id : touched) {
    if (const classad::ClassAd* job = queue.find(id))
      batch.put(job_key(id), encode_ad(*job));
    else
      batch.erase(job_key(id));
  }
  // The history as it will be once the batch is on disk (the index moves
  // only then): the finished jobs appended, the oldest dropped while it is
  // over a limit.
  std::vector<HistoryEntry> added;
  std::int64_t bytes = history_bytes_;
  std::uint64_t seq = next_seq_;
  for (const classad::ClassAd& job : finished) {
    std::string key = history_key(seq);
    std::string value = encode_ad(job);
    added.push_back({seq++, static_cast<std::int64_t>(key.size() + value.size())});
    bytes += added.back().bytes;
    batch.put(std::move(key), std::move(value));
  }
  const std::size_t total = history_.size() + added.size();
  std::size_t dropped = 0;
  auto entry = [&](std::size_t i) { return i < history_.size() ? history_[i] : added[i - history_.size()]; };
  while (dropped < total &&
         (bytes > limits_.max_bytes || static_cast<std::int64_t>(total - dropped) > limits_.max_jobs)) {
    batch.erase(history_key(entry(dropped).seq));
    bytes -= entry(dropped).bytes;
    ++dropped;
  }
  batch.put(std::string(kNextCluster), encode(NextClusterRecord{queue.next_cluster_id()}));
  if (Status s = store_.write(batch, true); !s) return s;
  history_.insert(history_.end(), added.begin(), added.end());
  history_.erase(history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(dropped));
  history_bytes_ = bytes;
  next_seq_ = seq;
  return Ok{};
}

Status QueueStore::history(const std::function<Status(const classad::ClassAd&)>& visit) const {
  classad::ExprCache shared(kSharedTexts);
  return store_.scan(kHistoryPrefix, [&](std::string_view key, std::string_view value) -> Status {
    auto ad = decode_ad(value, RecordPlace{store_.name(), std::string(key)}, shared);
    if (!ad) return Error{ad.error()};
    return visit(*ad);
  });
}

}  // namespace cara::persistence
