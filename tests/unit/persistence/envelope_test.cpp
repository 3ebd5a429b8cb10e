// Every stored value is sealed (persistence/envelope.h) and every record
// versioned (persistence/record.h): what is wrong with one that does not
// open or decode is said, with the store and key.
#include "persistence/envelope.h"

#include <catch2/catch.hpp>
#include <string>

#include "persistence/record.h"

using namespace cara;
using namespace cara::persistence;

namespace {

// Version 1 of a record: a name and a usage.
struct UsageV1 {
  std::string name;
  double usage = 0;
  template <class A>
  void serialize(A& a, unsigned /*version*/) {
    a& name& usage;
  }
};

// Version 2 adds a factor; a version-1 record loads with the default.
struct UsageV2 {
  std::string name;
  double usage = 0;
  double factor = 1000;
  template <class A>
  void serialize(A& a, unsigned version) {
    a& name& usage;
    if (version >= 2) a& factor;
  }
};

}  // namespace

BOOST_CLASS_VERSION(UsageV1, 1)
BOOST_CLASS_VERSION(UsageV2, 2)

TEST_CASE("a sealed value opens to its payload, and a damaged one says what is wrong", "[persistence]") {
  const std::string sealed = seal(PayloadFormat::BoostBinary, "payload");
  auto opened = open_envelope(sealed, PayloadFormat::BoostBinary);
  REQUIRE(opened);
  CHECK(*opened == "payload");

  std::string flipped = sealed;
  flipped.back() ^= 0x01;
  CHECK(open_envelope(flipped, PayloadFormat::BoostBinary).error() ==
        "checksum mismatch: the value is corrupted");
  CHECK_THAT(open_envelope(sealed.substr(0, sealed.size() - 2), PayloadFormat::BoostBinary).error(),
             Catch::Contains("the envelope says 7 bytes, the value holds 5"));
  CHECK_THAT(open_envelope("abc", PayloadFormat::BoostBinary).error(),
             Catch::Contains("shorter than its 9-byte envelope"));
  std::string other = sealed;
  other[0] = 9;
  CHECK_THAT(open_envelope(other, PayloadFormat::BoostBinary).error(),
             Catch::Contains("unknown payload format 9"));
}

TEST_CASE("the envelope's checksum is the standard CRC-32, so stores written by earlier builds open",
          "[persistence]") {
  // The check value of CRC-32/ISO-HDLC ("123456789" -> 0xCBF43926), stored
  // little-endian after the format byte and the length.
  const std::string sealed = seal(PayloadFormat::BoostBinary, "123456789");
  REQUIRE(sealed.size() == 9 + 9);
  CHECK(sealed.substr(5, 4) == std::string("\x26\x39\xF4\xCB", 4));
  // A value sealed by the Boost CRC this store used first.
  const std::string earlier = std::string("\x01\x09\x00\x00\x00\x26\x39\xF4\xCB", 9) + "123456789";
  auto opened = open_envelope(earlier, PayloadFormat::BoostBinary);
  REQUIRE(opened);
  CHECK(*opened == "123456789");
}

TEST_CASE("records round-trip, and a version-1 record loads into the version-2 type", "[persistence]") {
  const RecordPlace place{"accountant", "user/alice@pool"};
  const std::string v1 = encode(UsageV1{"alice@pool", 12.5});
  auto back = decode<UsageV1>(v1, place);
  REQUIRE(back);
  CHECK(back->name == "alice@pool");
  CHECK(back->usage == 12.5);
  auto upgraded = decode<UsageV2>(v1, place);
  REQUIRE(upgraded);
  CHECK(upgraded->usage == 12.5);
  CHECK(upgraded->factor == 1000);  // not in version 1: the default
  auto v2 = decode<UsageV2>(encode(UsageV2{"bob@pool", 3, 10}), place);
  REQUIRE(v2);
  CHECK(v2->factor == 10);
}

TEST_CASE("a record that does not decode is an error naming the store and key, never a default",
          "[persistence]") {
  const RecordPlace place{"accountant", "user/alice@pool"};
  // Written by a newer build (version 2) than the reader knows (version 1).
  auto newer = decode<UsageV1>(encode(UsageV2{"alice@pool", 1, 2}), place);
  REQUIRE_FALSE(newer);
  CHECK_THAT(newer.error(), Catch::StartsWith("store accountant, key 'user/alice@pool': 8 bytes left over") &&
                                Catch::Contains("newer version"));
  // Garbage in a valid envelope: Boost would allocate without bound; the
  // error says so instead.
  auto garbage = decode<UsageV1>(seal(PayloadFormat::BoostBinary, std::string(16, '\xff')), place);
  REQUIRE_FALSE(garbage);
  CHECK_THAT(garbage.error(), Catch::Contains("store accountant, key 'user/alice@pool'"));
  auto corrupted = decode<UsageV1>("not an envelope at all", place);
  REQUIRE_FALSE(corrupted);
  CHECK_THAT(corrupted.error(), Catch::Contains("store accountant, key 'user/alice@pool': "));
}
