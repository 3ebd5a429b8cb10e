// The collector's store of absent and offline ads (central-manager-
// configuration, "Absent ClassAds": "Absent ClassAds, like offline
// ClassAds, are stored to disk to ensure that they are remembered, even
// across condor_collector crashes"; COLLECTOR_PERSISTENT_AD_LOG): a
// restarted collector still shows the machines that went away or sleep.
// Keys "kept/<type>/<key>".
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/collector/ad_store.h"
#include "model/common/result.h"
#include "persistence/store.h"

namespace cara::persistence {

class CollectorStore {
 public:
  static constexpr std::uint32_t kSchema = 1;
  static Result<CollectorStore> open(const std::string& path);

  // Every absent ad stored. A record that does not decode is an error
  // naming the store and the key.
  Result<std::vector<collector::KeptAd>> load() const;
  // Stores what `changes` (AdStore::take_kept_changes) name as `ads` has
  // them now, with one synced write: absent and offline ads put, the
  // others erased.
  Status commit(const collector::AdStore& ads,
                const std::vector<std::pair<collector::AdType, std::string>>& changes);

 private:
  explicit CollectorStore(Store store) : store_(std::move(store)) {}
  Store store_;
};

}  // namespace cara::persistence
