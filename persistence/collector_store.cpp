#include "persistence/collector_store.h"

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "persistence/collector_records.h"
#include "persistence/record.h"

namespace cara::persistence {
namespace {

constexpr std::string_view kAbsentPrefix = "absent/";

std::string absent_key(collector::AdType type, const std::string& key) {
  return std::string(kAbsentPrefix) + collector::ad_type_name(type) + "/" + key;
}

}  // namespace

Result<CollectorStore> CollectorStore::open(const std::string& path) {
  auto store = Store::open(path, "collector ads", kSchema);
  if (!store) return Error{store.error()};
  return CollectorStore(std::move(*store));
}

Result<std::vector<collector::AbsentAd>> CollectorStore::load() const {
  std::vector<collector::AbsentAd> out;
  Status s = store_.scan(kAbsentPrefix, [&](std::string_view key, std::string_view value) -> Status {
    const RecordPlace place{store_.name(), std::string(key)};
    auto record = decode<AbsentAdRecord>(value, place);
    if (!record) return Error{record.error()};
    if (record->type < 0 || record->type >= collector::kAdTypes)
      return Error{place.describe() + ": unknown ad type " + std::to_string(record->type)};
    auto ad = classad::parse_new_classad(record->ad);
    if (!ad) return Error{place.describe() + ": the ad does not parse: " + ad.error()};
    const auto type = static_cast<collector::AdType>(record->type);
    std::string ad_key = collector::AdStore::key_of(type, *ad);
    if (absent_key(type, ad_key) != key)
      return Error{place.describe() + ": the ad is " + collector::ad_type_name(type) + " '" + ad_key + "'"};
    out.push_back(collector::AbsentAd{type, std::move(ad_key), std::move(*ad), record->expires});
    return Ok{};
  });
  if (!s) return Error{s.error()};
  return out;
}

Status CollectorStore::commit(const collector::AdStore& ads,
                              const std::vector<std::pair<collector::AdType, std::string>>& changes) {
  Batch batch;
  for (const auto& [type, key] : changes) {
    if (auto absent = ads.absent(type, key))
      batch.put(absent_key(type, key), encode(AbsentAdRecord{static_cast<std::int32_t>(type),
                                                             classad::unparse(absent->ad), absent->expires}));
    else
      batch.erase(absent_key(type, key));
  }
  if (batch.empty()) return Ok{};
  return store_.write(batch, true);
}

}  // namespace cara::persistence
