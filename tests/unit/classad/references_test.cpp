// Which attributes an expression refers to (internal: of MY, followed
// through MY's own expressions; external: of TARGET).
#include "model/classad/references.h"

#include <catch2/catch.hpp>

#include "model/classad/parser.h"

using namespace cara::classad;

namespace {

std::vector<std::string> names(const NameSet& s) {
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("references split into the ad's own and the target's", "[classad][references]") {
  auto ad = parse_classad(
      "[ Need = RequestMemory * 2; RequestMemory = 100; Loop1 = Loop2; Loop2 = Loop1 + Memory;"
      "  Requirements = TARGET.Memory >= Need && Arch == \"X86_64\" && MY.Loop1 > 0 &&"
      "                 member(Owner, { \"a\", OtherOwner }) && [ x = Inner ].x ]");
  REQUIRE(ad);
  References refs;
  collect_references(*ad->lookup("Requirements"), &*ad, refs);
  // Need is followed to RequestMemory; the Loop1/Loop2 cycle ends; Memory
  // is named both as TARGET.Memory and unscoped (absent from MY).
  CHECK(names(refs.internal) == std::vector<std::string>{"Loop1", "Loop2", "Need", "RequestMemory"});
  CHECK(names(refs.external) == std::vector<std::string>{"Arch", "Memory", "OtherOwner", "Owner"});

  References none;
  collect_references(*ad->lookup("Requirements"), nullptr, none);  // no ad: unscoped names are external
  CHECK(none.external.count("need") == 1);                         // case-insensitive
  CHECK(none.internal == NameSet{"Loop1"});                        // MY.Loop1 stays MY's
}
