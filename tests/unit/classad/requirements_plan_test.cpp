// Matchmaking's conjunct-by-conjunct answers (conjuncts.h, scalar.h,
// RequirementsPlan, match_each) against evaluating the whole Requirements.
#include "model/classad/requirements_plan.h"

#include <functional>
#include <random>

#include "model/classad/match.h"
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;

namespace {

// What matchmaking must answer: the whole expression evaluated, then taken
// as a boolean (numbers counting).
bool truth(const ClassAd& my, const ClassAd& target) {
  const auto req = my.lookup("Requirements");
  if (!req) return false;
  bool b = false;
  return evaluate(*req, &my, &target).bool_equiv(b) && b;
}

}  // namespace

TEST_CASE("a plan compares scalars and leaves the rest to the evaluator", "[match][plan]") {
  ClassAd job =
      ad("[ RequestMemory = 2048; RequestCpus = 2; Big = RequestMemory * 2; "
         "Requirements = TARGET.OpSys == \"linux\" && TARGET.Memory >= RequestMemory && "
         "MY.RequestCpus <= Cpus && TARGET.Disk >= Big && HasDocker ]");
  ClassAd slot = ad("[ OpSys = \"LINUX\"; Memory = 4096; Cpus = 2; Disk = 5000; HasDocker = true ]");
  const RequirementsPlan plan(job);
  CHECK(plan.holds(slot));  // == on strings ignores case; Cpus, HasDocker from TARGET
  slot.set("Disk", 4000);   // Big is an expression: evaluated, 4096
  CHECK_FALSE(plan.holds(slot));
  slot.set("Disk", 4096);
  CHECK(plan.holds(slot));
  slot.set("Memory", 1024.5);  // a real: the evaluator compares it
  CHECK_FALSE(plan.holds(slot));
  slot.set("Memory", 2048.0);
  CHECK(plan.holds(slot));
  slot.erase("HasDocker");  // undefined: not true
  CHECK_FALSE(plan.holds(slot));
  slot.set("HasDocker", 1);  // a number counts as a boolean in &&
  CHECK(plan.holds(slot));
  slot.set("Cpus", 1);
  CHECK_FALSE(plan.holds(slot));
  // A slot attribute that reads the job is evaluated with the scopes swapped.
  slot.set("Cpus", 4);
  slot.insert("Memory", *parse_expression("TARGET.RequestMemory"));
  CHECK(plan.holds(slot));

  ClassAd literal = ad("[ Requirements = true ]");
  CHECK(RequirementsPlan(literal).holds(slot));
  ClassAd none = ad("[ A = 1 ]");
  CHECK_FALSE(RequirementsPlan(none).holds(slot));
  ClassAd missing_my = ad("[ Requirements = MY.Nope == undefined || TARGET.Cpus > MY.Nope ]");
  CHECK(RequirementsPlan(missing_my).holds(slot) == truth(missing_my, slot));
}

TEST_CASE("a chain of conjuncts deeper than the walk's reach", "[match][plan]") {
  std::string req = "Cpus >= 1";
  for (int i = 0; i < 60; ++i) req += " && Cpus >= " + std::to_string(i % 3);
  ClassAd job = ad("[ Requirements = " + req + " ]");
  ClassAd slot = ad("[ Cpus = 2 ]");
  CHECK(RequirementsPlan(job).holds(slot));
  CHECK(requirements_met(job, slot));
  slot.set("Cpus", 1);
  CHECK_FALSE(RequirementsPlan(job).holds(slot));
  CHECK_FALSE(requirements_met(job, slot));
}

TEST_CASE("plans, conjunct walks and match_each agree with whole evaluation on random ads", "[match][plan]") {
  std::mt19937 rng(9090);
  const char* names[] = {"Cpus", "Memory", "OpSys", "x", "Owner", "HasDocker"};
  const char* values[] = {"1",         "2",         "4096",   "2.5",  "\"LINUX\"",
                          "\"linux\"", "\"alice\"", "3000",   "true", "false",
                          "undefined", "error",     "{1, 2}", "-3",   "3K"};
  const char* compare[] = {"<", "<=", "==", "!=", ">=", ">", "=?=", "=!="};
  auto pick = [&](const auto& list) { return std::string(list[rng() % std::size(list)]); };
  std::function<std::string(int)> operand = [&](int depth) -> std::string {
    switch (rng() % 7) {
      case 0: return pick(values);
      case 1: return "MY." + pick(names);
      case 2: return "TARGET." + pick(names);
      case 3: return pick(names);
      case 4: return depth > 0 ? "(" + operand(depth - 1) + " + " + operand(depth - 1) + ")" : pick(values);
      case 5: return depth > 0 ? "(" + operand(depth - 1) + " || " + operand(depth - 1) + ")" : pick(names);
      default: return "TARGET." + pick(names);
    }
  };
  auto conjunct = [&]() -> std::string {
    if (rng() % 5 == 0) return operand(1);
    return operand(1) + " " + pick(compare) + " " + operand(1);
  };
  auto requirements = [&] {
    std::string r = conjunct();
    const int n = static_cast<int>(rng() % 5);
    for (int i = 0; i < n; ++i) r = rng() % 4 == 0 ? "(" + r + ") && " + conjunct() : r + " && " + conjunct();
    return r;
  };
  auto random_ad = [&] {
    ClassAd a;
    for (const char* n : names) {
      if (rng() % 4 == 0) continue;
      auto e = parse_expression(rng() % 4 == 0 ? operand(1) : pick(values));
      REQUIRE(e.ok());
      a.insert(n, *e);
    }
    auto req = parse_expression(requirements());
    REQUIRE(req.ok());
    a.insert("Requirements", *req);
    return a;
  };
  int met = 0;
  for (int round = 0; round < 300; ++round) {
    ClassAd job = random_ad();
    std::vector<ClassAd> slots;
    for (int i = 0; i < 20; ++i) slots.push_back(random_ad());
    std::vector<const ClassAd*> ptrs;
    for (const ClassAd& s : slots) ptrs.push_back(&s);
    const RequirementsPlan plan(job);
    std::vector<std::uint32_t> expected, matched;
    for (std::uint32_t i = 0; i < slots.size(); ++i) {
      INFO(unparse(*job.lookup("Requirements")) << "  against  " << unparse_long_form(slots[i]));
      const bool whole = truth(job, slots[i]);
      REQUIRE(plan.holds(slots[i]) == whole);
      REQUIRE(requirements_met(job, slots[i]) == whole);
      const bool both = whole && truth(slots[i], job);
      REQUIRE(symmetric_match(job, slots[i]) == both);
      if (both) expected.push_back(i);
      met += whole;
    }
    match_each(job, ptrs, matched);
    REQUIRE(matched == expected);
  }
  CHECK(met > 200);  // the random Requirements are not all false
}

TEST_CASE("a number with a unit suffix is a real (3K is 3072.0), not the integer written", "[match][plan]") {
  ClassAd job = ad("[ Requirements = TARGET.x < 3K ]");
  ClassAd slot = ad("[ x = 3000 ]");
  CHECK(truth(job, slot));
  CHECK(RequirementsPlan(job).holds(slot));
}
