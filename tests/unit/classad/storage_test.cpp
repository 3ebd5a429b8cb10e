// How ads store attributes for speed (bench/RESULTS.md): values cached in
// the lookup index, trees in per-ad arenas, the long-form fast path for
// plain literals, and trees shared through the expression cache. Each must
// be invisible to the language.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <thread>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/expr_cache.h"
#include "model/classad/slot_table.h"
#include "model/common/text.h"
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

TEST_CASE("the expression cache grows from a small table to its capacity, never past it",
          "[storage][cache]") {
  ExprCache cache(1024);
  auto tree = [](const std::string& t) { return *parse_expression(t); };
  for (int i = 0; i < 4000; ++i) {
    const std::string t = "y + " + std::to_string(i);
    cache.put(t, tree(t));
  }
  int kept = 0;
  for (int i = 0; i < 4000; ++i) kept += cache.find("y + " + std::to_string(i)) != nullptr;
  CHECK(kept > 256);  // far more than the first table's 32 slots
  CHECK(kept <= 1024);
  CHECK(cache.find("y + 3999") != nullptr);
}

TEST_CASE("ads holding the same literal value share one tree", "[storage][cache]") {
  ClassAd a, b;
  a.set("Cpus", 8);
  b.set("TotalCpus", 8);
  a.set("OpSys", "LINUX");
  b.set("OpSys", "LINUX");
  a.set("LoadAvg", 0.25);
  b.set("LoadAvg", 0.25);
  a.set("Draining", false);
  b.set("Draining", false);
  CHECK(a.lookup("Cpus").get() == b.lookup("TotalCpus").get());
  CHECK(a.lookup("OpSys").get() == b.lookup("OpSys").get());
  CHECK(a.lookup("LoadAvg").get() == b.lookup("LoadAvg").get());
  CHECK(a.lookup("Draining").get() == b.lookup("Draining").get());
  // Values that differ only in kind or in case stay apart.
  b.set("Cpus", 8.0);
  b.set("Name", "linux");
  b.set("Flag", true);
  CHECK(b.lookup("Cpus").get() != a.lookup("Cpus").get());
  CHECK(unparse(*b.lookup("Cpus")) == "8.0");
  CHECK(unparse(*b.lookup("Name")) == "\"linux\"");
  CHECK(unparse(*b.lookup("Flag")) == "true");
  CHECK(b.lookup("Flag").get() != a.lookup("Draining").get());
  // Long strings get their own trees.
  const std::string long_text(200, 'x');
  a.set("Long", long_text);
  b.set("Long", long_text);
  CHECK(a.lookup("Long").get() != b.lookup("Long").get());
  CHECK(a.find("Long")->literal().as_string() == long_text);
  // Replacing a value in one ad leaves the other's alone.
  a.set("OpSys", "WINDOWS");
  CHECK(unparse(evaluate(*b.lookup("OpSys"), &b, nullptr)) == "\"LINUX\"");
}

TEST_CASE("parse_expression_shared gives one tree per text and never caches an error", "[storage][cache]") {
  auto x = parse_expression_shared("KeyboardIdle > 15 * 60 && LoadAvg < 0.3");
  auto y = parse_expression_shared("KeyboardIdle > 15 * 60 && LoadAvg < 0.3");
  REQUIRE(x.ok());
  REQUIRE(y.ok());
  CHECK(x->get() == y->get());
  // New and old syntax read a backslash differently, so they do not share.
  auto n = parse_expression_shared("\"a\\\\b\"", StringSyntax::New);
  auto o = parse_expression_shared("\"a\\\\b\"", StringSyntax::Old);
  REQUIRE(n.ok());
  REQUIRE(o.ok());
  CHECK(unparse(evaluate(**n, nullptr, nullptr)) == "\"a\\\\b\"");
  CHECK(unparse(evaluate(**o, nullptr, nullptr)) == "\"a\\\\\\\\b\"");
  CHECK_FALSE(parse_expression_shared("1 +").ok());
  CHECK_FALSE(parse_expression_shared("1 +").ok());
}

