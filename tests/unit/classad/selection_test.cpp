// A query's selection: constraint and projection, as condor_q and
// condor_status take them.
#include "model/classad/selection.h"

#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"

using namespace cara;
using namespace cara::classad;

TEST_CASE("a selection: constraint at a time, projection, and a clear error", "[classad][selection]") {
  const ClassAd job = *parse_classad("[ Owner = \"alice\"; QDate = 100; Cmd = \"/bin/true\" ]");
  auto every = Selection::parse("", {});
  REQUIRE(every);
  CHECK(every->selects(job, 0));
  CHECK(unparse(every->project(job)) == unparse(job));

  auto recent = Selection::parse("time() - QDate < 50", {"Owner", "Missing"});
  REQUIRE(recent);
  CHECK(recent->selects(job, 120));
  CHECK_FALSE(recent->selects(job, 200));
  CHECK(unparse(recent->project(job)) == "[ Owner = \"alice\" ]");

  auto bad = Selection::parse("Owner ==", {});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("constraint") != std::string::npos);
}
