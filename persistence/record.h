// A record as a store keeps it: a Boost.Serialization binary archive of a
// versioned type (BOOST_CLASS_VERSION: a record written by an older
// version loads into the newer type), sealed in an envelope (envelope.h).
// Decoding turns every failure (a bad envelope, an archive Boost cannot
// read, a version newer than this build knows) into an error naming the
// store and the key: never a silent skip.
#pragma once

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/iostreams/device/array.hpp>
#include <boost/iostreams/stream_buffer.hpp>
#include <boost/serialization/version.hpp>
#include <exception>
#include <sstream>
#include <string>
#include <string_view>

#include "model/common/result.h"
#include "persistence/envelope.h"

namespace cara::persistence {

// Where a record came from, for messages.
struct RecordPlace {
  std::string store;
  std::string key;
  std::string describe() const { return "store " + store + ", key '" + key + "'"; }
};

// The archives run without a header and keep the stream's codecvt facet
// (no_codecvt): records hold no wide strings, and installing the facet
// built a new std::locale per record, a tenth of a restarting schedd's
// reading of its queue.
inline constexpr unsigned kArchiveFlags = boost::archive::no_header | boost::archive::no_codecvt;

template <class T>
std::string encode(const T& record) {
  std::ostringstream out(std::ios::binary);
  {
    boost::archive::binary_oarchive archive(out, kArchiveFlags);
    archive << record;
  }
  return seal(PayloadFormat::BoostBinary, out.str());
}

// A record written by a newer caracara (a newer class version with more
// fields) does not decode: the bytes T does not read are an error.
template <class T>
Result<T> decode(std::string_view stored, const RecordPlace& place) {
  auto payload = open_envelope(stored, PayloadFormat::BoostBinary);
  if (!payload) return Error{place.describe() + ": " + payload.error()};
  T record{};
  try {
    // Read in place, not from a copy.
    boost::iostreams::stream_buffer<boost::iostreams::array_source> in(payload->data(), payload->size());
    boost::archive::binary_iarchive archive(in, kArchiveFlags);
    archive >> record;
    // Boost hands a newer class version to an older serialize(), which
    // reads what it knows: bytes left over mean fields this build would drop.
    const auto left = in.in_avail();
    if (left > 0)
      return Error{place.describe() + ": " + std::to_string(left) +
                   " bytes left over after the record: written by a newer version of caracara?"};
  } catch (const std::exception& e) {
    return Error{place.describe() + ": the record does not decode (" + std::string(e.what()) + ")"};
  }
  return record;
}

}  // namespace cara::persistence
