#include "persistence/read_back.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>

namespace cara::persistence {
namespace {

// Records per batch: enough that handing one on costs little against
// decoding it (some 20 µs a job ad), few enough that the threads share the
// work evenly.
constexpr std::size_t kBatch = 512;
// Batches waiting at most: past this the reading thread decodes one itself
// instead of reading on, so a fast scan does not hold the whole store's
// records in memory at once.
constexpr std::size_t kMaxWaiting = 8;

struct RecordBatch {
  std::vector<std::pair<std::string, std::string>> records;
  std::vector<classad::ClassAd> ads;
  std::optional<Error> error;  // the first record of the batch that did not decode
};

// What one decoding thread keeps from batch to batch.
struct Decoder {
  explicit Decoder(std::size_t cache_texts) : cache(cache_texts) {}
  classad::ExprCache cache;
  std::size_t last_size = 0;

  void run(RecordBatch& b, const AdDecoder& decode) {
    b.ads.reserve(b.records.size());
    for (const auto& [key, value] : b.records) {
      auto ad = decode(key, value, cache, last_size);
      if (!ad) {
        b.error = Error{ad.error()};
        b.ads.clear();
        break;
      }
      last_size = ad->size();
      b.ads.push_back(std::move(*ad));
    }
    b.records = {};  // the raw records are not needed any more
  }
};

}  // namespace

Result<std::vector<classad::ClassAd>> read_ads_back(const Store& store, std::string_view prefix,
                                                    const AdDecoder& decode, unsigned helpers,
                                                    std::size_t cache_texts) {
  std::vector<std::unique_ptr<RecordBatch>> batches;  // in key order
  std::mutex m;
  std::condition_variable changed;
  std::deque<RecordBatch*> waiting;  // read, not yet taken by a decoder
  bool read_all = false;
  std::size_t decoded = 0;

  // Takes the next waiting batch and decodes it; false when none waits.
  auto decode_one = [&](Decoder& d, std::unique_lock<std::mutex>& lock) {
    if (waiting.empty()) return false;
    RecordBatch* b = waiting.front();
    waiting.pop_front();
    lock.unlock();
    d.run(*b, decode);
    lock.lock();
    ++decoded;
    changed.notify_all();
    return true;
  };

  std::vector<std::thread> threads;
  for (unsigned h = 0; h < helpers; ++h)
    threads.emplace_back([&] {
      Decoder d(cache_texts);
      std::unique_lock lock(m);
      for (;;) {
        changed.wait(lock, [&] { return !waiting.empty() || read_all; });
        if (!decode_one(d, lock) && read_all) return;
      }
    });

  Decoder own(cache_texts);
  auto hand_on = [&](std::unique_ptr<RecordBatch> b) {
    std::unique_lock lock(m);
    waiting.push_back(b.get());
    batches.push_back(std::move(b));
    changed.notify_one();
    while (waiting.size() > kMaxWaiting) decode_one(own, lock);
  };
  auto current = std::make_unique<RecordBatch>();
  Status scanned = store.scan(prefix, [&](std::string_view key, std::string_view value) -> Status {
    current->records.emplace_back(std::string(key), std::string(value));
    if (current->records.size() == kBatch) {
      hand_on(std::move(current));
      current = std::make_unique<RecordBatch>();
    }
    return Ok{};
  });
  if (!current->records.empty()) hand_on(std::move(current));
  {
    std::unique_lock lock(m);
    read_all = true;
    changed.notify_all();
    while (decode_one(own, lock)) {
    }
    changed.wait(lock, [&] { return decoded == batches.size(); });
  }
  for (std::thread& t : threads) t.join();
  if (!scanned) return Error{scanned.error()};

  std::vector<classad::ClassAd> ads;
  std::size_t total = 0;
  for (const auto& b : batches) total += b->ads.size();
  ads.reserve(total);
  for (auto& b : batches) {
    if (b->error) return Error{b->error->message};
    std::move(b->ads.begin(), b->ads.end(), std::back_inserter(ads));
  }
  return ads;
}

unsigned read_back_helpers() {
  const unsigned hardware = std::thread::hardware_concurrency();
  return std::min(3u, hardware > 1 ? hardware - 1 : 0u);
}

}  // namespace cara::persistence
