#include "persistence/pool_history_store.h"

#include <algorithm>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "persistence/collector_records.h"
#include "persistence/numbered_key.h"
#include "persistence/record.h"

namespace cara::persistence {
namespace {

constexpr std::string_view kSamplePrefix = "sample/";

// Key order is time order (times before 1970 are not sampled: they go in
// as 0).
std::string sample_key(std::int64_t time) {
  return numbered_key(kSamplePrefix, static_cast<std::uint64_t>(std::max<std::int64_t>(time, 0)));
}

}  // namespace

Result<PoolHistoryStore> PoolHistoryStore::open(const std::string& path, std::int64_t max_bytes) {
  auto store = Store::open(path, "pool history", kSchema);
  if (!store) return Error{store.error()};
  PoolHistoryStore h(std::move(*store), max_bytes);
  if (Status s = h.read_index(); !s) return Error{s.error()};
  return h;
}

Status PoolHistoryStore::read_index() {
  return store_.scan(kSamplePrefix, [&](std::string_view key, std::string_view value) -> Status {
    const auto time = key_number(key, kSamplePrefix);
    if (!time) return Error{RecordPlace{store_.name(), std::string(key)}.describe() + ": not a sample key"};
    index_.push_back(
        {static_cast<std::int64_t>(*time), static_cast<std::int64_t>(key.size() + value.size())});
    bytes_ += index_.back().bytes;
    return Ok{};
  });
}

Status PoolHistoryStore::append(std::int64_t time, const std::vector<classad::ClassAd>& rows) {
  PoolSampleRecord record{time, {}};
  record.rows.reserve(rows.size());
  for (const classad::ClassAd& r : rows) record.rows.push_back(classad::unparse(r));
  std::string key = sample_key(time);
  std::string value = encode(record);
  const Entry added{time, static_cast<std::int64_t>(key.size() + value.size())};
  // The index as it will be once the batch is on disk.
  std::deque<Entry> index = index_;
  std::int64_t bytes = bytes_;
  if (!index.empty() && index.back().time >= time) {
    if (index.back().time > time) return Error{"a pool history sample older than the last one"};
    bytes -= index.back().bytes;  // the same second again: replaced
    index.pop_back();
  }
  index.push_back(added);
  bytes += added.bytes;
  Batch batch;
  batch.put(std::move(key), std::move(value));
  // The newest sample stays even when it alone is over the limit.
  while (index.size() > 1 && bytes > max_bytes_) {
    batch.erase(sample_key(index.front().time));
    bytes -= index.front().bytes;
    index.pop_front();
  }
  if (Status s = store_.write(batch, true); !s) return s;
  index_ = std::move(index);
  bytes_ = bytes;
  return Ok{};
}

Status PoolHistoryStore::range(std::int64_t from, std::int64_t to,
                               const std::function<Status(const classad::ClassAd&)>& visit) const {
  if (to < from) return Ok{};
  return store_.scan_range(sample_key(from), sample_key(to) + "\x01",
                           [&](std::string_view key, std::string_view value) -> Status {
                             const RecordPlace place{store_.name(), std::string(key)};
                             auto record = decode<PoolSampleRecord>(value, place);
                             if (!record) return Error{record.error()};
                             for (const std::string& text : record->rows) {
                               auto row = classad::parse_new_classad(text);
                               if (!row)
                                 return Error{place.describe() + ": a row does not parse: " + row.error()};
                               if (Status s = visit(*row); !s) return s;
                             }
                             return Ok{};
                           });
}

}  // namespace cara::persistence
