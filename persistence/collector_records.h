// The records of the collector's stores (collector_store.h,
// pool_history_store.h), each a versioned Boost.Serialization type.
#pragma once

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/serialization/version.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace cara::persistence {

// An absent or offline ad: its text (new ClassAd syntax), its type
// (collector::AdType), when it is dropped (0: never) and which it is.
struct KeptAdRecord {
  std::int32_t type = 0;
  std::string ad;
  std::int64_t expires = 0;
  bool offline = false;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& type& ad& expires& offline;
  }
};

// One sample of the pool history: its time and its rows' text.
struct PoolSampleRecord {
  std::int64_t time = 0;
  std::vector<std::string> rows;
  template <class Archive>
  void serialize(Archive& a, unsigned /*version*/) {
    a& time& rows;
  }
};

}  // namespace cara::persistence

BOOST_CLASS_VERSION(cara::persistence::KeptAdRecord, 1)
BOOST_CLASS_VERSION(cara::persistence::PoolSampleRecord, 1)
