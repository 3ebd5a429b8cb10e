#include "persistence/collector_store.h"

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "persistence/collector_records.h"
#include "persistence/record.h"

namespace cara::persistence {
namespace {

constexpr std::string_view kKeptPrefix = "kept/";

std::string kept_key(collector::AdType type, const std::string& key) {
  return std::string(kKeptPrefix) + collector::ad_type_name(type) + "/" + key;
}

}  // namespace

Result<CollectorStore> CollectorStore::open(const std::string& path) {
  auto store = Store::open(path, "collector ads", kSchema);
  if (!store) return Error{store.error()};
  return CollectorStore(std::move(*store));
}

Result<std::vector<collector::KeptAd>> CollectorStore::load() const {
  std::vector<collector::KeptAd> out;
  Status s = store_.scan(kKeptPrefix, [&](std::string_view key, std::string_view value) -> Status {
    const RecordPlace place{store_.name(), std::string(key)};
    auto record = decode<KeptAdRecord>(value, place);
    if (!record) return Error{record.error()};
    if (record->type < 0 || record->type >= collector::kAdTypes)
      return Error{place.describe() + ": unknown ad type " + std::to_string(record->type)};
    auto ad = classad::parse_new_classad(record->ad);
    if (!ad) return Error{place.describe() + ": the ad does not parse: " + ad.error()};
    const auto type = static_cast<collector::AdType>(record->type);
    std::string ad_key = collector::AdStore::key_of(type, *ad);
    if (kept_key(type, ad_key) != key)
      return Error{place.describe() + ": the ad is " + collector::ad_type_name(type) + " '" + ad_key + "'"};
    out.push_back(
        collector::KeptAd{type, std::move(ad_key), std::move(*ad), record->expires, record->offline});
    return Ok{};
  });
  if (!s) return Error{s.error()};
  return out;
}

Status CollectorStore::commit(const collector::AdStore& ads,
                              const std::vector<std::pair<collector::AdType, std::string>>& changes) {
  Batch batch;
  for (const auto& [type, key] : changes) {
    if (auto kept = ads.kept(type, key))
      batch.put(kept_key(type, key),
                encode(KeptAdRecord{static_cast<std::int32_t>(type), classad::unparse(kept->ad),
                                    kept->expires, kept->offline}));
    else
      batch.erase(kept_key(type, key));
  }
  if (batch.empty()) return Ok{};
  return store_.write(batch, true);
}

}  // namespace cara::persistence
