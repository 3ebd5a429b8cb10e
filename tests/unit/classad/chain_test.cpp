// Chained ads (HTCondor's chained ClassAds): a name an ad does not hold is
// looked up in its parent. Chaining must be invisible to the language: a
// chained ad evaluates, matches, prints and compares like its flattened
// copy.
#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "model/classad/classad.h"
#include "model/classad/match.h"
#include "tests/unit/classad/support.h"

using namespace cara::classad;
using namespace cara::classad::test;

namespace {

ClassAd machine() {
  return ad(R"([ MyType = "Machine"; OpSys = "LINUX"; Arch = "X86_64"; TotalCpus = 24; Memory = 2048;
                 State = "Unclaimed"; Requirements = TARGET.RequestMemory <= MY.Memory; Rank = 0.0 ])");
}

std::vector<std::string> names(const ClassAd& a) {
  std::vector<std::string> out;
  for (const Attribute& at : a.attributes()) out.emplace_back(at.name);
  return out;
}

}  // namespace

TEST_CASE("a chained ad sees its parent's attributes and hides them with its own", "[storage][chain]") {
  const ClassAd m = machine();
  ClassAd slot;
  slot.set("Name", "slot1@ep1");
  slot.set("Memory", 4096);
  slot.chain_to(m);
  CHECK(slot.chained());
  CHECK(ev("OpSys", &slot) == "\"LINUX\"");
  CHECK(ev("MY.TotalCpus + 1", &slot) == "25");
  CHECK(ev("Memory", &slot) == "4096");  // its own hides the parent's
  CHECK(ev("Name", &slot) == "\"slot1@ep1\"");
  CHECK(ev("Missing", &slot) == "undefined");
  CHECK(slot.find("opsys") != nullptr);
  CHECK(slot.find_by_name("OPSYS") != nullptr);
  CHECK(slot.find_by_name("memory")->literal().as_int() == 4096);
  // The parent's Requirements reads MY.Memory from the chained ad.
  ClassAd job;
  job.set("RequestMemory", 3000);
  job.set("Requirements", true);
  CHECK(requirements_met(slot, job));
  CHECK_FALSE(requirements_met(m, job));
  CHECK(symmetric_match(job, slot));
  // Size and iteration show each name once: the parent's not hidden, then its own.
  CHECK(slot.size() == 9);
  CHECK(names(slot) == std::vector<std::string>{"MyType", "OpSys", "Arch", "TotalCpus", "State",
                                                "Requirements", "Rank", "Name", "Memory"});
  // Printing, comparing and flattening see the same ad.
  const ClassAd flat = slot.flattened();
  CHECK_FALSE(flat.chained());
  CHECK(flat.same_as(slot));
  CHECK(slot.same_as(flat));
  CHECK(unparse(slot) == unparse(flat));
  auto reparsed = parse_classad(unparse(slot));
  REQUIRE(reparsed.ok());
  CHECK(reparsed->same_as(slot));
}

TEST_CASE("the parent's attributes as of chaining are the ones seen", "[storage][chain]") {
  ClassAd m = machine();
  ClassAd slot;
  slot.chain_to(m);
  m.set("OpSys", "WINDOWS");  // the slot keeps the snapshot it was chained to
  CHECK(ev("OpSys", &slot) == "\"LINUX\"");
  slot.chain_to(m);
  CHECK(ev("OpSys", &slot) == "\"WINDOWS\"");
  slot.unchain();
  CHECK_FALSE(slot.chained());
  CHECK(ev("OpSys", &slot) == "undefined");
  CHECK(slot.empty());
}

TEST_CASE("setting what the parent already says adds nothing to a chained ad", "[storage][chain]") {
  const ClassAd m = machine();
  ClassAd slot;
  slot.set("Name", "slot1@ep1");
  slot.chain_to(m);
  const ClassAd published = slot;  // the collector's copy
  slot.set("State", "Unclaimed");
  slot.set("TotalCpus", 24);
  slot.set("Rank", 0.0);
  slot.insert("Requirements", m.lookup("Requirements"));
  CHECK(slot.shares_with(published));
  CHECK(slot.size() == 9);
  // A different value is the ad's own, and unshares only it.
  slot.set("State", "Claimed");
  CHECK_FALSE(slot.shares_with(published));
  CHECK(ev("State", &slot) == "\"Claimed\"");
  CHECK(ev("State", &published) == "\"Unclaimed\"");
  CHECK(ev("State", &m) == "\"Unclaimed\"");
  CHECK(slot.size() == 9);
  // A different spelling of the same value is a change too.
  slot.set("OPSYS", "LINUX");
  CHECK(slot.find("OpSys")->name == "OPSYS");
}

