// The spec's policy examples run through simulated time on a whole startd
// (policy-configuration, "Examples of Policy Configuration"), the slot ad
// attributes, and the thesis's execution machine.
#include "model/startd/slot_ad.h"
#include "model/startd/startd.h"
#include "tests/unit/startd/machine_harness.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {

const std::string kDesktop = "use POLICY : Desktop\nNUM_SLOTS = 1\n";

}  // namespace

TEST_CASE("default policy: one partitionable slot carves dynamic slots that go away with their claims",
          "[startd][policy]") {
  Machine m("");
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1"});
  CHECK(m.state("slot1") == "Unclaimed/Idle");
  CHECK(m.attr("slot1", "Name") == "\"slot1@node1.example.org\"");
  CHECK(m.attr("slot1", "PartitionableSlot") == "true");
  CHECK(m.attr("slot1", "SlotType") == "\"Partitionable\"");
  std::string d =
      m.run("slot1", "[ Owner = \"a\"; RequestCpus = 3; RequestMemory = 1000; RequestDisk = 100 ]", "c1");
  CHECK(d == "slot1_1");
  CHECK(m.attr("slot1_1", "Name") == "\"slot1_1@node1.example.org\"");
  CHECK(m.attr("slot1_1", "DynamicSlot") == "true");
  CHECK(m.attr("slot1_1", "Cpus") == "3");
  CHECK(m.attr("slot1_1", "Memory") == "1024");  // quantized to 128 MiB
  CHECK(m.attr("slot1", "Cpus") == "1");
  CHECK(m.attr("slot1", "Memory") == std::to_string(8192 - 1024));
  CHECK(m.attr("slot1", "TotalSlotCpus") == "4");
  // Another job needs more CPUs than are left: refused, nothing carved.
  CHECK(m.claim("slot1", "[ Owner = \"b\"; RequestCpus = 2; RequestMemory = 100; RequestDisk = 1 ]", "c2")
            .empty());
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1", "slot1_1"});
  m.send("slot1_1", JobExited{"c1"}, 600);
  CHECK(m.state("slot1_1") == "Claimed/Idle");
  m.send("slot1_1", ReleaseClaim{"c1"}, 1);
  CHECK(m.state("slot1_1") == "<gone>");
  CHECK(m.attr("slot1", "Cpus") == "4");
  CHECK(m.attr("slot1", "Memory") == "8192");
  // Preemption is disabled by default: nothing suspends or preempts.
  std::string again =
      m.run("slot1", "[ Owner = \"a\"; RequestCpus = 1; RequestMemory = 128; RequestDisk = 1 ]", "c3");
  CHECK(again == "slot1_2");
  m.readings("KeyboardIdle = 0\n", 8.0, 60);
  m.tick(86400);
  CHECK(m.state("slot1_2") == "Claimed/Busy");
}

TEST_CASE("multi-core slot naming: slot<N>@host", "[startd][policy]") {
  Machine m("use FEATURE : StaticSlots\n", 4);
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1", "slot2", "slot3", "slot4"});
  CHECK(m.attr("slot3", "Name") == "\"slot3@node1.example.org\"");
  CHECK(m.attr("slot3", "SlotID") == "3");
  CHECK(m.attr("slot3", "Cpus") == "1");
  CHECK(m.attr("slot3", "TotalCpus") == "4");
  CHECK(m.attr("slot3", "DetectedCpus") == "4");
  CHECK(m.attr("slot3", "SlotWeight") == "Cpus");
  CHECK(m.attr("slot3", "SlotType") == "\"Static\"");
}

