// How ads store attributes for speed (bench/RESULTS.md): values cached in
// the lookup index, trees in per-ad arenas, the long-form fast path for
// plain literals, and trees shared through the expression cache. Each must
// be invisible to the language.
#include <catch2/catch.hpp>

#include "model/classad/classad.h"
#include "model/classad/expr_cache.h"
#include "tests/unit/classad/support.h"

using namespace cara::classad;
using namespace cara::classad::test;

TEST_CASE("values cached in the index follow every change of the attribute", "[storage]") {
  ClassAd a;
  a.set("X", 7);
  CHECK(ev("X + 1", &a) == "8");
  a.set("X", "12345678");  // eight bytes: held in the index itself
  CHECK(ev("X", &a) == "\"12345678\"");
  a.set("x", "123456789");  // nine: read from the attribute
  CHECK(ev("X", &a) == "\"123456789\"");
  a.set("X", 2.5);
  CHECK(ev("X * 2", &a) == "5.0");
  a.set("X", true);
  CHECK(ev("X && true", &a) == "true");
  a.insert("X", *parse_expression("undefined"));
  CHECK(ev("X =?= undefined", &a) == "true");
  a.insert("X", *parse_expression("error"));
  CHECK(ev("isError(X)", &a) == "true");
  a.insert("X", *parse_expression("Y * 3"));
  a.set("Y", 5);
  CHECK(ev("X", &a) == "15");
  CHECK(a.erase("X"));
  CHECK(ev("X", &a) == "undefined");
  CHECK(ev("Y", &a) == "5");
}

TEST_CASE("an attribute keeps the spelling it was inserted with", "[storage]") {
  ClassAd a;
  a.set("RequestMemory", 1);
  ClassAd b;
  b.set("REQUESTMEMORY", 2);
  REQUIRE(a.find("requestmemory"));
  CHECK(a.find("requestmemory")->name == "RequestMemory");
  CHECK(b.find("RequestMemory")->name == "REQUESTMEMORY");
  b.set("requestMemory", 3);  // replacing takes the new spelling
  CHECK(b.find("REQUESTMEMORY")->name == "requestMemory");
  CHECK(unparse(b) == "[ requestMemory = 3 ]");
}

TEST_CASE("trees parsed into an ad's arena outlive the ad", "[storage]") {
  ExprPtr req, owner;
  {
    auto parsed =
        parse_long_form("Owner = \"alice\"\nRequirements = TARGET.Memory >= 2048 && Owner == \"alice\"\n");
    REQUIRE(parsed.ok());
    req = parsed->lookup("Requirements");
    owner = parsed->lookup("Owner");
  }  // the ad is gone; its arena lives on through the trees
  ClassAd my;
  my.insert("Owner", owner);
  ClassAd slot;
  slot.set("Memory", 4096);
  CHECK(unparse(evaluate(*req, &my, &slot)) == "true");
  CHECK(unparse(*owner) == "\"alice\"");
}

TEST_CASE("long-form plain literals build the same trees as the full parser", "[storage][parse]") {
  // The first group takes the fast path, the second must not (their
  // meaning needs the lexer); both must equal what the parser builds.
  const char* values[] = {"1234",
                          "0",
                          "007",
                          "999999999999999999",
                          "\"cms001\"",
                          "\"\"",
                          "\"a b/c\"",
                          "TRUE",
                          "false",
                          "  42  ",
                          "-5",
                          "0x1F",
                          "2K",
                          "1.5",
                          "3.",
                          "1e3",
                          "\"a\\\"b\"",
                          "\"x\\y\"",
                          "9999999999999999999",
                          "12 # no comment syntax in values",
                          "true && false",
                          "\"open"};
  for (const char* v : values) {
    INFO(v);
    auto line = parse_long_form(std::string("A = ") + v);
    auto expr = parse_expression(v, StringSyntax::Old);
    REQUIRE(line.ok() == expr.ok());
    if (!expr.ok()) continue;
    const ExprTree& got = *line->lookup("A");
    CHECK(got.same_as(**expr));
    CHECK(unparse(got) == unparse(**expr));
    CHECK(unparse(evaluate(got, nullptr, nullptr)) == unparse(evaluate(**expr, nullptr, nullptr)));
  }
}

