// Draining a machine (condor_drain, and the defrag daemon's drains:
// central-manager-configuration, "Defragmenting Dynamic Slots"): every
// slot, AllSlotsDrained, DrainReason, resuming on completion, and the
// machine-wide figures the defrag daemon reads.
#include "model/classad/eval.h"
#include "tests/unit/startd/machine_harness.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

std::int64_t int_attr(Machine& m, const std::string& slot, const char* name) {
  classad::Value v = classad::evaluate_attr(m.startd().slot(slot)->ad(), name);
  return v.is_int() ? v.as_int() : -999;
}

const std::string kOneCpu = "[ Owner = \"a\"; RequestCpus = 1; RequestMemory = 100; RequestDisk = 1 ]";
const std::string kTwoCpus = "[ Owner = \"b\"; RequestCpus = 2; RequestMemory = 100; RequestDisk = 1 ]";

}  // namespace

TEST_CASE("draining a machine: every slot, then AllSlotsDrained", "[startd][policy]") {
  Machine m("NUM_SLOTS = 2\nMAXJOBRETIREMENTTIME = 100\n");
  m.run("slot1", "[ Owner = \"a\" ]", "c");
  m.startd().drain(DrainOrder{}, kTuesday10am + 10);
  CHECK(m.state("slot2") == "Drained/Retiring");
  CHECK(m.state("slot1") == "Claimed/Retiring");
  m.tick(100);
  CHECK(m.state("slot1") == "Preempting/Killing");
  m.send("slot1", JobExited{"c"}, 1);
  CHECK(m.state("slot1") == "Drained/Idle");
  CHECK(m.state("slot2") == "Drained/Idle");
  m.startd().cancel_drain(kTuesday10am + 500);
  CHECK(m.state("slot1") == "Unclaimed/Idle");
}

TEST_CASE(
    "graceful draining with DEFRAG_DRAINING_START_EXPR admits interruptible jobs until the last retiring job "
    "ends",
    "[startd][policy]") {
  Machine m("NUM_SLOTS = 2\nMAXJOBRETIREMENTTIME = 1000\nWANT_VACATE = True\nMachineMaxVacateTime = 60\n");
  m.run("slot1", "[ Owner = \"long\" ]", "c1");
  m.startd().drain(DrainOrder{DrainSchedule::Graceful,
                              *classad::parse_expression("TARGET.MaxJobRetirementTime == 0"), "", false},
                   kTuesday10am + 10);
  CHECK(m.state("slot1") == "Claimed/Retiring");
  CHECK(m.state("slot2") == "Unclaimed/Idle");  // still open, to interruptible jobs only
  CHECK(m.attr("slot2", "Start") == "TARGET.MaxJobRetirementTime == 0");
  CHECK(m.claim("slot2", "[ Owner = \"x\"; MaxJobRetirementTime = 600 ]", "no").empty());
  m.run("slot2", "[ Owner = \"quick\"; MaxJobRetirementTime = 0 ]", "c2");
  m.tick(100);
  CHECK(m.state("slot2") == "Claimed/Busy");  // no retirement, but runs meanwhile
  // The retiring job ends: the interruptible one is evicted (vacating as
  // usual), and START becomes False.
  m.send("slot1", JobExited{"c1"}, 10);
  CHECK(m.state("slot1") == "Drained/Retiring");
  CHECK(m.state("slot2") == "Preempting/Vacating");
  CHECK(m.attr("slot2", "Start") == "false");
  m.send("slot2", JobExited{"c2"}, 5);
  CHECK(m.state("slot1") == "Drained/Idle");
  CHECK(m.state("slot2") == "Drained/Idle");
}