TEST_CASE("erasing a parent's attribute hides it behind undefined", "[storage][chain]") {
  const ClassAd m = machine();
  ClassAd slot;
  slot.set("Name", "slot1@ep1");
  slot.set("Extra", 1);
  slot.chain_to(m);
  CHECK(slot.erase("Extra"));  // its own: gone
  CHECK(slot.find("Extra") == nullptr);
  CHECK(slot.erase("Arch"));  // the parent's: hidden
  CHECK(ev("Arch", &slot) == "undefined");
  CHECK(ev("Arch", &m) == "\"X86_64\"");
  // Hidden already: nothing changes, the ad stays shared with its copy.
  const ClassAd copy = slot;
  CHECK_FALSE(slot.erase("Arch"));
  CHECK(slot.shares_with(copy));
  CHECK_FALSE(slot.erase("Nowhere"));
  CHECK(slot.shares_with(copy));
  // Setting it again shows the new value.
  slot.set("Arch", "ARM");
  CHECK(ev("Arch", &slot) == "\"ARM\"");
}

TEST_CASE("drop_inherited keeps only what differs from the parent", "[storage][chain]") {
  const ClassAd m = machine();
  ClassAd slot = m;
  slot.set("Name", "slot2@ep1");
  slot.set("Memory", 1024);
  const ClassAd full = slot.flattened();
  slot.chain_to(m);
  slot.drop_inherited();
  CHECK(slot.same_as(full));
  CHECK(slot.flattened().same_as(full));
  // Only Memory and Name are its own (in the order the copy held them):
  // unchained, nothing else is left.
  ClassAd own = slot;
  own.unchain();
  CHECK(names(own) == std::vector<std::string>{"Memory", "Name"});
}

TEST_CASE("chaining to a chained ad flattens the parent first", "[storage][chain]") {
  const ClassAd m = machine();
  ClassAd middle;
  middle.set("Middle", 1);
  middle.chain_to(m);
  ClassAd leaf;
  leaf.set("Leaf", 2);
  leaf.chain_to(middle);
  CHECK(ev("Leaf + Middle + TotalCpus", &leaf) == "27");
}

TEST_CASE("copies of a chained ad move, clear and compare as ads", "[storage][chain][cow]") {
  const ClassAd m = machine();
  ClassAd slot;
  slot.set("Name", "slot1@ep1");
  slot.chain_to(m);
  ClassAd copy = slot;
  CHECK(copy.shares_with(slot));
  ClassAd moved = std::move(copy);
  CHECK(moved.shares_with(slot));
  CHECK(copy.empty());
  CHECK_FALSE(copy.chained());
  CHECK(ev("OpSys", &moved) == "\"LINUX\"");
  moved.clear();
  CHECK(moved.empty());
  CHECK(ev("OpSys", &moved) == "undefined");
  // Two chained ads with the same content and different layouts are the same ad.
  ClassAd a = m;
  a.set("Name", "x");
  ClassAd b;
  b.set("Name", "x");
  b.chain_to(m);
  CHECK(a.same_as(b));
  CHECK(b.same_as(a));
  b.set("Name", "y");
  CHECK_FALSE(a.same_as(b));
}

TEST_CASE("chained ads sharing one parent are read and changed on several threads", "[storage][chain][cow]") {
  ClassAd m = machine();
  std::vector<ClassAd> slots(4);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    slots[i].set("Name", "slot" + std::to_string(i + 1));
    slots[i].chain_to(m);
  }
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      ClassAd& mine = slots[t];
      for (int round = 0; round < 200; ++round) {
        ClassAd published = mine;
        mine.set("State", round % 2 ? "Claimed" : "Unclaimed");
        mine.set("MyCurrentTime", round);
        bool good = published.find("OpSys") != nullptr && mine.find("TotalCpus")->literal().as_int() == 24;
        ok[t] += good ? 1 : 0;
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) CHECK(ok[t] == 200);
  CHECK(ev("State", &m) == "\"Unclaimed\"");
}