TEST_CASE("an index keeps finding every attribute as it grows and shrinks", "[storage]") {
  ClassAd ad;
  for (int i = 0; i < 300; ++i) {
    ad.set("A" + std::to_string(i), i);
    for (int k = 0; k <= i; k += 37) {
      const Attribute* a = ad.find("a" + std::to_string(k));
      REQUIRE(a != nullptr);
      CHECK(a->literal().as_int() == k);
    }
    CHECK(ad.find("B" + std::to_string(i)) == nullptr);
  }
  for (int i = 0; i < 300; i += 2) CHECK(ad.erase("A" + std::to_string(i)));
  for (int i = 0; i < 300; ++i) CHECK((ad.find("A" + std::to_string(i)) != nullptr) == (i % 2 == 1));
  ad.shrink_to_fit();
  CHECK(ad.size() == 150);
  CHECK(ad.find("A299")->literal().as_int() == 299);
}

TEST_CASE("erasing keeps the order, the values and every lookup of the attributes left", "[storage]") {
  // Erase takes the entry out of the index in place (backward shift):
  // checked against a plain list over random inserts and erases, with
  // names that crowd a small index and wrap around its end, and a copy
  // taken now and then that must not change.
  std::mt19937 rng(20261208);
  for (int round = 0; round < 200; ++round) {
    ClassAd ad;
    std::vector<std::pair<std::string, long>> model;  // in attribute order
    const int names = 3 + static_cast<int>(rng() % 40);
    for (int step = 0; step < 120; ++step) {
      const std::string name = "N" + std::to_string(rng() % static_cast<unsigned>(names));
      auto at = std::find_if(model.begin(), model.end(),
                             [&](const auto& e) { return cara::iequals(e.first, name); });
      if (rng() % 3 == 0) {
        CHECK(ad.erase(name) == (at != model.end()));
        if (at != model.end()) model.erase(at);
      } else {
        const long v = static_cast<long>(rng() % 1000);
        ad.set(name, v);
        if (at != model.end())
          at->second = v;
        else
          model.emplace_back(name, v);
      }
      ClassAd copy;
      std::vector<std::pair<std::string, long>> copied;
      if (step % 17 == 0) {
        copy = ad;
        copied = model;
      }
      REQUIRE(ad.size() == model.size());
      std::size_t i = 0;
      for (const Attribute& a : ad.attributes()) {
        REQUIRE(i < model.size());
        CHECK(a.name == model[i].first);
        CHECK(a.literal().as_int() == model[i].second);
        ++i;
      }
      for (int n = 0; n < names; ++n) {
        const std::string name = "n" + std::to_string(n);
        auto m = std::find_if(model.begin(), model.end(),
                              [&](const auto& e) { return cara::iequals(e.first, name); });
        const Attribute* a = ad.find(name);
        REQUIRE((a != nullptr) == (m != model.end()));
        if (a != nullptr) CHECK(ev(name + " + 0", &ad) == std::to_string(m->second));
      }
      if (!copied.empty() && !model.empty()) {
        // The copy shares the body that the next change copies first.
        ad.erase(model.front().first);
        model.erase(model.begin());
        REQUIRE(copy.size() == copied.size());
        for (const auto& [name, v] : copied) CHECK(copy.find(name)->literal().as_int() == v);
      }
    }
  }
}

