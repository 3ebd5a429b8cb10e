// The records of the schedd's store (queue_store.h), each a versioned
// Boost.Serialization type: a later version adds fields under a new
// BOOST_CLASS_VERSION and reads the older ones as they were written.
#pragma once

#include <boost/serialization/string.hpp>
#include <boost/serialization/version.hpp>
#include <cstdint>
#include <string>

namespace cara::persistence {

// A job's ad, in the new-ClassAd text the parser reads back exactly
// (unparse round-trips: tests/fuzz).
struct JobRecord {
  std::string ad;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& ad;
  }
};

// The first cluster id the schedd has not handed out.
struct NextClusterRecord {
  std::int64_t next_cluster = 1;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& next_cluster;
  }
};

}  // namespace cara::persistence

BOOST_CLASS_VERSION(cara::persistence::JobRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::NextClusterRecord, 1)
