// MY/TARGET scoping under old-ClassAd semantics, nested ads, cycles.
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;
using cara::classad::test::ev;

TEST_CASE("unscoped names look in MY, then TARGET", "[scoping]") {
  ClassAd my = ad("[ x = 7; z = 10 ]");
  ClassAd target = ad("[ x = 8; y = 9 ]");
  CHECK(ev("x", &my, &target) == "7");
  CHECK(ev("y", &my, &target) == "9");
  CHECK(ev("z", &my, &target) == "10");
  CHECK(ev("MY.x", &my, &target) == "7");
  CHECK(ev("TARGET.x", &my, &target) == "8");
  CHECK(ev("my.y", &my, &target) == "undefined");  // MY. never falls back
  CHECK(ev("target.z", &my, &target) == "undefined");
  CHECK(ev("TARGET.x", &my, nullptr) == "undefined");
  CHECK(ev("x", nullptr, &target) == "8");
  CHECK(ev("X + Z", &my, &target) == "17");  // names are case-insensitive
}

TEST_CASE("an attribute of TARGET is evaluated with MY and TARGET swapped", "[scoping]") {
  ClassAd job = ad("[ RequestMemory = 2048; Owner = \"alice\"; Mem = TARGET.Memory ]");
  ClassAd slot = ad("[ Memory = 4096; Fits = TARGET.RequestMemory <= MY.Memory; Who = Owner ]");
  CHECK(ev("TARGET.Fits", &job, &slot) == "true");
  CHECK(ev("TARGET.Who", &job, &slot) == "\"alice\"");  // unscoped in slot falls back to the job
  CHECK(ev("Mem", &job, &slot) == "4096");
  CHECK(ev("TARGET.Fits", &slot, &job) == "undefined");
}

TEST_CASE("reference cycles evaluate to error", "[scoping]") {
  ClassAd a = ad("[ a = b; b = a; c = c + 1; d = eval(\"d\"); e = { e }; f = 1 ]");
  CHECK(ev("a", &a) == "error");
  CHECK(ev("c", &a) == "error");
  CHECK(ev("d", &a) == "error");
  CHECK(ev("e", &a) == "{ error }");
  CHECK(ev("f + 1", &a) == "2");
  ClassAd m = ad("[ x = TARGET.y ]");
  ClassAd t = ad("[ y = TARGET.x ]");
  CHECK(ev("x", &m, &t) == "error");
  // A long, non-cyclic chain still evaluates.
  std::string chain = "[ a0 = 1";
  for (int i = 1; i < 100; ++i) chain += "; a" + std::to_string(i) + " = a" + std::to_string(i - 1) + " + 1";
  ClassAd c = ad(chain + " ]");
  CHECK(ev("a99", &c) == "100");
}

TEST_CASE("a very long cycle-free chain is bounded, not a crash", "[scoping]") {
  std::string chain = "[ a0 = 1";
  for (int i = 1; i < 5000; ++i) chain += "; a" + std::to_string(i) + " = a" + std::to_string(i - 1);
  ClassAd c = ad(chain + " ]");
  CHECK(ev("a4999", &c) == "error");
}

TEST_CASE("nested ads see their enclosing ad", "[scoping]") {
  ClassAd a = ad("[ a = 1; b = [ c = a + 1; d = [ e = c * 10 ] ] ]");
  CHECK(ev("b.c", &a) == "2");
  CHECK(ev("b.d.e", &a) == "20");
  CHECK(ev("b.a", &a) == "1");  // lookup continues outwards
  CHECK(ev("b.zz", &a) == "undefined");
  CHECK(ev("[x = 5; y = [z = x]].y.z") == "5");
  CHECK(ev(".a", &a) == "1");
  CHECK(ev("{}.a") == "{  }");
  CHECK(ev("{[a = 3], [a = 2], [b = 1]}.a") == "{ 3,2,undefined }");
  CHECK(ev("{[a = 3], 7}.a") == "{ 3,error }");
  CHECK(ev("(1).a") == "error");
  CHECK(ev("undefined.a") == "undefined");
}

TEST_CASE("an attribute read by name or by symbol, literal or not, own or inherited", "[scoping]") {
  // evaluate_attr takes a literal's value without running the evaluator;
  // the value must be the evaluator's and outlive the ad.
  Value text, number, computed, inherited, absent;
  {
    ClassAd parent = ad(R"([ Cpus = 8; Memory = 2 * 1024 ])");
    ClassAd slot = ad(R"([ Name = "slot1@node"; Disk = Cpus * 100 ])");
    slot.chain_to(parent);
    text = evaluate_attr(slot, "Name");
    number = evaluate_attr(slot, intern("CPUS"));
    computed = evaluate_attr(slot, "Disk");
    inherited = evaluate_attr(slot, intern("Memory"));
    absent = evaluate_attr(slot, intern("Nowhere"));
  }
  CHECK(text.as_string() == "slot1@node");
  CHECK(number.as_int() == 8);
  CHECK(computed.as_int() == 800);
  CHECK(inherited.as_int() == 2048);
  CHECK(absent.is_undefined());
}

TEST_CASE("an attribute set under a name interned once is the one set by its spelling", "[scoping]") {
  const Interned cpus = intern_spelling("Cpus");
  ClassAd a, b;
  a.set(cpus, 4);
  b.set("Cpus", 4);
  a.set(intern_spelling("OpSys"), "LINUX");
  b.set("OpSys", "LINUX");
  CHECK(a.same_as(b));
  ClassAd copy;
  for (const Attribute& at : a.attributes()) copy.insert(at);
  CHECK(copy.same_as(a));
  CHECK(a.erase(cpus));
  CHECK(!a.find("cpus"));
}