TEST_CASE("copies of an ad share its attributes until one of them changes", "[storage][cow]") {
  ClassAd a;
  a.set("Name", "slot1@ep1");
  a.set("Memory", 2048);
  a.insert("Requirements", *parse_expression("TARGET.RequestMemory <= MY.Memory"));
  ClassAd b = a;
  CHECK(b.shares_with(a));
  CHECK(b.same_as(a));
  // Setting a value an attribute already holds (the same shared literal
  // tree) is no change, and keeps the sharing.
  b.set("Memory", 2048);
  CHECK(b.shares_with(a));
  // A real change unshares the changed copy only.
  b.set("Memory", 4096);
  CHECK_FALSE(b.shares_with(a));
  CHECK(unparse(*a.lookup("Memory")) == "2048");
  CHECK(unparse(*b.lookup("Memory")) == "4096");
  ClassAd job;
  job.set("RequestMemory", 3000);
  CHECK(unparse(evaluate(*a.lookup("Requirements"), &a, &job)) == "false");
  CHECK(unparse(evaluate(*b.lookup("Requirements"), &b, &job)) == "true");
  // Erasing from, inserting into and clearing a copy leave the original alone.
  ClassAd c = a;
  CHECK(c.erase("Name"));
  CHECK_FALSE(c.erase("Name"));
  CHECK(a.find("Name") != nullptr);
  ClassAd d = a;
  d.set("Extra", true);
  CHECK(a.find("Extra") == nullptr);
  CHECK(a.size() == 3);
  ClassAd e = a;
  e.clear();
  CHECK(e.empty());
  CHECK(e.find("Memory") == nullptr);
  CHECK(a.size() == 3);
  ClassAd f = a;
  f.reserve(100);
  f.shrink_to_fit();
  CHECK(a.size() == 3);
  CHECK(f.same_as(a));
  // A changed spelling is a change.
  ClassAd g = a;
  g.insert("MEMORY", a.lookup("Memory"));
  CHECK_FALSE(g.shares_with(a));
  CHECK(g.find("memory")->name == "MEMORY");
  CHECK(a.find("memory")->name == "Memory");
}

TEST_CASE("a moved-from ad is empty and usable", "[storage][cow]") {
  ClassAd a;
  a.set("X", 1);
  ClassAd b = std::move(a);
  CHECK(b.find("X") != nullptr);
  CHECK(a.empty());  // the moved-from state is specified: empty
  CHECK(a.find("X") == nullptr);
  a.set("Y", 2);
  CHECK(a.size() == 1);
  CHECK(b.find("Y") == nullptr);
  ClassAd c;
  c = std::move(b);
  CHECK(c.find("X") != nullptr);
  CHECK(b.find("X") == nullptr);
}

TEST_CASE("copies of one ad change independently on other threads", "[storage][cow]") {
  ClassAd base;
  for (int i = 0; i < 40; ++i) base.set("A" + std::to_string(i), i);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        ClassAd mine = base;  // shares, then unshares on the first change
        mine.set("A" + std::to_string(round % 40), -t);
        ClassAd again = mine;
        again.erase("A0");
        bool good = mine.find("A0") != nullptr && base.find("A0")->literal().as_int() == 0;
        ok[t] += good ? 1 : 0;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK(ok[t] == 200);
  CHECK(base.find("A7")->literal().as_int() == 7);
}

TEST_CASE("ads read through one cache share the trees of values spelled alike", "[storage][cache]") {
  // Two jobs of a cluster as a store holds them: all but ProcId alike.
  auto job = [](int proc) {
    return "[ ClusterId = 5; ProcId = " + std::to_string(proc) +
           "; Requirements = (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= 1); "
           "Env = [ A = \"x\"; B = {1, 2} ]; Cmd = \"/bin/true\" ]";
  };
  ExprCache shared(64);
  auto a = parse_new_classad_sharing(job(0), shared, 5);
  auto b = parse_new_classad_sharing(job(1), shared);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  for (const char* name : {"ClusterId", "Requirements", "Env", "Cmd"}) {
    INFO(name);
    CHECK(a->lookup(name).get() == b->lookup(name).get());
  }
  CHECK(a->lookup("ProcId").get() != b->lookup("ProcId").get());
  // What is read is what the plain parser reads.
  for (int proc : {0, 1}) {
    auto plain = parse_new_classad(job(proc));
    REQUIRE(plain.ok());
    CHECK(plain->same_as(proc == 0 ? *a : *b));
  }
  CHECK(ev("Env.B[1] + ProcId", &*b) == "3");
  // Without the cache the same text gives a tree of its own.
  auto c = parse_new_classad(job(1));
  REQUIRE(c.ok());
  CHECK(c->lookup("Requirements").get() != b->lookup("Requirements").get());
  // An error reads as the plain parser's; nothing of it is kept.
  const std::string bad = "[ A = 1 + ; B = 2 ]";
  CHECK(parse_new_classad_sharing(bad, shared).error() == parse_new_classad(bad).error());
  CHECK(shared.find("1 + ") == nullptr);
}