TEST_CASE("STARTD_ATTRS with per-slot values (the favorite_color example)", "[startd][policy]") {
  Machine m(
      "NUM_SLOTS = 3\nfavorite_color = \"blue\"\nfavorite_season = \"spring\"\n"
      "STARTD_ATTRS = favorite_color, favorite_season\nSLOT2_favorite_color = \"green\"\n"
      "SLOT3_favorite_season = \"summer\"\n");
  CHECK(m.attr("slot1", "favorite_color") == "\"blue\"");
  CHECK(m.attr("slot1", "favorite_season") == "\"spring\"");
  CHECK(m.attr("slot2", "favorite_color") == "\"green\"");
  CHECK(m.attr("slot2", "favorite_season") == "\"spring\"");
  CHECK(m.attr("slot3", "favorite_color") == "\"blue\"");
  CHECK(m.attr("slot3", "favorite_season") == "\"summer\"");
}

TEST_CASE("test-job policy: coltrane's jobs start at once and are never suspended", "[startd][policy]") {
  // The spec's five expressions on top of the desktop policy.
  std::string config =
      kDesktop +
      "START = ($(START)) || Owner == \"coltrane\"\nSUSPEND = ($(SUSPEND)) && Owner != \"coltrane\"\n"
      "CONTINUE = $(CONTINUE)\nPREEMPT = ($(PREEMPT)) && Owner != \"coltrane\"\nKILL = $(KILL)\n";
  Machine m(config);
  m.readings("KeyboardIdle = 5\nConsoleIdle = 5\n", 0, 10);  // the owner is typing
  CHECK(m.claim("slot1", "[ Owner = \"tyner\"; ImageSize = 100; JobUniverse = 5 ]", "t").empty());
  std::string where = m.run("slot1", "[ Owner = \"coltrane\"; ImageSize = 100; JobUniverse = 5 ]", "c");
  m.tick(600);
  CHECK(m.state(where) == "Claimed/Busy");

  Machine other(config);
  other.run("slot1", "[ Owner = \"tyner\"; ImageSize = 100; JobUniverse = 5 ]", "t");
  other.readings("KeyboardIdle = 5\nConsoleIdle = 5\n", 0, 120);
  CHECK(other.state("slot1") == "Claimed/Suspended");
}

TEST_CASE("time-of-day policy: jobs only after hours, busy during work hours", "[startd][policy]") {
  std::string config =
      "WorkHours = ( (ClockMin >= 480 && ClockMin < 1020) && (ClockDay > 0 && ClockDay < 6) )\n"
      "AfterHours = ( (ClockMin < 480 || ClockMin >= 1020) || (ClockDay == 0 || ClockDay == 6) )\n"
      "START = $(AfterHours)\nMachineBusy = ( $(WorkHours) || (KeyboardIdle < 60) )\n"
      "WANT_SUSPEND = True\nSUSPEND = $(MachineBusy)\nCONTINUE = $(MachineBusy) == False\nNUM_SLOTS = 1\n";
  const std::string job = "[ Owner = \"a\" ]";
  Machine tuesday10(config, 4, 8192, kTuesday10am);
  CHECK(tuesday10.claim("slot1", job, "x").empty());
  Machine tuesday18(config, 4, 8192, kTuesday10am + 8 * 3600);
  tuesday18.run("slot1", job, "x");
  tuesday18.tick(13 * 3600 + 60);  // Wednesday 07:01: still after hours
  CHECK(tuesday18.state("slot1") == "Claimed/Busy");
  tuesday18.tick(3600);  // 08:01: work hours suspend the job
  CHECK(tuesday18.state("slot1") == "Claimed/Suspended");
  tuesday18.tick(9 * 3600);  // 17:01: after hours again
  CHECK(tuesday18.state("slot1") == "Claimed/Busy");
  Machine saturday(config, 4, 8192, kTuesday10am + 4 * 86400);
  CHECK(!saturday.claim("slot1", job, "x").empty());
}

