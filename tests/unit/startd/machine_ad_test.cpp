// The machine ad: the attributes a machine's slot ads have alike live once,
// and each slot ad chains to it (TARGETS.md: memory per slot). What a slot
// ad shows must not change; what it holds of its own must stay small while
// the machine ticks.
#include <catch2/catch.hpp>

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/startd/startd.h"
#include "tests/unit/startd/slot_harness.h"
#include "tests/unit/startd/support.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

std::unique_ptr<Startd> machine(const std::string& text, std::int64_t cpus = 4) {
  config::Config c = startd_config(text, machine_host(cpus, 8192, 1000000));
  auto s = Startd::create(c, kTuesday10am);
  if (!s) FAIL(s.error());
  return std::move(*s);
}

// The attributes a slot ad holds itself (not through its machine ad).
std::vector<std::string> own(const Slot& s) {
  classad::ClassAd mine = s.ad();
  mine.unchain();
  std::vector<std::string> names;
  for (const classad::Attribute& a : mine.attributes()) names.emplace_back(a.name);
  std::sort(names.begin(), names.end());
  return names;
}

std::string shown(const Slot& s, const char* attr) {
  const classad::Attribute* a = s.ad().find(attr);
  return a ? classad::unparse(*a->expr) : "<none>";
}

MachineReadings readings(double load) {
  MachineReadings r;
  r.machine = *classad::parse_long_form("KeyboardIdle = 100000\nConsoleIdle = 100000\n");
  r.total_load = load;
  return r;
}

}  // namespace

TEST_CASE("the slot ads of a machine hold only what differs between them", "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 4\nSTART = True\n");
  const classad::ClassAd& m = sd->machine_ad();
  CHECK(m.find("Name") == nullptr);
  CHECK(m.find("OpSys") != nullptr);
  CHECK(m.find("Cpus") != nullptr);
  for (const std::string& n : sd->slot_names()) {
    const Slot& s = *sd->slot(n);
    CHECK(s.ad().chained());
    CHECK(own(s) == std::vector<std::string>{"Name", "SlotID"});
    // What the ad shows is the whole slot ad.
    CHECK(shown(s, "Name") == "\"" + n + "@node1.example.org\"");
    CHECK(shown(s, "Cpus") == "1");
    CHECK(shown(s, "MyCurrentTime") == std::to_string(kTuesday10am));
    CHECK(shown(s, "Requirements") != "<none>");
  }
  // Evaluated at once: the slots start Unclaimed (IS_OWNER is False).
  CHECK(shown(*sd->slot("slot1"), "State") == "\"Unclaimed\"");
}

TEST_CASE("a tick moves the machine's clock without touching the slots' own attributes",
          "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 3\nSTART = True\n");
  std::vector<classad::ClassAd> before;
  for (const std::string& n : sd->slot_names()) {
    classad::ClassAd mine = sd->slot(n)->ad();
    mine.unchain();
    before.push_back(mine);
  }
  sd->tick(kTuesday10am + 125);
  const auto names = sd->slot_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Slot& s = *sd->slot(names[i]);
    classad::ClassAd mine = s.ad();
    mine.unchain();
    CHECK(mine.shares_with(before[i]));  // not even copied
    CHECK(shown(s, "MyCurrentTime") == std::to_string(kTuesday10am + 125));
    CHECK(shown(s, "ClockMin") == "602");  // 10:02 (kTuesday10am is 10:00 UTC)
  }
  CHECK(shown(*sd->slot("slot1"), "ClockDay") == "2");
}

TEST_CASE("machine-wide readings go to the machine ad, each slot's load to its own", "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 2\nSTART = True\n");
  sd->sensors(readings(1.0), kTuesday10am + 5);
  CHECK(sd->machine_ad().find("KeyboardIdle") != nullptr);
  CHECK(sd->machine_ad().find("TotalLoadAvg") != nullptr);
  const Slot& s1 = *sd->slot("slot1");
  const Slot& s2 = *sd->slot("slot2");
  CHECK(shown(s1, "KeyboardIdle") == "100000");
  CHECK(shown(s2, "TotalLoadAvg") == "1.0");
  // The owner's load goes to the first idle slot (policy-configuration,
  // "Load Average for Multi-core Machines").
  CHECK(shown(s1, "LoadAvg") == "1.0");
  CHECK(shown(s2, "LoadAvg") == "0.0");
  CHECK(own(s1) == std::vector<std::string>{"CondorLoadAvg", "LoadAvg", "Name", "SlotID"});
}

