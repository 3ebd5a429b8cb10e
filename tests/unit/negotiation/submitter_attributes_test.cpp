// Whether a job reads the Submitter* attributes the negotiator adds to its
// copy (user-priorities-and-negotiation, "Priorities in Negotiation and
// Preemption"): a match that reads them is not kept across spins.
#include "model/negotiation/submitter_attributes.h"

#include <catch2/catch.hpp>

#include "model/classad/parser.h"

using namespace cara;

namespace {

classad::ClassAd ad(const std::string& text) {
  auto a = classad::parse_new_classad(text);
  REQUIRE(a);
  return *a;
}

}  // namespace

TEST_CASE("a job reads the Submitter attributes through any of its expressions", "[negotiation][submitter]") {
  using negotiation::reads_submitter_attributes;
  CHECK(reads_submitter_attributes(ad("[Requirements = TARGET.Memory > 10 && SubmitterUserPrio < 5]")));
  CHECK(reads_submitter_attributes(ad("[Requirements = MY.SubmitterGroupQuota > 1]")));
  // Through another attribute of the job, whichever is asked first.
  CHECK(reads_submitter_attributes(ad("[Requirements = Fair; Fair = SubmitterUserResourcesInUse < 8]")));
  CHECK(reads_submitter_attributes(ad("[Rank = 1; Requirements = Fair; Fair = SubmitterGroup == \"g\"]")));
  CHECK_FALSE(reads_submitter_attributes(ad("[Requirements = TARGET.Memory > 10; Rank = KFlops]")));
  CHECK_FALSE(reads_submitter_attributes(ad("[Requirements = Submitter == \"x\"; Cpus = 1]")));
  CHECK_FALSE(reads_submitter_attributes(ad("[RequestCpus = 1]")));
}

TEST_CASE("the answer kept for a tree is the tree's, whichever job holds it", "[negotiation][submitter]") {
  using negotiation::reads_submitter_attributes;
  auto reads = classad::parse_expression("SubmitterUserPrio < 5");
  auto plain = classad::parse_expression("TARGET.Memory > 10");
  REQUIRE(reads);
  REQUIRE(plain);
  classad::ClassAd a, b, c;
  a.insert("Requirements", *reads);
  b.insert("Requirements", *plain);
  c.insert("Rank", *plain);
  c.insert("Requirements", *reads);
  for (int round = 0; round < 3; ++round) {
    CHECK(reads_submitter_attributes(a));
    CHECK_FALSE(reads_submitter_attributes(b));
    CHECK(reads_submitter_attributes(c));
  }
  // A tree dropped and another made (perhaps at its address) is asked anew.
  for (int i = 0; i < 5000; ++i) {
    classad::ClassAd d;
    auto e = classad::parse_expression(i % 2 == 0 ? "SubmitterGroup == \"g\"" : "Cpus > 1");
    REQUIRE(e);
    d.insert("Requirements", *e);
    CHECK(reads_submitter_attributes(d) == (i % 2 == 0));
  }
}
