// The collector's ads as a pure model (central-manager-configuration,
// "Absent ClassAds"; user-priorities-and-negotiation, "the
// condor_collector will discard ClassAds older than CLASSAD_LIFETIME"):
// ads by type and name, each with the time it expires; invalidation;
// absent Machine ads; queries with a constraint and a projection.
//
// The collector actor owns one and calls expire() on a timer; the clock
// comes in as `now`. Absent and offline ads are kept across a collector
// restart ("Absent ClassAds, like offline ClassAds, are stored to disk";
// COLLECTOR_PERSISTENT_AD_LOG): the store notes which of them changed
// (take_kept_changes) for the actor to store, and takes them back
// (restore_kept). An offline ad is a Machine ad sent with Offline = true
// (HTCondor's power management advertises a sleeping machine so): it
// outlives CLASSAD_LIFETIME (OFFLINE_EXPIRE_ADS_AFTER) and, like an absent
// ad, is returned only to a query whose constraint names Offline.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr.h"
#include "model/classad/selection.h"
#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::collector {

// The ad types a collector keeps (HTCondor's MyType values).
enum class AdType { Machine, Submitter, Scheduler, Negotiator, Master, Collector, Defrag, Accounting };
inline constexpr int kAdTypes = 8;

const char* ad_type_name(AdType t);
// "Machine", "slot" and "startd" name Machine ads; case-insensitive.
std::optional<AdType> parse_ad_type(std::string_view name);

struct CollectorPolicy {
  std::int64_t classad_lifetime = 900;                // CLASSAD_LIFETIME
  classad::ExprPtr absent_requirements;               // ABSENT_REQUIREMENTS (null: no absent ads)
  std::int64_t absent_expire_after = 30 * 24 * 3600;  // ABSENT_EXPIRE_ADS_AFTER; 0 = never
  std::int64_t offline_expire_after = 0;              // OFFLINE_EXPIRE_ADS_AFTER; 0 = never
  bool expire_invalidated_ads = false;                // EXPIRE_INVALIDATED_ADS
  std::string name = "collector";                     // COLLECTOR_NAME, else FULL_HOSTNAME: its own ad's
  std::int64_t update_interval = 900;                 // COLLECTOR_UPDATE_INTERVAL: its own ad's refresh

  static Result<CollectorPolicy> from_config(const config::Config& config);
};

struct AdQuery {
  AdType type = AdType::Machine;
  classad::Selection selection;
  // Absent ads are returned only when asked for, or when the constraint
  // names the Absent attribute (condor_status -absent).
  bool absent = false;
};

// An absent or offline ad as it is stored across restarts.
struct KeptAd {
  AdType type = AdType::Machine;
  std::string key;
  classad::ClassAd ad;
  std::int64_t expires = 0;  // 0: never (ABSENT_ / OFFLINE_EXPIRE_ADS_AFTER = 0)
  bool offline = false;      // else absent
};

class AdStore {
 public:
  explicit AdStore(CollectorPolicy policy) : policy_(std::move(policy)) {}
  // A reconfiguration: stored ads keep their expiry times; what comes next
  // follows `policy`.
  void set_policy(CollectorPolicy policy) { policy_ = std::move(policy); }

  // Stores (or replaces) an ad; its key is its Name (Submitter ads:
  // Name and ScheddName; Accounting ads: Name and NegotiatorName). An ad
  // without a Name is refused. A returning
  // machine's update replaces its absent ad. The ad expires after its
  // ClassAdLifetime attribute, else CLASSAD_LIFETIME.
  Status update(AdType type, classad::ClassAd ad, std::int64_t now);
  // Stores an ad under a key the caller knows (the collector's own ad).
  void store(AdType type, const std::string& key, classad::ClassAd ad, std::int64_t now);
  // The daemon asks for its ad to go: removed, or treated as expired with
  // EXPIRE_INVALIDATED_ADS. Returns whether an ad was there.
  bool invalidate(AdType type, const std::string& key, std::int64_t now);
  // The daemon that sent the ad is gone without a word (its node died or
  // stopped answering): the ad expires now, becoming absent if
  // ABSENT_REQUIREMENTS accepts it. Returns whether a live ad was there.
  bool lose(AdType type, const std::string& key, std::int64_t now);
  // An ad a peer collector holds (another central manager's, issue 22):
  // taken when none is stored under its key and none was withdrawn here
  // (invalidated, or its daemon lost) within CLASSAD_LIFETIME — a peer may
  // not have heard of the withdrawal yet, and must not bring the ad back.
  // Returns whether it was taken.
  bool adopt(AdType type, classad::ClassAd ad, std::int64_t now);
  // Expires what is due: an expiring Machine ad that ABSENT_REQUIREMENTS
  // accepts stays as absent (Absent = true) for ABSENT_EXPIRE_ADS_AFTER;
  // others are dropped. Returns the keys dropped or made absent.
  std::vector<std::string> expire(std::int64_t now);

  // The ads that match, in key order; `keys`, when given, gets their keys.
  std::vector<classad::ClassAd> query(const AdQuery& q, std::int64_t now,
                                      std::vector<std::string>* keys = nullptr) const;
  // The ad by key, absent or not (null when none).
  const classad::ClassAd* find(AdType type, const std::string& key) const;
  std::size_t size(AdType type) const { return ads_[static_cast<int>(type)].size(); }
  // The ads that became absent or offline, came back or were dropped as
  // such since the last call (each may repeat), in the order it happened.
  std::vector<std::pair<AdType, std::string>> take_kept_changes();
  // The absent or offline ad under `key`, if there is one.
  std::optional<KeptAd> kept(AdType type, const std::string& key) const;
  // An ad read back from the store: kept unless a live ad has the key, or
  // its time ran out by `now` (then noted as a change).
  void restore_kept(KeptAd ad, std::int64_t now);

  // The earliest expiry, so the actor can set one timer.
  std::optional<std::int64_t> next_expiry() const;

  // The key an ad is stored under (empty when it has no Name).
  static std::string key_of(AdType type, const classad::ClassAd& ad);

 private:
  struct Stored {
    classad::ClassAd ad;
    std::int64_t expires = 0;  // 0: never
    bool absent = false;
    bool offline = false;
  };
  // Expires one ad; returns false when it is dropped.
  bool retire(AdType type, Stored& s, std::int64_t now);

  CollectorPolicy policy_;
  std::map<std::string, Stored> ads_[kAdTypes];
  std::map<std::string, std::int64_t> withdrawn_[kAdTypes];  // key → when; adopt() skips these
  std::vector<std::pair<AdType, std::string>> kept_changes_;
};

}  // namespace cara::collector
