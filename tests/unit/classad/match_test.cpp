// Matchmaking, and the fast evaluator checked against the reference one on
// random ads and expressions.
#include <random>

#include "model/classad/match.h"
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;

TEST_CASE("symmetric match needs both Requirements", "[match]") {
  ClassAd job = ad(
      "[ RequestMemory = 2048; RequestCpus = 2; Owner = \"alice\"; "
      "Requirements = (TARGET.OpSys == \"LINUX\") && (TARGET.Memory >= MY.RequestMemory) && "
      "(TARGET.Cpus >= MY.RequestCpus); Rank = TARGET.Memory ]");
  ClassAd slot = ad(
      "[ OpSys = \"LINUX\"; Memory = 4096; Cpus = 4; START = TARGET.Owner != \"mallory\"; Requirements = START ]");
  CHECK(symmetric_match(job, slot));
  CHECK(rank(job, slot) == 4096.0);
  slot.set("Memory", 1024);
  CHECK_FALSE(symmetric_match(job, slot));
  slot.set("Memory", 4096);
  job.set("Owner", "mallory");
  CHECK_FALSE(symmetric_match(job, slot));
  ClassAd no_req = ad("[ OpSys = \"LINUX\" ]");
  CHECK_FALSE(symmetric_match(no_req, slot));
  ClassAd numeric = ad("[ Requirements = 1 ]");
  ClassAd any = ad("[ Requirements = true ]");
  CHECK(symmetric_match(numeric, any));  // numbers count as booleans
  ClassAd text_rank = ad("[ Rank = \"high\" ]");
  CHECK(rank(text_rank, any) == 0.0);
}

TEST_CASE("fast and reference evaluators agree on random ads", "[match]") {
  std::mt19937 rng(4242);
  const char* names[] = {"A", "b", "Cpus", "Memory", "OpSys", "x", "y", "Owner"};
  const char* values[] = {"1", "2.5", "\"LINUX\"", "\"alice\"", "true", "undefined", "error", "{1, 2}",
                          "[a = 1]", "-3"};
  const char* ops[] = {"+", "-", "*", "/", "%", "<", ">=", "==", "!=", "=?=", "=!=", "&&", "||", "&", "<<"};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    int k = static_cast<int>(rng() % 10);
    std::string name = names[rng() % std::size(names)];
    if (depth == 0 || k < 2) return values[rng() % std::size(values)];
    switch (k) {
      case 2: return name;
      case 3: return "MY." + name;
      case 4: return "TARGET." + name;
      case 5: return "(" + gen(depth - 1) + " ? " + gen(depth - 1) + " : " + gen(depth - 1) + ")";
      case 6: return "strcat(" + gen(depth - 1) + ", " + gen(depth - 1) + ")";
      case 7: return "(" + gen(depth - 1) + ").a";
      default: return "(" + gen(depth - 1) + " " + ops[rng() % std::size(ops)] + " " + gen(depth - 1) + ")";
    }
  };
  auto random_ad = [&] {
    ClassAd a;
    for (const char* n : names) {
      if (rng() % 3 == 0) continue;
      auto e = parse_expression(gen(3));
      REQUIRE(e.ok());
      a.insert(n, *e);
    }
    return a;
  };
  for (int i = 0; i < 3000; ++i) {
    ClassAd my = random_ad(), target = random_ad();
    auto e = parse_expression(gen(4));
    REQUIRE(e.ok());
    std::string fast = unparse(evaluate(**e, &my, &target));
    std::string ref = unparse(evaluate_reference(**e, &my, &target));
    INFO(unparse(**e));
    REQUIRE(fast == ref);
  }
}
