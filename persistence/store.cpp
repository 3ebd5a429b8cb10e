#include "persistence/store.h"

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

namespace cara::persistence {
namespace {

// The store's schema version lives here; no record key starts with NUL.
const std::string kSchemaKey = std::string(1, '\0') + "schema";

std::string schema_text(std::uint32_t v) {
  return std::to_string(v);
}

}  // namespace

Store::Store(std::unique_ptr<rocksdb::DB> db, std::string name, std::string path)
    : db_(std::move(db)), name_(std::move(name)), path_(std::move(path)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

Result<Store> Store::open(const std::string& path, std::string name, std::uint32_t schema) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.paranoid_checks = true;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  if (!s.ok()) return Error{"store " + name + " (" + path + "): cannot open: " + s.ToString()};
  Store store(std::unique_ptr<rocksdb::DB>(raw), std::move(name), path);
  auto current = store.get(kSchemaKey);
  if (!current) return Error{current.error()};
  if (!*current) {
    Batch b;
    b.put(kSchemaKey, schema_text(schema));
    if (Status w = store.write(b); !w) return Error{w.error()};
  } else if (**current != schema_text(schema)) {
    return Error{store.where() + ": schema version " + **current + " on disk, this build reads version " +
                 schema_text(schema)};
  }
  return store;
}

Status Store::write(const Batch& batch, bool sync) {
  rocksdb::WriteBatch wb;
  for (const Batch::Op& op : batch.ops_) {
    rocksdb::Status s = op.value ? wb.Put(op.key, *op.value) : wb.Delete(op.key);
    if (!s.ok()) return Error{where() + ": " + s.ToString()};
  }
  rocksdb::WriteOptions options;
  options.sync = sync;
  rocksdb::Status s = db_->Write(options, &wb);
  if (!s.ok())
    return Error{where() + ": write of " + std::to_string(batch.size()) + " changes failed: " + s.ToString()};
  return Ok{};
}

Result<std::optional<std::string>> Store::get(std::string_view key) const {
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), &value);
  if (s.IsNotFound()) return std::optional<std::string>{};
  if (!s.ok()) return Error{where() + ": reading key '" + std::string(key) + "' failed: " + s.ToString()};
  return std::optional<std::string>{std::move(value)};
}

Status Store::scan(std::string_view prefix,
                   const std::function<Status(std::string_view key, std::string_view value)>& visit) const {
  rocksdb::ReadOptions options;
  options.verify_checksums = true;
  // Destroyed before the store closes (STACK-NOTES.md: Debian's RocksDB
  // asserts on an iterator left open).
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options));
  for (it->Seek(rocksdb::Slice(prefix.data(), prefix.size())); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    const std::string_view key(k.data(), k.size());
    if (!key.starts_with(prefix)) break;
    if (!key.empty() && key[0] == '\0') continue;  // the store's own keys
    const rocksdb::Slice v = it->value();
    if (Status s = visit(key, std::string_view(v.data(), v.size())); !s) return s;
  }
  if (!it->status().ok()) return Error{where() + ": scan failed: " + it->status().ToString()};
  return Ok{};
}

}  // namespace cara::persistence