TEST_CASE("desktop/non-desktop policy: keyboard activity matters on desktops only", "[startd][policy]") {
  std::string policy =
      "MINUTE = 60\nStartIdleTime = 15 * $(MINUTE)\nContinueIdleTime = 5 * $(MINUTE)\nMaxSuspendTime = 10 * "
      "$(MINUTE)\n"
      "KeyboardBusy = KeyboardIdle < $(MINUTE)\nNonCondorLoadAvg = (LoadAvg - CondorLoadAvg)\nBackgroundLoad "
      "= 0.3\n"
      "CPUIdle = $(NonCondorLoadAvg) <= $(BackgroundLoad)\nActivityTimer = (time() - "
      "EnteredCurrentActivity)\n"
      "ActivationTimer = (time() - JobStart)\nSmallJob = (TARGET.ImageSize < (15 * 1024))\nJustCpu = False\n"
      "IsVanilla = (TARGET.JobUniverse =?= 5)\nSTARTD_ATTRS = IsDesktop\n"
      "START = ( ($(CPUIdle) || (State != \"Unclaimed\" && State != \"Owner\")) && (IsDesktop =!= True || "
      "(KeyboardIdle > $(StartIdleTime))) )\n"
      "WANT_SUSPEND = ( $(SmallJob) || $(JustCpu) || $(IsVanilla) )\n"
      "WANT_VACATE = ( $(ActivationTimer) > 10 * $(MINUTE) || $(IsVanilla) )\n"
      "SUSPEND = ( ((CpuBusyTime > 2 * $(MINUTE)) && ($(ActivationTimer) > 90)) || ( IsDesktop =?= True && "
      "$(KeyboardBusy) ) )\n"
      "CONTINUE = ( $(CPUIdle) && ($(ActivityTimer) > 300) && (IsDesktop =!= True || (KeyboardIdle > "
      "$(ContinueIdleTime))) )\n"
      "PREEMPT = ( ((Activity == \"Suspended\") && ($(ActivityTimer) > $(MaxSuspendTime))) || (SUSPEND && "
      "(WANT_SUSPEND == False)) )\n"
      "MAXJOBRETIREMENTTIME = (IsDesktop =!= True) * 0\nMachineMaxVacateTime = 10 * $(MINUTE)\nKILL = False\n"
      "NUM_SLOTS = 1\n";
  const std::string job = "[ Owner = \"a\"; ImageSize = 100; JobUniverse = 5 ]";
  Machine desktop(policy + "IsDesktop = True\n");
  CHECK(desktop.attr("slot1", "IsDesktop") == "true");
  desktop.run("slot1", job, "c");
  desktop.readings("KeyboardIdle = 5\nConsoleIdle = 5\n", 0, 200);
  CHECK(desktop.state("slot1") == "Claimed/Suspended");
  Machine cluster(policy);
  cluster.run("slot1", job, "c");
  cluster.readings("KeyboardIdle = 5\nConsoleIdle = 5\n", 0, 200);
  CHECK(cluster.state("slot1") == "Claimed/Busy");
}

