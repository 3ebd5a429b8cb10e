// RocksDB 7.8 (librocksdb-dev): open, synced put, get, close.
#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <rocksdb/db.h>
#include <unistd.h>

TEST_CASE("rocksdb stores and reads back a synced write", "[deps]") {
  auto dir = std::filesystem::temp_directory_path() / ("cara-rocksdb-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  REQUIRE(rocksdb::DB::Open(options, dir.string(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions sync;
  sync.sync = true;
  REQUIRE(db->Put(sync, "job/1.0", "JobStatus = 1").ok());
  std::string value;
  REQUIRE(db->Get(rocksdb::ReadOptions(), "job/1.0", &value).ok());
  CHECK(value == "JobStatus = 1");
  db.reset();
  std::filesystem::remove_all(dir);
}
