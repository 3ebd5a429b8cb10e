// One RocksDB database of a daemon (its queue, its accountant, ...), named
// for messages. Writes are batches, synced by default: what a daemon
// acknowledges is on disk first (DESIGN.md "State and durability"). Each
// store carries its schema version under a reserved key; a store of
// another version, or one RocksDB cannot open, is an error naming the store
// and its path, never a fresh empty store in its place.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/common/result.h"

namespace rocksdb {
class DB;
}

namespace cara::persistence {

// Puts and deletes applied together, or not at all.
class Batch {
 public:
  void put(std::string key, std::string value) { ops_.push_back({std::move(key), std::move(value)}); }
  void erase(std::string key) { ops_.push_back({std::move(key), std::nullopt}); }
  bool empty() const { return ops_.empty(); }
  std::size_t size() const { return ops_.size(); }

 private:
  friend class Store;
  struct Op {
    std::string key;
    std::optional<std::string> value;  // none: delete
  };
  std::vector<Op> ops_;
};

class Store {
 public:
  // Opens (creating when missing) the store `name` at `path` with schema
  // `schema`.
  static Result<Store> open(const std::string& path, std::string name, std::uint32_t schema);

  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  ~Store();

  // Applies `batch` at once; `sync`: on disk before this returns.
  Status write(const Batch& batch, bool sync = true);
  // The value under `key`, or nullopt.
  Result<std::optional<std::string>> get(std::string_view key) const;
  // Every (key, value) whose key starts with `prefix`, in key order; `visit`
  // returning an error stops the scan with it.
  Status scan(std::string_view prefix,
              const std::function<Status(std::string_view key, std::string_view value)>& visit) const;

  // Every (key, value) with `from` <= key < `to`, in key order.
  Status scan_range(std::string_view from, std::string_view to,
                    const std::function<Status(std::string_view key, std::string_view value)>& visit) const;

  const std::string& name() const { return name_; }
  const std::string& path() const { return path_; }

 private:
  Store(std::unique_ptr<rocksdb::DB> db, std::string name, std::string path);
  std::string where() const { return "store " + name_ + " (" + path_ + ")"; }

  std::unique_ptr<rocksdb::DB> db_;
  std::string name_, path_;
};

}  // namespace cara::persistence