TEST_CASE("job suspension: a suspendable job on slot 2 yields to slot 1 (IsSuspendableJob)",
          "[startd][policy]") {
  // The spec's example, with DETECTED_CORES = 1 (two slots). The spec's
  // NonSuspendableSlotState lacks a closing parenthesis; it is added here.
  std::string config =
      "NUM_CPUS = $(DETECTED_CORES)*2\nMEMORY = $(DETECTED_MEMORY)*2\nNUM_SLOTS = $(NUM_CPUS)\n"
      "IsSuspendableSlot = SlotID > $(DETECTED_CORES)\n"
      "NonSuspendableSlotState = eval(strcat(\"slot\",SlotID-$(DETECTED_CORES),\"_State\"))\n"
      "STARTD_SLOT_ATTRS = $(STARTD_SLOT_ATTRS) State\n"
      "STARTD_ATTRS = $(STARTD_ATTRS) IsSuspendableSlot NonSuspendableSlotState\n"
      "MyNonSuspendableSlotIsIdle = (NonSuspendableSlotState =!= \"Claimed\" && NonSuspendableSlotState =!= "
      "\"Preempting\")\n"
      "START = IsSuspendableSlot!=True && IsSuspendableJob=!=True || IsSuspendableSlot && "
      "IsSuspendableJob==True && "
      "$(MyNonSuspendableSlotIsIdle)\n"
      "SUSPEND = IsSuspendableSlot && $(MyNonSuspendableSlotIsIdle)!=True\nWANT_SUSPEND = $(SUSPEND)\n"
      "CONTINUE = ($(SUSPEND)) != True\nCLAIM_WORKLIFE = -1\n";
  Machine m(config, 1, 4096);
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1", "slot2"});
  CHECK(m.attr("slot2", "slot1_State") == "\"Unclaimed\"");
  // A suspendable job goes only to slot 2, a normal one only to slot 1.
  CHECK(m.claim("slot1", "[ Owner = \"s\"; IsSuspendableJob = True ]", "x").empty());
  CHECK(m.claim("slot2", "[ Owner = \"n\" ]", "y").empty());
  m.run("slot2", "[ Owner = \"s\"; IsSuspendableJob = True ]", "s");
  CHECK(m.state("slot2") == "Claimed/Busy");
  m.run("slot1", "[ Owner = \"n\" ]", "n");
  CHECK(m.state("slot2") == "Claimed/Suspended");
  m.send("slot1", JobExited{"n"}, 100);
  m.send("slot1", ReleaseClaim{"n"});
  CHECK(m.state("slot1") == "Unclaimed/Idle");
  CHECK(m.state("slot2") == "Claimed/Busy");
}

TEST_CASE("interactive jobs: slot 1 reserved for them, or preferred by RANK", "[startd][policy]") {
  Machine reserved("NUM_SLOTS = 2\nSTART = ( (MY.SlotID == 1) && (TARGET.InteractiveJob =?= True) )\n");
  CHECK(!reserved.claim("slot1", "[ Owner = \"a\"; InteractiveJob = True ]", "i").empty());
  CHECK(reserved.claim("slot2", "[ Owner = \"a\"; InteractiveJob = True ]", "j").empty());
  CHECK(reserved.claim("slot1", "[ Owner = \"b\" ]", "k").empty());

  Machine preferred(
      "NUM_SLOTS = 2\nRANK = ( (MY.SlotID == 1) && (TARGET.InteractiveJob =?= True) )\n"
      "WANT_VACATE = True\n");
  preferred.run("slot1", "[ Owner = \"batch\" ]", "b");
  CHECK(preferred.claim("slot1", "[ Owner = \"me\"; InteractiveJob = True ]", "i") == "slot1");
  CHECK(preferred.state("slot1") == "Preempting/Vacating");
  preferred.send("slot1", JobExited{"b"}, 5);
  CHECK(preferred.state("slot1") == "Claimed/Idle");
  CHECK(preferred.attr("slot1", "RemoteOwner") == "\"me\"");
}

TEST_CASE("the per-slot load average (the spec's rules)", "[startd][policy]") {
  // HTCondor load first, owner load to Owner slots first, then idle slots,
  // pieces of at most 1.0.
  CHECK(distribute_load(3.0, {1, 0, 0, 0}, {false, true, false, false}) == std::vector<double>{1, 1, 1, 0});
  CHECK(distribute_load(0.5, {0, 0}, {false, false}) == std::vector<double>{0.5, 0});
  // More owner load than slots: HTCondor slots get it too, above 1.0.
  CHECK(distribute_load(5.0, {1, 0}, {false, false}) == std::vector<double>{3, 2});
  Machine m("NUM_SLOTS = 2\n");
  MachineReadings r;
  r.machine = *classad::parse_long_form("KeyboardIdle = 500\n");
  r.total_load = 1.5;
  r.condor_load["slot1"] = 1.0;
  m.startd().sensors(r, kTuesday10am + 1);
  CHECK(m.attr("slot1", "LoadAvg") == "1.0");
  CHECK(m.attr("slot2", "LoadAvg") == "0.5");
  CHECK(m.attr("slot1", "CondorLoadAvg") == "1.0");
  CHECK(m.attr("slot2", "TotalLoadAvg") == "1.5");
  CHECK(m.attr("slot2", "KeyboardIdle") == "500");
}