TEST_CASE("ads that spell an expression alike share one cached tree", "[storage][cache]") {
  const std::string job =
      "ProcId = %\nRequirements = (TARGET.Memory >= RequestMemory) && (TARGET.OpSys == \"LINUX\")\n"
      "RequestMemory = ifThenElse(MemoryUsage =!= undefined, MemoryUsage, 2048)\n";
  auto text = [&](int proc) {
    std::string t = job;
    t.replace(t.find('%'), 1, std::to_string(proc));
    return t;
  };
  ExprPtr first_req;
  {
    auto a = parse_long_form(text(0));
    REQUIRE(a.ok());
    first_req = a->lookup("Requirements");
  }  // the ad that first parsed the text is gone
  auto b = parse_long_form(text(1));
  REQUIRE(b.ok());
  CHECK(b->lookup("Requirements").get() == first_req.get());  // the same tree, not a copy
  CHECK(b->lookup("ProcId").get() != nullptr);
  ClassAd slot;
  slot.set("Memory", 4096);
  slot.set("OpSys", "LINUX");
  CHECK(unparse(evaluate(*b->lookup("Requirements"), &*b, &slot)) == "true");

  // White space around a value does not matter; any other difference does.
  auto spaced = parse_long_form("Requirements =   " + unparse(*first_req) + "  \n");
  REQUIRE(spaced.ok());
  auto other =
      parse_long_form("Requirements = (TARGET.Memory >= RequestMemory) && (TARGET.OpSys == \"linux\")\n");
  REQUIRE(other.ok());
  CHECK(other->lookup("Requirements").get() != first_req.get());
  CHECK(unparse(*other->lookup("Requirements")).find("\"linux\"") != std::string::npos);

  // A text that does not parse is never cached: it fails every time.
  CHECK_FALSE(parse_long_form("Requirements = (1 +\n").ok());
  CHECK_FALSE(parse_long_form("Requirements = (1 +\n").ok());
}

TEST_CASE("with the expression cache off every ad gets its own equal tree", "[storage][cache]") {
  const std::string text = "Rank = TARGET.Mips * 2 + (TARGET.Memory / 1024)\n";
  ExprCache::set_enabled(false);
  auto a = parse_long_form(text);
  auto b = parse_long_form(text);
  ExprCache::set_enabled(true);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a->lookup("Rank").get() != b->lookup("Rank").get());
  CHECK(a->lookup("Rank")->same_as(*b->lookup("Rank")));
  auto c = parse_long_form(text);
  REQUIRE(c.ok());
  CHECK(c->lookup("Rank")->same_as(*a->lookup("Rank")));
}

TEST_CASE("the expression cache keeps a bounded set of texts, newest first", "[storage][cache]") {
  ExprCache cache(4);
  auto tree = [](const char* t) { return *parse_expression(t); };
  cache.put("a + 1", tree("a + 1"));
  CHECK(cache.find("a + 1") != nullptr);
  CHECK(cache.find("a + 2") == nullptr);
  for (int i = 0; i < 64; ++i) {
    const std::string t = "x + " + std::to_string(i);
    cache.put(t, tree(t.c_str()));
  }
  int kept = 0;
  for (int i = 0; i < 64; ++i) kept += cache.find("x + " + std::to_string(i)) != nullptr;
  CHECK(kept <= 4);
  CHECK(kept >= 1);
  CHECK(cache.find("x + 63") != nullptr);  // the newest text always stays
  std::string giant(ExprCache::kMaxText + 1, ' ');
  giant += "1";
  cache.put(giant, tree("1"));
  CHECK(cache.find(giant) == nullptr);
}