TEST_CASE("a drain says why in DrainReason, and resumed on completion the machine goes back to work",
          "[startd][drain]") {
  Machine m("MAXJOBRETIREMENTTIME = 100\nWANT_VACATE = False\n");  // one partitionable slot, 4 cpus
  const std::string a = m.run("slot1", kOneCpu, "c1");
  const std::string b = m.run("slot1", kTwoCpus, "c2");
  m.startd().drain(DrainOrder{DrainSchedule::Graceful, nullptr, "Defrag cm.test", true}, kTuesday10am + 10);
  for (const std::string& s : {std::string("slot1"), a, b}) {
    CHECK(m.attr(s, "DrainReason") == "\"Defrag cm.test\"");
    CHECK(m.attr(s, "Draining") == "true");
  }
  m.tick(100);  // retirement over: killed
  m.send(a, JobExited{"c1"}, 1);
  CHECK(m.state("slot1") == "Drained/Retiring");
  m.send(b, JobExited{"c2"}, 1);
  // Every slot drained: the drain ends by itself and the whole machine is
  // offered again.
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1"});
  CHECK(m.state("slot1") == "Unclaimed/Idle");
  CHECK(m.attr("slot1", "Cpus") == "4");
  CHECK(m.attr("slot1", "Draining") == "false");
  CHECK(m.attr("slot1", "DrainReason") == "<none>");

  // Without it, the machine stays drained until the drain is cancelled;
  // condor_drain's reason when none is given.
  Machine n("");
  n.startd().drain(DrainOrder{}, kTuesday10am + 10);
  CHECK(n.state("slot1") == "Drained/Idle");
  CHECK(n.attr("slot1", "DrainReason") == "\"by command\"");
  n.startd().cancel_drain(kTuesday10am + 20);
  CHECK(n.state("slot1") == "Unclaimed/Idle");
  CHECK(n.attr("slot1", "DrainReason") == "<none>");
}

TEST_CASE("the machine's draining figures: expected completion and badput, and the totals in cpu-seconds",
          "[startd][drain]") {
  Machine m("MAXJOBRETIREMENTTIME = 3000\nMachineMaxVacateTime = 60\n");
  const std::string a = m.run("slot1", kOneCpu, "c1");
  const std::string b = m.run("slot1", kTwoCpus, "c2");
  m.tick(1000);
  const std::int64_t now = kTuesday10am + 1000;
  // Gracefully: both jobs run out their retirement (2000 s more), vacate
  // (60 s), and all of their work is lost: 3 cpus x 3000 s. Quickly: they
  // vacate now and lose what they did: 3 cpus x 1000 s.
  for (const std::string& s : {std::string("slot1"), a, b}) {
    CHECK(int_attr(m, s, "ExpectedMachineGracefulDrainingCompletion") == now + 2060);
    CHECK(int_attr(m, s, "ExpectedMachineGracefulDrainingBadput") == 9000);
    CHECK(int_attr(m, s, "ExpectedMachineQuickDrainingCompletion") == now + 60);
    CHECK(int_attr(m, s, "ExpectedMachineQuickDrainingBadput") == 3000);
    CHECK(int_attr(m, s, "TotalMachineDrainingBadput") == 0);
  }
  m.startd().drain(DrainOrder{DrainSchedule::Quick, nullptr, "", false}, now);
  m.send(a, JobExited{"c1"}, 5);
  m.send(b, JobExited{"c2"}, 5);
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1"});  // the dynamic slots are gone...
  CHECK(int_attr(m, "slot1", "TotalMachineDrainingBadput") == 3000);    // ...what they lost is not
  CHECK(int_attr(m, "slot1", "ExpectedMachineGracefulDrainingBadput") == 0);
  CHECK(int_attr(m, "slot1", "ExpectedMachineGracefulDrainingCompletion") == now + 10);
  // Drained and idle: the machine's 4 cpus stand unused.
  const std::int64_t since = int_attr(m, "slot1", "TotalMachineDrainingUnclaimedTime");
  m.tick(100);
  CHECK(int_attr(m, "slot1", "TotalMachineDrainingUnclaimedTime") == since + 400);
  m.startd().cancel_drain(now + 200);
  m.tick(100);
  CHECK(int_attr(m, "slot1", "TotalMachineDrainingUnclaimedTime") == since + 4 * 190);
}
