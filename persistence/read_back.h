// Ads read back from a store on several threads (issue 21: a schedd
// restarted with 100 k jobs queued answers within 2 s). The calling thread
// scans the store in key order, as Store::scan does, and hands the records
// on in batches; it and `helpers` other threads decode the batches, each
// with its own ExprCache (values spelled alike share one tree per thread:
// a cluster's jobs spell nearly every value alike). Parsing the ads, not
// reading RocksDB, was nine tenths of the read-back.
//
// The result is what decoding every record in key order on one thread
// gives: the same ads in the same order, or the error of the first record
// (in key order) that does not decode — never a skip.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr_cache.h"
#include "model/common/result.h"
#include "persistence/store.h"

namespace cara::persistence {

// Decodes one record. `cache` and `last_size` are the decoding thread's
// own: the trees of the values it read before, and the attribute count of
// the ad it decoded last (the next one's likely size).
using AdDecoder = std::function<Result<classad::ClassAd>(std::string_view key, std::string_view value,
                                                         classad::ExprCache& cache, std::size_t& last_size)>;

// Every record under `prefix`, decoded by `decode` on the calling thread
// and `helpers` more; `cache_texts`: the size of each thread's cache.
// `decode` must be safe to call on several threads at once.
Result<std::vector<classad::ClassAd>> read_ads_back(const Store& store, std::string_view prefix,
                                                    const AdDecoder& decode, unsigned helpers,
                                                    std::size_t cache_texts);

// The helpers a read-back uses on this machine: one fewer than its
// hardware threads, at most three.
unsigned read_back_helpers();

}  // namespace cara::persistence
