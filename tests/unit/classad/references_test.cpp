// Which attributes an expression refers to (internal: of MY, followed
// through MY's own expressions; external: of TARGET).
#include "model/classad/references.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/classad/symbol.h"
#include "model/common/text.h"

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

TEST_CASE("references by symbol are those by name, each once in the order met", "[classad][references]") {
  auto ad = parse_classad(
      "[ Need = RequestMemory * 2; RequestMemory = 100; Loop1 = Loop2; Loop2 = Loop1 + Memory;"
      "  Rank = memory + TARGET.KFlops; "
      "  Requirements = TARGET.Memory >= Need && Arch == \"X86_64\" && MY.Loop1 > 0 &&"
      "                 member(Owner, { \"a\", OtherOwner }) && [ x = Inner ].x ]");
  REQUIRE(ad);
  SymbolReferences by_symbol;
  References by_name;
  // Added up over two expressions, as a slot class's ranks are.
  for (const char* attr : {"Requirements", "Rank"}) {
    collect_references(*ad->lookup(attr), &*ad, by_symbol);
    collect_references(*ad->lookup(attr), &*ad, by_name);
  }
  // Spelled in lower case: a symbol keeps the first spelling the process
  // interned, which another test may have chosen.
  auto lower = [](std::vector<std::string> v) {
    for (std::string& s : v) s = cara::to_lower(s);
    return v;
  };
  auto spelled = [&](const std::vector<Symbol>& symbols) {
    std::vector<std::string> out;
    for (Symbol s : symbols) out.emplace_back(symbol_name(s));
    return lower(out);
  };
  CHECK(spelled(by_symbol.internal) == std::vector<std::string>{"need", "requestmemory", "loop1", "loop2"});
  CHECK(spelled(by_symbol.external) ==
        std::vector<std::string>{"memory", "arch", "owner", "otherowner", "kflops"});
  auto sorted = [](std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  CHECK(sorted(spelled(by_symbol.internal)) == lower(names(by_name.internal)));
  CHECK(sorted(spelled(by_symbol.external)) == lower(names(by_name.external)));
  CHECK(by_name.external.count("MEMORY") == 1);  // `memory` and `Memory`: one name
}

TEST_CASE("attribute names order without case, as strcasecmp orders them", "[classad][references]") {
  const NameLess less;
  CHECK(less("abc", "ABD"));
  CHECK_FALSE(less("ABC", "abc"));
  CHECK_FALSE(less("abc", "ABC"));
  CHECK(less("ab", "ABC"));  // a prefix first
  CHECK_FALSE(less("abc", "AB"));
  CHECK(less("_", "Z"));  // by the lower-case letter: '_' (95) before 'z' (122)
  CHECK_FALSE(less("Z", "_"));
}
