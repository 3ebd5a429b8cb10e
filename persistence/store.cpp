#include "persistence/store.h"

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>
#include <sys/resource.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <optional>
#include <system_error>

namespace cara::persistence {
namespace {

// The store's schema version lives here; no record key starts with NUL.
const std::string kSchemaKey = std::string(1, '\0') + "schema";

// A scan reads its blocks once, in key order (a restarting schedd reads
// its whole queue): it leaves the block cache to point reads, whose blocks
// it would evict. Filling the cache also cost a fresh allocation per block
// (a third of a restart's page faults). RocksDB's own readahead, which
// grows as an iterator reads on, serves both a whole queue and the short
// time ranges of the pool history.
rocksdb::ReadOptions scan_options() {
  rocksdb::ReadOptions options;
  options.verify_checksums = true;
  options.fill_cache = false;
  return options;
}

std::string schema_text(std::uint32_t v) {
  return std::to_string(v);
}

// RocksDB writes a few files when it opens a store (a manifest, its
// options, a log); where it cannot, the error path of Debian's build (with
// assertions on) may abort the process instead of returning an error. A
// store is not opened where files cannot grow to this size.
constexpr std::uint64_t kRoomToOpen = 1 << 20;

std::string bytes(std::uint64_t n) {
  return std::to_string(n) + " bytes";
}

// Why the store at `path` has no room to open, if so.
std::optional<std::string> no_room(const std::string& path) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
      limit.rlim_cur < kRoomToOpen)
    return "the file size limit (RLIMIT_FSIZE, ulimit -f) is " + bytes(limit.rlim_cur) +
           "; a store needs at least " + bytes(kRoomToOpen);
  struct statvfs fs {};
  const std::string where =
      std::filesystem::exists(path) ? path : std::filesystem::path(path).parent_path().string();
  if (::statvfs(where.empty() ? "." : where.c_str(), &fs) == 0 &&
      static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize < kRoomToOpen)
    return "the filesystem is full: " + bytes(static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize) +
           " free; a store needs at least " + bytes(kRoomToOpen);
  return std::nullopt;
}

}  // namespace

Store::Store(std::unique_ptr<rocksdb::DB> db, std::string name, std::string path)
    : db_(std::move(db)), name_(std::move(name)), path_(std::move(path)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

Result<Store> Store::open(const std::string& path, std::string name, std::uint32_t schema) {
  // RocksDB makes the store's own directory, not the ones above it.
  std::error_code ec;
  if (auto parent = std::filesystem::path(path).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  if (ec) return Error{"store " + name + " (" + path + "): cannot create its directory: " + ec.message()};
  if (auto why = no_room(path)) return Error{"store " + name + " (" + path + "): cannot open: " + *why};
  rocksdb::Options options;
  options.create_if_missing = true;
  options.paranoid_checks = true;
  // RocksDB's own log of a store is for its developers: a few are enough
  // (it keeps a thousand by default).
  options.keep_log_file_num = 3;
  options.max_log_file_size = 1 << 20;
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

Status Store::scan_range(
    std::string_view from, std::string_view to,
    const std::function<Status(std::string_view key, std::string_view value)>& visit) const {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(scan_options()));  // closed before the store
  for (it->Seek(rocksdb::Slice(from.data(), from.size())); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    const std::string_view key(k.data(), k.size());
    if (key >= to) break;
    if (!key.empty() && key[0] == '\0') continue;  // the store's own keys
    const rocksdb::Slice v = it->value();
    if (Status s = visit(key, std::string_view(v.data(), v.size())); !s) return s;
  }
  if (!it->status().ok()) return Error{where() + ": scan failed: " + it->status().ToString()};
  return Ok{};
}

Status Store::scan(std::string_view prefix,
                   const std::function<Status(std::string_view key, std::string_view value)>& visit) const {
  // Destroyed before the store closes (STACK-NOTES.md: Debian's RocksDB
  // asserts on an iterator left open).
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(scan_options()));
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