TEST_CASE("the thesis's execution machine", "[startd][policy][thesis]") {
  // Appendix A.2's startd section: 24+1 CPUs, a 24/25 partitionable slot
  // that refuses the high-priority jobs and a 1/25 static slot that takes
  // only them.
  std::string a2 =
      "MINUTE = 60\nHOUR = (60 * $(MINUTE))\nDAY = (24 * $(HOUR))\n"
      "ActivationTimer = ifThenElse(JobStart != UNDEFINED, (time() - JobStart), 0)\n"
      "START = true\nSUSPEND = false\nPREEMPT = $(ActivationTimer) > 3*$(DAY)\nWANT_HOLD = false\n"
      "WANT_SUSPEND = false\nWANT_VACATE = false\nKILL = true\nPOLLING_INTERVAL = "
      "$(MINUTE)/2\nCLAIM_WORKLIFE = 0\n"
      "NUM_CPUS = 24 + 1\nNUM_SLOTS=2\n"
      "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 24/25\nSLOT_TYPE_1_PARTITIONABLE = true\n"
      "SLOT_TYPE_1_START = $(START) && (stringListIMember(TARGET.Owner, \"cmss cmsp014 cmsp015 cmspi043 "
      "cmspi058\") "
      "|| (TARGET.AcctGroup =?= \"group_ops\") || (TARGET.AcctGroup =?= \"group_dteam\") || "
      "(TARGET.CreamQueue =?= \"short\")) != true\n"
      "NUM_SLOTS_TYPE_2 = 1\nSLOT_TYPE_2 = cpu=1, 1/25\nSLOT_TYPE_2_PARTITIONABLE = false\n"
      "SLOT_TYPE_2_START = $(START) && (stringListIMember(TARGET.Owner, \"cmss cmsp014 cmsp015 cmspi043 "
      "cmspi058\") "
      "|| (TARGET.AcctGroup =?= \"group_ops\") || (TARGET.AcctGroup =?= \"group_dteam\") || "
      "(TARGET.CreamQueue =?= \"short\"))\n";
  const std::string cms =
      "[ Owner = \"cms001\"; AcctGroup = \"group_cms\"; RequestCpus = 1; RequestMemory = 2000; RequestDisk = "
      "1 ]";
  const std::string ops =
      "[ Owner = \"opsuser\"; AcctGroup = \"group_ops\"; RequestCpus = 1; RequestMemory = 100; RequestDisk = "
      "1 ]";
  const std::string sam = "[ Owner = \"CMSP014\"; RequestCpus = 1; RequestMemory = 100; RequestDisk = 1 ]";
  Machine m(a2, 24, 100000);
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1", "slot2"});
  CHECK(m.attr("slot1", "Cpus") == "24");
  CHECK(m.attr("slot2", "Cpus") == "1");
  CHECK(m.claim("slot1", ops, "o1").empty());  // high priority: not on the big slot
  CHECK(m.claim("slot1", sam, "s1").empty());  // stringListIMember ignores case
  CHECK(m.claim("slot2", cms, "c2").empty());  // ordinary jobs: not on the small slot
  std::string big = m.run("slot1", cms, "c1");
  CHECK(big == "slot1_1");
  m.run("slot2", ops, "o2");
  // CLAIM_WORKLIFE = 0: each claim runs one job.
  m.send("slot2", JobExited{"o2"}, 600);
  CHECK(m.state("slot2") == "Unclaimed/Idle");
  // PREEMPT as printed uses JobStart != UNDEFINED, which is UNDEFINED under
  // ClassAd semantics (as in HTCondor): ActivationTimer is undefined and the
  // job is never preempted, even after four days.
  m.tick(4 * 86400);
  CHECK(m.state("slot1_1") == "Claimed/Busy");

  // With the comparison the authors meant (=!=), the job is preempted after
  // three days and, WANT_VACATE being false, killed outright.
  std::string fixed = a2;
  fixed.replace(fixed.find("JobStart != UNDEFINED"), 21, "JobStart =!= UNDEFINED");
  Machine f(fixed, 24, 100000);
  std::string slot = f.run("slot1", cms, "c1");
  f.tick(3 * 86400);
  CHECK(f.state(slot) == "Claimed/Busy");
  f.tick(1);
  CHECK(f.state(slot) == "Preempting/Killing");
  CHECK(f.did(slot, ActionKind::HardKill));
  CHECK(!f.did(slot, ActionKind::SoftKill));
  f.send(slot, JobExited{"c1"}, 2);
  CHECK(f.state(slot) == "<gone>");
  CHECK(f.attr("slot1", "Cpus") == "24");
}