TEST_CASE("the caches' table keeps two entries whose hashes meet, and drops the older of three",
          "[storage][cache]") {
  struct Entry {
    std::uint64_t hash = 0;
    int value = 0;
    bool empty() const { return value == 0; }
  };
  SlotTable<Entry> table(64);
  auto put = [&](std::uint64_t h, int v) {
    Entry& e = table.place(h);
    e.hash = h;
    e.value = v;
  };
  // 5, 4 + 32 and 5 + 64 share a pair in the first table of 32 slots.
  put(5, 1);
  put(4 + 32, 2);
  REQUIRE(table.find(5));
  REQUIRE(table.find(4 + 32));
  CHECK(table.find(5)->value == 1);
  CHECK(table.find(4 + 32)->value == 2);
  put(5, 3);  // the same hash: its own slot, nothing dropped
  CHECK(table.find(5)->value == 3);
  CHECK(table.find(4 + 32)->value == 2);
  put(5 + 64, 4);  // a third: the older of the two goes
  CHECK(table.find(5 + 64)->value == 4);
  CHECK(table.find(5) == nullptr);  // placed first; rewriting it in place left it the older
  CHECK(table.find(4 + 32)->value == 2);
  CHECK(table.find(7) == nullptr);
  // Growing to 64 slots keeps what fits (nothing else in 69's pair).
  for (std::uint64_t h = 100; h < 140; ++h)
    if ((h & 31) / 2 != 2) put(h, static_cast<int>(h));
  CHECK(table.find(139)->value == 139);
  CHECK(table.find(5 + 64)->value == 4);
}

TEST_CASE("a value spelled as one the cache holds reads as the plain parser reads it, whatever follows it",
          "[storage][cache][issue21]") {
  // The sharing parser takes a cached value without parsing it again when
  // its text up to the next ';' or ']' (a scan that skips strings and
  // brackets) is one the cache holds. Values whose text holds those
  // characters in strings, nested ads, lists, comments and quoted names,
  // read twice through one cache and after other values, must read as
  // the plain parser reads them.
  const std::vector<std::string> values = {
      "\"a;b]c\"",
      "\"esc \\\" ; ] quote\"",
      "[ X = 1; Y = \"]\"; Z = [ W = {1, 2}; V = \";\" ] ]",
      "{ \"x;\", [ A = 1; B = 2 ], { 3, \"]\" } }",
      "1 /* ; ] */ + 2",
      "ifThenElse(A =?= undefined, \"u;\", { 1 })",
      "'quoted;name' + 1",
      "MY.Memory >= 1024 && TARGET.Cpus >= 1",
      "strcat(\"[\", \"(\", \"{\")",
      "-1",
      "true",
  };
  ExprCache shared(64);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      // Each value once as the last attribute (']' follows) and once
      // before another (';' follows), after a value seen before.
      for (const std::string& text :
           {"[ A = 1; V = " + values[i] + " ]",
            "[ V = " + values[i] + "; B = " + values[(i + 1) % values.size()] + "; C = 2 ]"}) {
        INFO(text << ", round " << round);
        auto cached = parse_new_classad_sharing(text, shared);
        auto plain = parse_new_classad(text);
        REQUIRE(plain.ok());
        REQUIRE(cached.ok());
        CHECK(plain->same_as(*cached));
        CHECK(unparse(*plain) == unparse(*cached));
      }
    }
  }
  // A cached value followed by what cannot end a value is parsed, and
  // fails as the plain parser fails.
  REQUIRE(parse_new_classad_sharing("[ A = 1 + 2; B = 3 ]", shared).ok());
  const std::string bad = "[ A = 1 + 2 3; B = 3 ]";
  CHECK(parse_new_classad_sharing(bad, shared).error() == parse_new_classad(bad).error());
}
