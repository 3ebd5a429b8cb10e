#include "persistence/accountant_store.h"

#include "model/common/text.h"
#include "persistence/accountant_records.h"
#include "persistence/record.h"

namespace cara::persistence {
namespace {

constexpr std::string_view kRecordPrefix = "rec/";
constexpr std::string_view kClaimPrefix = "claim/";
constexpr std::string_view kLastUpdate = "meta/last_update";
constexpr std::string_view kVersion = "meta/version";

LimitRecord limit_record(const std::optional<accounting::Limit>& l) {
  LimitRecord r;
  if (!l) return r;
  r.set = true;
  r.value = l->value;
  r.expires = l->expires.has_value();
  r.expires_at = l->expires.value_or(0);
  return r;
}

std::optional<accounting::Limit> limit_of(const LimitRecord& r) {
  if (!r.set) return std::nullopt;
  accounting::Limit l{r.value, std::nullopt};
  if (r.expires) l.expires = r.expires_at;
  return l;
}

CustomerRecordV1 to_record(const accounting::CustomerRecord& c) {
  return CustomerRecordV1{c.name,
                          c.is_group,
                          c.priority,
                          c.factor,
                          c.resources_used,
                          c.weighted_resources_used,
                          c.accumulated_usage,
                          c.weighted_accumulated_usage,
                          c.begin_usage_time,
                          c.last_usage_time,
                          limit_record(c.floor),
                          limit_record(c.ceiling),
                          c.uncharged,
                          c.weighted_uncharged};
}

accounting::CustomerRecord from_record(const CustomerRecordV1& r) {
  accounting::CustomerRecord c;
  c.name = r.name;
  c.is_group = r.is_group;
  c.priority = r.priority;
  c.factor = r.factor;
  c.resources_used = r.resources_used;
  c.weighted_resources_used = r.weighted_resources_used;
  c.accumulated_usage = r.accumulated_usage;
  c.weighted_accumulated_usage = r.weighted_accumulated_usage;
  c.begin_usage_time = r.begin_usage_time;
  c.last_usage_time = r.last_usage_time;
  c.floor = limit_of(r.floor);
  c.ceiling = limit_of(r.ceiling);
  c.uncharged = r.uncharged;
  c.weighted_uncharged = r.weighted_uncharged;
  return c;
}

ChargedClaimRecord to_record(const accounting::ClaimRecord& c) {
  return ChargedClaimRecord{c.slot, c.submitter, c.weight, c.start, c.concurrency_limits};
}

accounting::ClaimRecord from_record(ChargedClaimRecord r) {
  return accounting::ClaimRecord{r.slot, r.submitter, r.weight, r.start, std::move(r.concurrency_limits)};
}

}  // namespace

std::string encode_snapshot(const accounting::AccountantState& state, ha::StateVersion version) {
  AccountantSnapshotRecord snap;
  for (const accounting::CustomerRecord& r : state.records) snap.records.push_back(to_record(r));
  for (const accounting::ClaimRecord& c : state.claims) snap.claims.push_back(to_record(c));
  snap.last_update = state.last_update;
  snap.version = StateVersionRecord{version.term, version.seq};
  return encode(snap);
}

Result<std::pair<accounting::AccountantState, ha::StateVersion>> decode_snapshot(std::string_view bytes,
                                                                                 const std::string& from) {
  auto snap = decode<AccountantSnapshotRecord>(bytes, RecordPlace{from, "accountant snapshot"});
  if (!snap) return Error{snap.error()};
  accounting::AccountantState state;
  for (const CustomerRecordV1& r : snap->records) state.records.push_back(from_record(r));
  for (ChargedClaimRecord& c : snap->claims) state.claims.push_back(from_record(std::move(c)));
  state.last_update = snap->last_update;
  return std::pair{std::move(state), ha::StateVersion{snap->version.term, snap->version.seq}};
}

Result<AccountantStore> AccountantStore::open(const std::string& path) {
  auto store = Store::open(path, "accountant", kSchema);
  if (!store) return Error{store.error()};
  return AccountantStore(std::move(*store));
}

Result<std::optional<accounting::AccountantState>> AccountantStore::load() {
  accounting::AccountantState state;
  keys_.clear();
  auto place = [&](std::string_view key) { return RecordPlace{store_.name(), std::string(key)}; };
  Status records = store_.scan(kRecordPrefix, [&](std::string_view key, std::string_view value) -> Status {
    auto r = decode<CustomerRecordV1>(value, place(key));
    if (!r) return Error{r.error()};
    if (std::string(kRecordPrefix) + to_lower(r->name) != key)
      return Error{place(key).describe() + ": the record is " + r->name + "'s"};
    state.records.push_back(from_record(*r));
    keys_.emplace(key);
    return Ok{};
  });
  if (!records) return Error{records.error()};
  Status claims = store_.scan(kClaimPrefix, [&](std::string_view key, std::string_view value) -> Status {
    auto r = decode<ChargedClaimRecord>(value, place(key));
    if (!r) return Error{r.error()};
    if (std::string(kClaimPrefix) + r->slot != key)
      return Error{place(key).describe() + ": the claim is on " + r->slot};
    state.claims.push_back(from_record(std::move(*r)));
    keys_.emplace(key);
    return Ok{};
  });
  if (!claims) return Error{claims.error()};
  auto last = store_.get(kLastUpdate);
  if (!last) return Error{last.error()};
  if (!*last) {
    if (!keys_.empty())
      return Error{"store " + store_.name() + " (" + store_.path() + "): records without the key '" +
                   std::string(kLastUpdate) + "'"};
    return std::optional<accounting::AccountantState>{};
  }
  auto when = decode<LastUpdateRecord>(**last, place(kLastUpdate));
  if (!when) return Error{when.error()};
  state.last_update = when->last_update;
  auto version = store_.get(kVersion);
  if (!version) return Error{version.error()};
  version_ = {};
  if (*version) {
    auto v = decode<StateVersionRecord>(**version, place(kVersion));
    if (!v) return Error{v.error()};
    version_ = ha::StateVersion{v->term, v->seq};
  }
  return std::optional<accounting::AccountantState>(std::move(state));
}

Status AccountantStore::commit(const accounting::AccountantState& state, ha::StateVersion version) {
  Batch batch;
  std::set<std::string> keys;
  for (const accounting::CustomerRecord& r : state.records) {
    std::string key = std::string(kRecordPrefix) + to_lower(r.name);
    batch.put(key, encode(to_record(r)));
    keys.insert(std::move(key));
  }
  for (const accounting::ClaimRecord& c : state.claims) {
    std::string key = std::string(kClaimPrefix) + c.slot;
    batch.put(key, encode(to_record(c)));
    keys.insert(std::move(key));
  }
  for (const std::string& old : keys_)
    if (!keys.count(old)) batch.erase(old);
  batch.put(std::string(kLastUpdate), encode(LastUpdateRecord{state.last_update}));
  batch.put(std::string(kVersion), encode(StateVersionRecord{version.term, version.seq}));
  if (Status s = store_.write(batch, true); !s) return s;
  keys_ = std::move(keys);
  version_ = version;
  ++commits_;
  return Ok{};
}

}  // namespace cara::persistence
