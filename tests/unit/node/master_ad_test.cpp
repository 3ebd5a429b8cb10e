// The master's DaemonMaster ad, under HTCondor's attribute names
// (condor_status -master).
#include "model/node/master_ad.h"

#include <catch2/catch.hpp>

#include "model/classad/eval.h"

using namespace cara;

TEST_CASE("the DaemonMaster ad names the node, its address and its daemons", "[node][ads]") {
  const classad::ClassAd ad =
      node::master_ad("ep1.example.org", "127.0.0.1:9618", {"STARTD", "SCHEDD"}, {"SCHEDD"}, 1700000000);
  auto text = [&](const char* name) {
    classad::Value v = classad::evaluate_attr(ad, name);
    REQUIRE(v.is_string());
    return std::string(v.as_string());
  };
  CHECK(text("MyType") == "DaemonMaster");
  CHECK(text("Name") == "ep1.example.org");
  CHECK(text("Machine") == "ep1.example.org");
  CHECK(text("MyAddress") == "127.0.0.1:9618");
  CHECK(text("MasterIpAddr") == "127.0.0.1:9618");
  CHECK(text("DaemonList") == "MASTER, STARTD, SCHEDD");
  // The STARTD is down (waiting for its restart): not running.
  CHECK(text("DaemonsRunning") == "MASTER, SCHEDD");
  classad::Value seq = classad::evaluate_attr(ad, "UpdateSequenceNumber");
  CHECK(seq.is_int());
  CHECK(seq.as_int() == 1700000000);
}
