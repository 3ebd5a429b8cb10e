// The negotiator's accountant on disk (DESIGN.md "State and durability"):
// every submitter's and group's record, every claim being charged, and
// when priorities were last updated, committed as one synced batch once
// per cycle (before the cycle's matches go out) and with every
// condor_userprio change (before it is acknowledged). A restarted
// negotiator continues with exactly what was last committed; HTCondor's
// accountant log may lose minutes of it.
//
// Under high availability each commit has a version (term, number) that
// is stored with it, and the whole state travels to the standbys as one
// encoded snapshot (encode_snapshot), which each stores as its own.
//
// Keys: "rec/<lower-cased name>", "claim/<slot>", "meta/last_update",
// "meta/version".
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "model/accounting/accountant.h"
#include "model/common/result.h"
#include "model/ha/election.h"
#include "persistence/store.h"

namespace cara::persistence {

class AccountantStore {
 public:
  static constexpr std::uint32_t kSchema = 1;

  static Result<AccountantStore> open(const std::string& path);

  // The state last committed; nullopt when nothing ever was. A record that
  // does not decode is an error naming the store and the key.
  Result<std::optional<accounting::AccountantState>> load();

  // Stores `state` whole, in one synced batch: records and claims it no
  // longer has are erased. An error means nothing of it was stored.
  Status commit(const accounting::AccountantState& state, ha::StateVersion version = {});

  // The version of what was last committed or loaded ({0, 0}: none).
  ha::StateVersion version() const { return version_; }

  std::size_t commits() const { return commits_; }

 private:
  explicit AccountantStore(Store store) : store_(std::move(store)) {}

  Store store_;
  std::set<std::string> keys_;  // the record and claim keys on disk
  ha::StateVersion version_;
  std::size_t commits_ = 0;
};

// A state and its version as one record for the wire, and back; a
// snapshot that does not decode is an error naming `from`.
std::string encode_snapshot(const accounting::AccountantState& state, ha::StateVersion version);
Result<std::pair<accounting::AccountantState, ha::StateVersion>> decode_snapshot(std::string_view bytes,
                                                                                 const std::string& from);

}  // namespace cara::persistence