TEST_CASE("a claimed slot holds its state itself, its siblings are unchanged", "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 2\nSTART = True\n");
  const classad::ClassAd job = *classad::parse_classad(
      R"([ Owner = "alice"; User = "alice@example.org"; Requirements = true; RequestCpus = 1 ])");
  sd->deliver("slot2", ClaimRequest{"c1#secret", job, false, {}}, kTuesday10am + 1);
  const Slot& s2 = *sd->slot("slot2");
  CHECK(shown(s2, "State") == "\"Claimed\"");
  CHECK(shown(s2, "RemoteUser") == "\"alice@example.org\"");
  CHECK(shown(*sd->slot("slot1"), "State") == "\"Unclaimed\"");
  CHECK(own(*sd->slot("slot1")) == std::vector<std::string>{"Name", "SlotID"});
  sd->deliver("slot2", ReleaseClaim{"c1#secret"}, kTuesday10am + 2);
  CHECK(shown(s2, "State") == "\"Unclaimed\"");
  CHECK(shown(s2, "RemoteUser") == "<none>");
}

TEST_CASE("a dynamic slot chains to the machine ad too", "[startd][machine-ad]") {
  auto sd =
      machine("NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = True\nSTART = True\n");
  const classad::ClassAd job = *classad::parse_classad(
      R"([ Owner = "alice"; User = "alice@example.org"; Requirements = true; RequestCpus = 2;
           RequestMemory = 1024; RequestDisk = 1000 ])");
  auto r = sd->deliver("slot1", ClaimRequest{"c1#secret", job, false, {}}, kTuesday10am + 1);
  const Slot* d = sd->slot("slot1_1");
  REQUIRE(d != nullptr);
  CHECK(d->ad().chained());
  CHECK(shown(*d, "Cpus") == "2");
  CHECK(shown(*d, "OpSys") == shown(*sd->slot("slot1"), "OpSys"));
  const auto mine = own(*d);
  CHECK(std::find(mine.begin(), mine.end(), "OpSys") == mine.end());
  CHECK(std::find(mine.begin(), mine.end(), "Cpus") != mine.end());
  // The partitionable slot, re-made with what it has left, is chained again.
  CHECK(sd->slot("slot1")->ad().chained());
  CHECK(shown(*sd->slot("slot1"), "Cpus") == "2");
}

TEST_CASE("attributes set on the machine show in every slot ad, not in copies taken before",
          "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 2\nSTART = True\n");
  const classad::ClassAd published = sd->slot("slot1")->ad();
  classad::ClassAd where;
  where.set("MyAddress", "127.0.0.1:9618");
  sd->set_machine_attributes(where);
  for (const std::string& n : sd->slot_names())
    CHECK(shown(*sd->slot(n), "MyAddress") == "\"127.0.0.1:9618\"");
  CHECK(published.find("MyAddress") == nullptr);
}

TEST_CASE("STARTD_SLOT_ATTRS values live in the machine ad", "[startd][machine-ad]") {
  auto sd = machine("NUM_SLOTS = 2\nSTART = True\nSTARTD_SLOT_ATTRS = State\n");
  CHECK(sd->machine_ad().find("slot1_State") != nullptr);
  CHECK(shown(*sd->slot("slot2"), "slot1_State") == "\"Unclaimed\"");
  const classad::ClassAd job =
      *classad::parse_classad(R"([ Owner = "a"; User = "a@x"; Requirements = true ])");
  sd->deliver("slot1", ClaimRequest{"c1#s", job, false, {}}, kTuesday10am + 1);
  CHECK(shown(*sd->slot("slot2"), "slot1_State") == "\"Claimed\"");
  CHECK(own(*sd->slot("slot2")) == std::vector<std::string>{"Name", "SlotID"});
}

TEST_CASE("condor_vacate: one slot's claim or every slot's, an unknown slot refused", "[startd][vacate]") {
  auto sd = machine("NUM_SLOTS = 2\nSTART = True\n");
  const classad::ClassAd job = *classad::parse_classad(
      R"([ Owner = "alice"; User = "alice@example.org"; Requirements = true; RequestCpus = 1 ])");
  sd->deliver("slot1", ClaimRequest{"c1#s", job, false, {}}, kTuesday10am + 1);
  sd->deliver("slot2", ClaimRequest{"c2#s", job, false, {}}, kTuesday10am + 1);
  auto one = sd->vacate("slot2", false, kTuesday10am + 2);
  REQUIRE(one);
  CHECK(shown(*sd->slot("slot2"), "State") == "\"Unclaimed\"");
  CHECK(shown(*sd->slot("slot1"), "State") == "\"Claimed\"");
  bool ended = false;
  for (const StartdAction& a : one->actions) ended = ended || a.action.kind == ActionKind::ClaimEnded;
  CHECK(ended);  // the schedd hears of it
  CHECK(sd->vacate("slot9", false, kTuesday10am + 3).error() == "no slot slot9 on this machine");
  REQUIRE(sd->vacate("", true, kTuesday10am + 3));
  CHECK(shown(*sd->slot("slot1"), "State") == "\"Unclaimed\"");
}