TEST_CASE("slots are found by short name, and the layout version follows carving", "[startd][pslot]") {
  Machine m("");  // the default layout: one partitionable slot1
  const std::uint64_t start = m.startd().layout_version();
  REQUIRE(m.startd().slot("slot1"));
  for (const char* bad : {"slot11", "slot1_", "slot1_1x", "slotx", "Slot1", "", "slot"})
    CHECK_FALSE(m.startd().slot(bad));
  const std::string where =
      m.run("slot1", "[ Owner = \"a\"; RequestCpus = 1; RequestMemory = 512; RequestDisk = 1 ]", "c1");
  CHECK(where == "slot1_1");
  CHECK(m.startd().slot("slot1_1") != m.startd().slot("slot1"));
  const std::uint64_t carved = m.startd().layout_version();
  CHECK(carved != start);
  m.send("slot1_1", JobExited{"c1"}, 5);  // nothing carved or given back
  CHECK(m.startd().layout_version() == carved);
  m.send("slot1_1", ReleaseClaim{"c1"}, 1);
  CHECK_FALSE(m.startd().slot("slot1_1"));
  CHECK(m.startd().layout_version() != carved);
}

TEST_CASE("the slots of a machine share the trees of their common attributes and policy",
          "[startd][memory]") {
  // TARGETS.md, memory per slot: what every slot spells alike is held once.
  Machine m("NUM_SLOTS = 4\nRANK = TARGET.Owner == \"alice\"\nSLOT_WEIGHT = Cpus * 2\n");
  const Slot* s1 = m.startd().slot("slot1");
  const Slot* s4 = m.startd().slot("slot4");
  REQUIRE(s1);
  REQUIRE(s4);
  for (const char* shared :
       {"OpSys", "Arch", "TotalCpus", "Memory", "State", "Rank", "SlotWeight", "Start"}) {
    INFO(shared);
    REQUIRE(s1->ad().lookup(shared));
    CHECK(s1->ad().lookup(shared).get() == s4->ad().lookup(shared).get());
  }
  CHECK(s1->ad().lookup("Name").get() != s4->ad().lookup("Name").get());
  CHECK(m.attr("slot4", "Name") == "\"slot4@node1.example.org\"");
  CHECK(m.attr("slot4", "SlotID") == "4");
}

namespace {

// The actions of the last step on `slot` with `claim_id`, as "Kind" names.
bool acted(const StartdResult& r, const std::string& slot, ActionKind k, const std::string& claim_id) {
  for (const auto& a : r.actions)
    if (a.slot == slot && a.action.kind == k && a.action.claim_id == claim_id) return true;
  return false;
}

const std::string kTwoCpus = "[ Owner = \"a\"; RequestCpus = 2; RequestMemory = 1024; RequestDisk = 100 ]";
const std::string kThreeCpus = "[ Owner = \"c\"; RequestCpus = 3; RequestMemory = 1024; RequestDisk = 100 ]";

}  // namespace

