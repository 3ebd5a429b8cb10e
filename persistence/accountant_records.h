// The records of the accountant's store (accountant_store.h), versioned
// Boost.Serialization types that mirror the model's (model/ stays free of
// Boost): a later version adds fields under a new BOOST_CLASS_VERSION.
#pragma once

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/version.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace cara::persistence {

// A floor or ceiling (setfloor/setceil), with the time it lapses.
struct LimitRecord {
  bool set = false;
  double value = 0;
  bool expires = false;
  std::int64_t expires_at = 0;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& set& value& expires& expires_at;
  }
};

// A submitter's or group's record (accounting::CustomerRecord).
struct CustomerRecordV1 {
  std::string name;
  bool is_group = false;
  double priority = 0.5, factor = 1;
  double resources_used = 0, weighted_resources_used = 0;
  double accumulated_usage = 0, weighted_accumulated_usage = 0;
  std::int64_t begin_usage_time = 0, last_usage_time = 0;
  LimitRecord floor, ceiling;
  double uncharged = 0, weighted_uncharged = 0;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& name& is_group& priority& factor& resources_used& weighted_resources_used& accumulated_usage&
        weighted_accumulated_usage& begin_usage_time& last_usage_time& floor& ceiling& uncharged&
            weighted_uncharged;
  }
};

// A claim being charged (accounting::ClaimRecord).
struct ChargedClaimRecord {
  std::string slot, submitter;
  double weight = 1;
  std::int64_t start = 0;
  std::vector<std::string> concurrency_limits;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& slot& submitter& weight& start& concurrency_limits;
  }
};

// When the priorities were last updated.
struct LastUpdateRecord {
  std::int64_t last_update = 0;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& last_update;
  }
};

// The state's version under high availability (model/ha/election.h): the
// election term it was committed in and the commit's number.
struct StateVersionRecord {
  std::int64_t term = 0, seq = 0;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& term& seq;
  }
};

// The whole state in one record: what the active negotiator sends its
// standbys (replication), each one storing it as its own.
struct AccountantSnapshotRecord {
  std::vector<CustomerRecordV1> records;
  std::vector<ChargedClaimRecord> claims;
  std::int64_t last_update = 0;
  StateVersionRecord version;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& records& claims& last_update& version;
  }
};

}  // namespace cara::persistence

BOOST_CLASS_VERSION(cara::persistence::StateVersionRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::AccountantSnapshotRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::LimitRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::CustomerRecordV1, 1)
BOOST_CLASS_VERSION(cara::persistence::ChargedClaimRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::LastUpdateRecord, 1)
