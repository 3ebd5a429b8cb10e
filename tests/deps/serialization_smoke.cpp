// Boost.Serialization 1.74: a versioned record round-trips through a binary archive.
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/string.hpp>
#include <catch2/catch.hpp>
#include <sstream>

namespace {
struct Record {
  std::string user;
  double usage = 0;
  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar & user & usage;
  }
};
}  // namespace

TEST_CASE("boost serialization round-trips a record", "[deps]") {
  std::stringstream buf;
  {
    boost::archive::binary_oarchive out(buf, boost::archive::no_header);
    Record r{"alice@pool", 12.5};
    out << r;
  }
  boost::archive::binary_iarchive in(buf, boost::archive::no_header);
  Record back;
  in >> back;
  CHECK(back.user == "alice@pool");
  CHECK(back.usage == 12.5);
}
