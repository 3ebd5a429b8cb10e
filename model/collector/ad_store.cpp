#include "model/collector/ad_store.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "model/classad/eval.h"
#include "model/classad/references.h"

namespace cara::collector {
namespace {

constexpr const char* kTypeNames[kAdTypes] = {"Machine",      "Submitter", "Scheduler", "Negotiator",
                                              "DaemonMaster", "Collector", "Defrag",    "Accounting"};

std::string string_attr(const classad::ClassAd& ad, std::string_view name) {
  classad::Value v = classad::evaluate_attr(ad, name);
  return v.is_string() ? std::string(v.as_string()) : std::string();
}

}  // namespace

const char* ad_type_name(AdType t) {
  return kTypeNames[static_cast<int>(t)];
}

std::optional<AdType> parse_ad_type(std::string_view name) {
  if (iequals(name, "slot") || iequals(name, "startd")) return AdType::Machine;
  if (iequals(name, "Master")) return AdType::Master;
  if (iequals(name, "schedd")) return AdType::Scheduler;
  for (int i = 0; i < kAdTypes; ++i)
    if (iequals(name, kTypeNames[i])) return static_cast<AdType>(i);
  return std::nullopt;
}

Result<CollectorPolicy> CollectorPolicy::from_config(const config::Config& config) {
  CollectorPolicy p;
  auto lifetime = config.positive_seconds("CLASSAD_LIFETIME");
  if (!lifetime) return Error{lifetime.error()};
  p.classad_lifetime = *lifetime;
  auto absent_after = config.integer("ABSENT_EXPIRE_ADS_AFTER");
  if (!absent_after) return Error{absent_after.error()};
  if (*absent_after < 0) return Error{"ABSENT_EXPIRE_ADS_AFTER must not be negative"};
  p.absent_expire_after = *absent_after;
  auto offline_after = config.integer("OFFLINE_EXPIRE_ADS_AFTER");
  if (!offline_after) return Error{offline_after.error()};
  if (*offline_after < 0) return Error{"OFFLINE_EXPIRE_ADS_AFTER must not be negative"};
  p.offline_expire_after = *offline_after;
  auto expire_invalidated = config.boolean("EXPIRE_INVALIDATED_ADS");
  if (!expire_invalidated) return Error{expire_invalidated.error()};
  p.expire_invalidated_ads = *expire_invalidated;
  if (config.defined("ABSENT_REQUIREMENTS")) {
    auto e = config.expression("ABSENT_REQUIREMENTS");
    if (!e) return Error{e.error()};
    p.absent_requirements = *e;
  }
  auto interval = config.positive_seconds("COLLECTOR_UPDATE_INTERVAL");
  if (!interval) return Error{interval.error()};
  p.update_interval = *interval;
  for (const char* knob : {"COLLECTOR_NAME", "FULL_HOSTNAME"}) {
    auto name = config.string(knob);
    if (name && !name->empty()) {
      p.name = *name;
      break;
    }
  }
  if (p.name.empty()) p.name = "collector";
  return p;
}

std::string AdStore::key_of(AdType type, const classad::ClassAd& ad) {
  std::string name = string_attr(ad, "Name");
  if (name.empty()) return name;
  // One user submits from several schedds: each schedd's ad is its own.
  if (type == AdType::Submitter) {
    const std::string schedd = string_attr(ad, "ScheddName");
    if (!schedd.empty()) name += "/" + schedd;
  }
  // Several negotiators sharding a pool each account for the same user.
  if (type == AdType::Accounting) {
    const std::string negotiator = string_attr(ad, "NegotiatorName");
    if (!negotiator.empty()) name += "/" + negotiator;
  }
  return name;
}

Status AdStore::update(AdType type, classad::ClassAd ad, std::int64_t now) {
  const std::string key = key_of(type, ad);
  if (key.empty())
    return Error{std::string(ad_type_name(type)) + " ad has no Name attribute (a string is expected)"};
  store(type, key, std::move(ad), now);
  return Ok{};
}

void AdStore::store(AdType type, const std::string& key, classad::ClassAd ad, std::int64_t now) {
  std::int64_t lifetime = policy_.classad_lifetime;
  classad::Value v = classad::evaluate_attr(ad, "ClassAdLifetime");
  if (v.is_int() && v.as_int() > 0) lifetime = v.as_int();
  withdrawn_[static_cast<int>(type)].erase(key);  // its daemon speaks again
  Stored& s = ads_[static_cast<int>(type)][key];
  const bool was_kept = s.absent || s.offline;
  s.ad = std::move(ad);
  s.ad.erase("Absent");  // a returning machine replaces its absent ad
  s.absent = false;
  s.offline = false;
  s.expires = now + lifetime;
  if (type == AdType::Machine) {
    classad::Value offline = classad::evaluate_attr(s.ad, "Offline");
    if (offline.is_bool() && offline.as_bool()) {
      s.offline = true;
      s.expires = policy_.offline_expire_after == 0 ? 0 : now + policy_.offline_expire_after;
    }
  }
  if (was_kept || s.offline) kept_changes_.emplace_back(type, key);
}

bool AdStore::retire(AdType type, Stored& s, std::int64_t now) {
  if (type == AdType::Machine && !s.absent && policy_.absent_requirements &&
      classad::true_at(*policy_.absent_requirements, s.ad, now)) {
    s.absent = true;
    s.ad.set("Absent", true);
    s.expires = policy_.absent_expire_after == 0 ? 0 : now + policy_.absent_expire_after;
    kept_changes_.emplace_back(type, key_of(type, s.ad));
    return true;
  }
  return false;
}

bool AdStore::invalidate(AdType type, const std::string& key, std::int64_t now) {
  withdrawn_[static_cast<int>(type)][key] = now;
  auto& ads = ads_[static_cast<int>(type)];
  auto it = ads.find(key);
  if (it == ads.end()) return false;
  // EXPIRE_INVALIDATED_ADS: "Invalidated ClassAds will instead be treated
  // as if they expired, including when evaluating ABSENT_REQUIREMENTS."
  if (!it->second.offline && policy_.expire_invalidated_ads && retire(type, it->second, now)) return true;
  if (it->second.absent || it->second.offline) kept_changes_.emplace_back(type, key);
  ads.erase(it);
  return true;
}

bool AdStore::lose(AdType type, const std::string& key, std::int64_t now) {
  auto& ads = ads_[static_cast<int>(type)];
  auto it = ads.find(key);
  // An offline ad speaks for a machine that is asleep, not for its sender.
  if (it == ads.end() || it->second.absent || it->second.offline) return false;
  withdrawn_[static_cast<int>(type)][key] = now;
  if (!retire(type, it->second, now)) ads.erase(it);
  return true;
}

bool AdStore::adopt(AdType type, classad::ClassAd ad, std::int64_t now) {
  const std::string key = key_of(type, ad);
  if (key.empty() || find(type, key)) return false;
  const auto& withdrawn = withdrawn_[static_cast<int>(type)];
  if (auto w = withdrawn.find(key); w != withdrawn.end() && now - w->second < policy_.classad_lifetime)
    return false;
  store(type, key, std::move(ad), now);
  return true;
}

std::vector<std::string> AdStore::expire(std::int64_t now) {
  std::vector<std::string> gone;
  for (auto& withdrawn : withdrawn_)
    std::erase_if(withdrawn, [&](const auto& w) { return now - w.second >= policy_.classad_lifetime; });
  for (int t = 0; t < kAdTypes; ++t) {
    auto& ads = ads_[t];
    for (auto it = ads.begin(); it != ads.end();) {
      Stored& s = it->second;
      if (s.expires == 0 || s.expires > now) {
        ++it;
        continue;
      }
      gone.push_back(it->first);
      if (!s.absent && !s.offline && retire(static_cast<AdType>(t), s, now)) {
        ++it;
      } else {
        if (s.absent || s.offline) kept_changes_.emplace_back(static_cast<AdType>(t), it->first);
        it = ads.erase(it);
      }
    }
  }
  return gone;
}

std::vector<classad::ClassAd> AdStore::query(const AdQuery& q, std::int64_t now,
                                             std::vector<std::string>* keys) const {
  bool want_absent = q.absent, want_offline = false;
  const classad::Selection& select = q.selection;
  if (select.constraint) {
    classad::References refs;
    classad::collect_references(*select.constraint, nullptr, refs);
    auto names = [&](const char* attr) {
      return refs.external.count(attr) > 0 || refs.internal.count(attr) > 0;
    };
    want_absent = want_absent || names("Absent");
    want_offline = names("Offline");
  }
  std::vector<classad::ClassAd> out;
  for (const auto& [key, s] : ads_[static_cast<int>(q.type)]) {
    if (s.absent && !want_absent) continue;
    if (s.offline && !want_offline) continue;
    if (!select.selects(s.ad, now)) continue;
    if (keys) keys->push_back(key);
    out.push_back(select.project(s.ad));
  }
  return out;
}

const classad::ClassAd* AdStore::find(AdType type, const std::string& key) const {
  const auto& ads = ads_[static_cast<int>(type)];
  auto it = ads.find(key);
  return it == ads.end() ? nullptr : &it->second.ad;
}

std::vector<std::pair<AdType, std::string>> AdStore::take_kept_changes() {
  return std::exchange(kept_changes_, {});
}

std::optional<KeptAd> AdStore::kept(AdType type, const std::string& key) const {
  const auto& ads = ads_[static_cast<int>(type)];
  auto it = ads.find(key);
  if (it == ads.end() || !(it->second.absent || it->second.offline)) return std::nullopt;
  return KeptAd{type, key, it->second.ad, it->second.expires, it->second.offline};
}

void AdStore::restore_kept(KeptAd ad, std::int64_t now) {
  auto& ads = ads_[static_cast<int>(ad.type)];
  if (ads.count(ad.key)) {  // a live ad came first: the stored one goes
    kept_changes_.emplace_back(ad.type, ad.key);
    return;
  }
  if (ad.expires != 0 && ad.expires <= now) {
    kept_changes_.emplace_back(ad.type, ad.key);
    return;
  }
  if (!ad.offline) ad.ad.set("Absent", true);
  ads[ad.key] = Stored{std::move(ad.ad), ad.expires, !ad.offline, ad.offline};
}

std::optional<std::int64_t> AdStore::next_expiry() const {
  std::optional<std::int64_t> best;
  for (const auto& ads : ads_)
    for (const auto& [key, s] : ads)
      if (s.expires != 0 && (!best || s.expires < *best)) best = s.expires;
  return best;
}

}  // namespace cara::collector