TEST_CASE("pslot preemption: the named dynamic slots are evicted, then the claim gets its slot",
          "[startd][pslot][preemption]") {
  // "When the condor_schedd claims the partitionable slot, the dynamic
  // slots are preempted, such that their resources are returned to the
  // partitionable slot for use by the new job."
  Machine m("WANT_VACATE = True\nMachineMaxVacateTime = 60\n");
  REQUIRE(m.run("slot1", kTwoCpus, "a1") == "slot1_1");
  REQUIRE(m.run("slot1", kTwoCpus, "a2") == "slot1_2");
  REQUIRE(m.attr("slot1", "Cpus") == "0");
  const StartdResult& r =
      m.send("slot1", ClaimRequest{"c3",
                                   *classad::parse_classad(kThreeCpus),
                                   true,
                                   {"slot1_1@node1.example.org", "slot1_2@node1.example.org"}});
  CHECK(acted(r, "slot1", ActionKind::ClaimPending, "c3"));
  CHECK(acted(r, "slot1_1", ActionKind::SoftKill, "a1"));
  CHECK(acted(r, "slot1_2", ActionKind::SoftKill, "a2"));
  CHECK(m.state("slot1_1") == "Preempting/Vacating");
  m.send("slot1_1", JobExited{"a1"}, 5);
  CHECK(m.did("slot1_1", ActionKind::ClaimEnded));
  CHECK(m.state("slot1_1") == "<gone>");
  CHECK(m.startd().slot_names() == std::vector<std::string>{"slot1", "slot1_2"});  // still waiting for one
  const StartdResult& done = m.send("slot1_2", JobExited{"a2"}, 5);
  CHECK(acted(done, "slot1_3", ActionKind::AcceptClaim, "c3"));
  CHECK(m.state("slot1_3") == "Claimed/Idle");
  CHECK(m.attr("slot1_3", "Cpus") == "3");
  CHECK(m.attr("slot1_3", "RemoteOwner") == "\"c\"");
  CHECK(m.attr("slot1", "Cpus") == "1");
}

TEST_CASE("pslot preemption: nothing is evicted for a claim that would still not fit, or names no busy slot",
          "[startd][pslot][preemption]") {
  Machine m("");
  REQUIRE(m.run("slot1", kTwoCpus, "a1") == "slot1_1");
  REQUIRE(m.run("slot1", kTwoCpus, "a2") == "slot1_2");
  // One 2-CPU slot does not make room for 3 CPUs.
  const StartdResult& r =
      m.send("slot1", ClaimRequest{"c3", *classad::parse_classad(kThreeCpus), true, {"slot1_1"}});
  CHECK(acted(r, "slot1", ActionKind::RefuseClaim, "c3"));
  CHECK(!m.did("slot1_1", ActionKind::HardKill));
  CHECK(m.state("slot1_1") == "Claimed/Busy");
  const StartdResult& s =
      m.send("slot1", ClaimRequest{"c4", *classad::parse_classad(kThreeCpus), true, {"slot1_1", "slot1_9"}});
  CHECK(acted(s, "slot1", ActionKind::RefuseClaim, "c4"));
  CHECK(m.state("slot1_1") == "Claimed/Busy");
  // What fits is carved at once; the named slots keep their jobs.
  m.send("slot1_2", ReleaseClaim{"a2"});
  m.send("slot1_2", JobExited{"a2"}, 1);
  REQUIRE(m.state("slot1_2") == "<gone>");
  const StartdResult& t =
      m.send("slot1", ClaimRequest{"c5", *classad::parse_classad(kTwoCpus), true, {"slot1_1"}});
  CHECK(acted(t, "slot1_3", ActionKind::AcceptClaim, "c5"));
  CHECK(m.state("slot1_1") == "Claimed/Busy");
}
