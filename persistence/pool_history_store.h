// The collector's pool history (collector/pool_history.h): one record per
// sample under "sample/<time>", the oldest dropped while the whole is
// larger than POOL_HISTORY_MAX_STORAGE bytes; read back by time range.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"
#include "persistence/store.h"

namespace cara::persistence {

class PoolHistoryStore {
 public:
  static constexpr std::uint32_t kSchema = 1;
  static Result<PoolHistoryStore> open(const std::string& path, std::int64_t max_bytes);

  // Stores the sample of `time` (replacing one of the same second) with
  // one synced write, dropping the oldest samples beyond the limit.
  Status append(std::int64_t time, const std::vector<classad::ClassAd>& rows);
  // The rows of the samples taken from `from` to `to` (inclusive), oldest
  // first; `visit` returning an error stops with it.
  Status range(std::int64_t from, std::int64_t to,
               const std::function<Status(const classad::ClassAd&)>& visit) const;

  // A reconfiguration: applies from the next append on.
  void set_max_bytes(std::int64_t max_bytes) { max_bytes_ = max_bytes; }
  std::size_t samples() const { return index_.size(); }
  std::int64_t bytes() const { return bytes_; }

 private:
  struct Entry {
    std::int64_t time;
    std::int64_t bytes;
  };
  PoolHistoryStore(Store store, std::int64_t max_bytes) : store_(std::move(store)), max_bytes_(max_bytes) {}
  Status read_index();

  Store store_;
  std::int64_t max_bytes_;
  std::deque<Entry> index_;  // oldest first
  std::int64_t bytes_ = 0;
};

}  // namespace cara::persistence
