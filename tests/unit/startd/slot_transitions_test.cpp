// Every transition of the slot state machine (policy-configuration, "State
// and Activity Transitions"), each with the expression or timer that
// causes it. Labels are the spec's letters and numbers.
#include "tests/unit/startd/slot_harness.h"

using namespace cara;
using namespace cara::startd;
using namespace cara::startd::test;

namespace {
const std::string kJob = "[ Owner = \"alice\"; User = \"alice@pool\"; JobUniverse = 5; ImageSize = 1000 ]";
}

TEST_CASE("Owner: A/1 to Unclaimed when IS_OWNER is not true, B/2 back when it is", "[startd][slot]") {
  // The Desktop policy: IS_OWNER = (START =?= False).
  SlotHarness h("use POLICY : Desktop\n");
  CHECK(h.state() == "Unclaimed/Idle");  // keyboard idle long, load low: START true
  CHECK(h.transitions() == "A/1");
  h.sensors("KeyboardIdle = 10\n", 60);  // the owner is typing: START false
  CHECK(h.state() == "Owner/Idle");
  CHECK(h.transitions() == "B/2");
  CHECK(h.did(ActionKind::Advertise));
  h.sensors("KeyboardIdle = 2000\n", 600);
  CHECK(h.state() == "Unclaimed/Idle");
  CHECK(h.transitions() == "A/1");
  CHECK(h.attr("EnteredCurrentState") == std::to_string(h.now()));
}

TEST_CASE("the spec's Owner examples: UNDEFINED leaves Owner, FALSE keeps it", "[startd][slot]") {
  // START = KeyboardIdle > 15 * $(MINUTE) && Owner == "coltrane" with
  // KeyboardIdle 34: "anything && FALSE is FALSE" -> stays Owner.
  SlotHarness stay("use POLICY : Desktop\nSTART = KeyboardIdle > 15 * $(MINUTE) && Owner == \"coltrane\"\n");
  stay.sensors("KeyboardIdle = 34\n", 1);
  CHECK(stay.state() == "Owner/Idle");
  // With || it is FALSE || UNDEFINED = UNDEFINED: the machine leaves Owner.
  SlotHarness leave("use POLICY : Desktop\nSTART = KeyboardIdle > 15 * $(MINUTE) || Owner == \"coltrane\"\n");
  leave.sensors("KeyboardIdle = 34\n", 1);
  CHECK(leave.state() == "Unclaimed/Idle");
}

TEST_CASE("Unclaimed: 3 and 4, benchmarks when RUNBENCHMARKS", "[startd][slot]") {
  SlotHarness h("RUNBENCHMARKS = (time() - LastBenchmark) >= (4 * 3600)\n");
  CHECK(h.state() == "Unclaimed/Benchmarking");
  CHECK(h.transitions() == "A/1 3");
  CHECK(h.did(ActionKind::RunBenchmarks));
  h.send(BenchmarksDone{1000, 2000}, 30);
  CHECK(h.state() == "Unclaimed/Idle");
  CHECK(h.transitions() == "4");
  CHECK(h.attr("LastBenchmark") == std::to_string(h.now()));
  CHECK(h.attr("Mips") == "1000.0");
  h.tick(3600);
  CHECK(h.state() == "Unclaimed/Idle");
  h.tick(4 * 3600);
  CHECK(h.state() == "Unclaimed/Benchmarking");
}

TEST_CASE("Unclaimed: C/6 to Matched, then G/9 to Claimed, Requirements False while Matched",
          "[startd][slot]") {
  SlotHarness h("");
  CHECK(h.attr("Requirements") == "true");
  h.send(MatchNotified{"claim1"});
  CHECK(h.state() == "Matched/Idle");
  CHECK(h.transitions() == "C/6");
  CHECK(h.attr("Requirements") == "false");
  h.claim(kJob);
  CHECK(h.state() == "Claimed/Idle");
  CHECK(h.transitions() == "G/9");
  CHECK(h.did(ActionKind::AcceptClaim));
  CHECK(h.attr("RemoteOwner") == "\"alice\"");
  CHECK(h.attr("RemoteUser") == "\"alice@pool\"");
}

TEST_CASE("a claimed slot advertises the licenses its job holds, and forgets them with the claim",
          "[startd][slot][concurrency]") {
  SlotHarness h("");
  h.run("[ Owner = \"alice\"; User = \"alice@pool\"; ConcurrencyLimits = \"lic,db:2\" ]");
  CHECK(h.attr("ConcurrencyLimits") == "\"lic,db:2\"");
  h.send(JobExited{"claim1"}, 10);
  h.send(ReleaseClaim{"claim1"}, 1);
  CHECK(h.state() == "Unclaimed/Idle");
  CHECK(h.attr("ConcurrencyLimits") == "<none>");
}

TEST_CASE("Unclaimed: D/5 straight to Claimed when the claim arrives first", "[startd][slot]") {
  SlotHarness h("");
  h.claim(kJob);
  CHECK(h.state() == "Claimed/Idle");
  CHECK(h.transitions() == "D/5");
}

TEST_CASE("a claim START refuses is refused", "[startd][slot]") {
  SlotHarness h("START = TARGET.Owner == \"bob\"\n");
  CHECK(h.state() == "Unclaimed/Idle");
  h.claim(kJob);
  CHECK(h.did(ActionKind::RefuseClaim));
  CHECK(h.state() == "Unclaimed/Idle");
  h.send(MatchNotified{"m1"});
  h.claim(kJob, "other");
  CHECK(h.did(ActionKind::RefuseClaim));  // matched to another claim
  CHECK(h.state() == "Matched/Idle");
}

TEST_CASE("Matched: F/8 on MATCH_TIMEOUT, then A/1 again", "[startd][slot]") {
  SlotHarness h("MATCH_TIMEOUT = 120\n");
  h.send(MatchNotified{"claim1"});
  CHECK(h.slot().next_deadline() == h.now() + 120);
  h.tick(119);
  CHECK(h.state() == "Matched/Idle");
  h.tick(1);
  CHECK(h.transitions() == "F/8 A/1");
  CHECK(h.state() == "Unclaimed/Idle");
}

TEST_CASE("Matched: F/8 when START locally evaluates to FALSE, or on vacate", "[startd][slot]") {
  SlotHarness h("use POLICY : Desktop\n");
  h.send(MatchNotified{"claim1"});
  h.sensors("KeyboardIdle = 5\n", 10);
  CHECK(h.transitions() == "F/8");
  CHECK(h.state() == "Owner/Idle");
  SlotHarness v("");
  v.send(MatchNotified{"claim1"});
  v.send(Vacate{});
  CHECK(v.transitions() == "F/8 A/1");
}

TEST_CASE("Unclaimed: E/7 to Backfill, 26, 27, K/28, 29, K/30 on EVICT_BACKFILL", "[startd][slot]") {
  SlotHarness h(
      "ENABLE_BACKFILL = True\nSTART_BACKFILL = KeyboardIdle > 600\nEVICT_BACKFILL = KeyboardIdle < 60\n");
  CHECK(h.state() == "Backfill/Idle");
  CHECK(h.transitions() == "A/1 E/7");
  CHECK(h.did(ActionKind::StartBackfill));
  h.send(BackfillStarted{});
  CHECK(h.transitions() == "26");
  CHECK(h.state() == "Backfill/Busy");
  h.send(BackfillExited{});
  CHECK(h.transitions() == "27");
  CHECK(h.did(ActionKind::StartBackfill));  // respawned
  h.send(BackfillStarted{});
  h.sensors("KeyboardIdle = 5\n", 10);
  CHECK(h.transitions() == "K/28");
  CHECK(h.did(ActionKind::KillBackfill));
  h.send(BackfillExited{});
  CHECK(h.transitions() == "29 K/30 A/1");  // IS_OWNER is false: on to Unclaimed
  CHECK(h.state() == "Unclaimed/Idle");
}

TEST_CASE("Backfill: L/32 to Matched and M/31 to Claimed once backfill is gone", "[startd][slot]") {
  SlotHarness m("ENABLE_BACKFILL = True\nSTART_BACKFILL = True\n");
  m.send(BackfillStarted{});
  m.send(MatchNotified{"claim1"});
  CHECK(m.transitions() == "28");
  m.send(BackfillExited{});
  CHECK(m.transitions() == "29 L/32");
  CHECK(m.state() == "Matched/Idle");
  SlotHarness c("ENABLE_BACKFILL = True\nSTART_BACKFILL = True\n");
  c.send(BackfillStarted{});
  c.claim(kJob);
  CHECK(c.did(ActionKind::ClaimPending));  // the schedd waits for the backfill job to go
  CHECK(!c.did(ActionKind::AcceptClaim));
  c.send(BackfillExited{});
  CHECK(c.transitions() == "29 M/31");
  CHECK(c.state() == "Claimed/Idle");
  CHECK(c.did(ActionKind::AcceptClaim));
}

TEST_CASE("Claimed/Idle: 11 to Busy on activation, 12 back when the job exits", "[startd][slot]") {
  SlotHarness h("CLAIM_WORKLIFE = -1\n");
  h.claim(kJob);
  h.activate(kJob);
  CHECK(h.transitions() == "11");
  CHECK(h.did(ActionKind::StartJob));
  CHECK(h.attr("JobStart") == std::to_string(h.now()));
  h.send(JobExited{"claim1"}, 300);
  CHECK(h.transitions() == "12");
  CHECK(h.state() == "Claimed/Idle");
  CHECK(h.attr("JobStart") == "<none>");
  h.activate(kJob);  // the claim takes another job
  CHECK(h.state() == "Claimed/Busy");
  h.activate(kJob);
  CHECK(h.did(ActionKind::RefuseClaim));  // not idle
}

TEST_CASE("Claimed/Idle: H/10 when START locally turns FALSE, then J/22", "[startd][slot]") {
  SlotHarness h("use POLICY : Desktop\n");
  h.claim(kJob);
  h.sensors("KeyboardIdle = 1\n", 5);
  CHECK(h.transitions() == "H/10 J/22");
  CHECK(h.state() == "Owner/Idle");
  CHECK(h.did(ActionKind::ClaimEnded));
}

TEST_CASE("a released claim goes Preempting then Owner and Unclaimed (H/10, J/22, A/1)", "[startd][slot]") {
  SlotHarness h("");
  h.claim(kJob);
  h.send(ReleaseClaim{"claim1"});
  CHECK(h.transitions() == "H/10 J/22 A/1");
  CHECK(h.state() == "Unclaimed/Idle");
  CHECK(h.slot().claim_id().empty());
}

TEST_CASE("CLAIM_WORKLIFE: an old claim takes no new job", "[startd][slot]") {
  // The thesis: CLAIM_WORKLIFE = 0, every claim runs one job.
  SlotHarness h("CLAIM_WORKLIFE = 0\n");
  h.run(kJob);
  h.send(JobExited{"claim1"}, 60);
  CHECK(h.transitions() == "12 H/10 J/22 A/1");
  CHECK(h.state() == "Unclaimed/Idle");
  SlotHarness w("CLAIM_WORKLIFE = 600\n");
  w.claim(kJob);
  w.tick(601);
  w.activate(kJob);
  CHECK(w.did(ActionKind::RefuseClaim));
  CHECK(w.state() == "Unclaimed/Idle");
}

TEST_CASE("Claimed/Busy: 14 suspend and 15 continue when WANT_SUSPEND", "[startd][slot]") {
  SlotHarness h("WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = KeyboardIdle > 300\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 5\n", 100);
  CHECK(h.transitions() == "14");
  CHECK(h.state() == "Claimed/Suspended");
  CHECK(h.did(ActionKind::SuspendJob));
  h.sensors("KeyboardIdle = 200\n", 200);
  CHECK(h.state() == "Claimed/Suspended");
  h.sensors("KeyboardIdle = 400\n", 200);
  CHECK(h.transitions() == "15");
  CHECK(h.state() == "Claimed/Busy");
  CHECK(h.did(ActionKind::ContinueJob));
}

TEST_CASE("Claimed/Busy: H/13 retire on PREEMPT when WANT_SUSPEND is not true, 18 and J/22",
          "[startd][slot]") {
  SlotHarness h("PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nMAXJOBRETIREMENTTIME = 0\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 1\n", 100);
  // No retirement time: Retiring ends at once; WANT_VACATE: soft kill.
  CHECK(h.transitions() == "H/13 18");
  CHECK(h.state() == "Preempting/Vacating");
  CHECK(h.did(ActionKind::SoftKill));
  h.send(JobExited{"claim1"}, 5);
  CHECK(h.transitions() == "J/22 A/1");
  CHECK(h.state() == "Unclaimed/Idle");
  CHECK(h.did(ActionKind::ClaimEnded));
}

TEST_CASE("a release retires a running job, one at once (condor_rm) vacates it now", "[startd][slot]") {
  SlotHarness h("MAXJOBRETIREMENTTIME = 3600\nWANT_VACATE = True\n");
  h.run(kJob);
  h.send(ReleaseClaim{"claim1"}, 10);
  CHECK(h.transitions() == "H/13");
  CHECK(h.state() == "Claimed/Retiring");
  SlotHarness now("MAXJOBRETIREMENTTIME = 3600\nWANT_VACATE = True\n");
  now.run(kJob);
  now.send(ReleaseClaim{"claim1", true}, 10);
  CHECK(now.transitions() == "H/10");
  CHECK(now.state() == "Preempting/Vacating");
  CHECK(now.did(ActionKind::SoftKill));
  now.send(JobExited{"claim1"}, 2);
  CHECK(now.state() == "Unclaimed/Idle");
  CHECK(now.did(ActionKind::ClaimEnded));
}

TEST_CASE("WANT_SUSPEND true means PREEMPT is not consulted from Busy", "[startd][slot]") {
  SlotHarness h("WANT_SUSPEND = True\nSUSPEND = False\nPREEMPT = True\n");
  h.run(kJob);
  h.tick(60);
  CHECK(h.state() == "Claimed/Busy");
}

TEST_CASE("retirement: MAXJOBRETIREMENTTIME and the job's MaxJobRetirementTime, smaller wins",
          "[startd][slot]") {
  SlotHarness h("PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = 3600\nWANT_VACATE = False\n");
  CHECK(h.attr("MaxJobRetirementTime") == "<none>");
  h.run("[ Owner = \"a\"; MaxJobRetirementTime = 600 ]");
  // The negotiator reads the retirement granted, with JobStart, to leave
  // the job alone (NEGOTIATOR_CONSIDER_EARLY_PREEMPTION).
  CHECK(h.attr("MaxJobRetirementTime") == "600.0");
  CHECK(h.attr("JobStart") == std::to_string(h.now()));
  h.sensors("KeyboardIdle = 1\n", 100);
  CHECK(h.state() == "Claimed/Retiring");
  CHECK(h.slot().next_deadline() == h.now() + 500);  // 600 - 100 already run
  h.tick(499);
  CHECK(h.state() == "Claimed/Retiring");
  h.tick(1);
  CHECK(h.transitions() == "18");
  CHECK(h.state() == "Preempting/Killing");  // WANT_VACATE false: hard kill
  CHECK(h.did(ActionKind::HardKill));
  h.send(JobExited{"claim1"}, 1);
  CHECK(h.transitions() == "J/25 A/1");
  CHECK(h.attr("MaxJobRetirementTime") == "<none>");
}

TEST_CASE("retirement: a job that finishes while retiring goes straight on (18)", "[startd][slot]") {
  SlotHarness h("PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = 3600\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 1\n", 10);
  CHECK(h.state() == "Claimed/Retiring");
  h.send(JobExited{"claim1"}, 100);
  CHECK(h.transitions() == "18 J/22 A/1");
  CHECK(h.state() == "Unclaimed/Idle");
}

TEST_CASE("retirement: suspension time does not count (20, 16, 17)", "[startd][slot]") {
  SlotHarness h(
      "PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = 1000\nWANT_SUSPEND = ConsoleIdle < 60\n"
      "SUSPEND = ConsoleIdle < 60\nCONTINUE = ConsoleIdle > 600\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 1\n", 100);  // retire at 100 s of run time
  CHECK(h.state() == "Claimed/Retiring");
  h.sensors("ConsoleIdle = 1\n", 100);  // 200 s: suspended in retirement
  CHECK(h.transitions() == "20");
  CHECK(h.state() == "Claimed/Suspended");
  h.tick(5000);  // suspended: retirement is not used up
  CHECK(h.state() == "Claimed/Suspended");
  h.sensors("ConsoleIdle = 700\n", 10);
  CHECK(h.transitions() == "16");
  CHECK(h.state() == "Claimed/Retiring");
  CHECK(h.did(ActionKind::ContinueJob));
  // 200 s of running so far: 800 s of retirement left.
  CHECK(h.slot().next_deadline() == h.now() + 800);
}

TEST_CASE("Suspended: 16 to Retiring when PREEMPT, then the rest of the eviction", "[startd][slot]") {
  SlotHarness h(
      "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = False\n"
      "PREEMPT = Activity == \"Suspended\" && (time() - EnteredCurrentActivity) > 600\nWANT_VACATE = True\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 1\n", 60);
  CHECK(h.state() == "Claimed/Suspended");
  h.tick(601);
  CHECK(h.transitions() == "16 18");
  CHECK(h.state() == "Preempting/Vacating");
  CHECK(h.did(ActionKind::ContinueJob));
  CHECK(h.did(ActionKind::SoftKill));
}

TEST_CASE("suspended retirement that runs out goes to Preempting (17)", "[startd][slot]") {
  SlotHarness h(
      "PREEMPT = KeyboardIdle < 60\nMAXJOBRETIREMENTTIME = RetireLimit\nWANT_SUSPEND = True\n"
      "SUSPEND = ConsoleIdle < 60\nCONTINUE = False\n");
  h.sensors("RetireLimit = 1000\n");
  h.run(kJob);
  // WANT_SUSPEND is true, so PREEMPT is not consulted from Busy: retire by
  // shutdown instead.
  h.send(Shutdown{}, 100);
  CHECK(h.state() == "Claimed/Retiring");
  h.sensors("ConsoleIdle = 1\n", 10);
  CHECK(h.state() == "Claimed/Suspended");
  // "only possible if MaxJobRetirementTime decreases during the suspension"
  h.sensors("RetireLimit = 50\n", 10);
  CHECK(h.transitions() == "17");
  CHECK(h.state() == "Preempting/Killing");
  CHECK(h.did(ActionKind::ContinueJob));
  CHECK(h.did(ActionKind::HardKill));
}

TEST_CASE("Preempting/Vacating: 21 to Killing when KILL, or when the vacate time is up", "[startd][slot]") {
  SlotHarness k("PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nKILL = ConsoleIdle < 60\n");
  k.run(kJob);
  k.sensors("KeyboardIdle = 1\n", 10);
  CHECK(k.state() == "Preempting/Vacating");
  k.sensors("ConsoleIdle = 1\n", 5);
  CHECK(k.transitions() == "21");
  CHECK(k.state() == "Preempting/Killing");
  CHECK(k.did(ActionKind::HardKill));

  SlotHarness t("PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nMachineMaxVacateTime = 300\n");
  t.run(kJob);
  t.sensors("KeyboardIdle = 1\n", 10);
  CHECK(t.slot().next_deadline() == t.now() + 300);
  t.tick(299);
  CHECK(t.state() == "Preempting/Vacating");
  t.tick(1);
  CHECK(t.transitions() == "21");
}

TEST_CASE("vacate time: JobMaxVacateTime, and retirement converted into vacating time", "[startd][slot]") {
  // The job's smaller setting wins.
  SlotHarness small("PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nMachineMaxVacateTime = 600\n");
  small.run("[ Owner = \"a\"; JobMaxVacateTime = 100 ]");
  small.sensors("KeyboardIdle = 1\n", 10);
  CHECK(small.slot().next_deadline() == small.now() + 100);
  // A larger setting is granted out of retirement time left: with 800 s of
  // retirement left and JobMaxVacateTime 1000, vacating gets 800 s and
  // starts as soon as retirement begins.
  SlotHarness big(
      "PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nMachineMaxVacateTime = 600\n"
      "MAXJOBRETIREMENTTIME = 900\n");
  big.run("[ Owner = \"a\"; JobMaxVacateTime = 1000 ]");
  big.sensors("KeyboardIdle = 1\n", 100);
  CHECK(big.state() == "Preempting/Vacating");
  CHECK(big.slot().next_deadline() == big.now() + 800);
  // Without retirement left, the machine's time caps it.
  SlotHarness none("PREEMPT = KeyboardIdle < 60\nWANT_VACATE = True\nMachineMaxVacateTime = 600\n");
  none.run("[ Owner = \"a\"; JobMaxVacateTime = 1000 ]");
  none.sensors("KeyboardIdle = 1\n", 100);
  CHECK(none.slot().next_deadline() == none.now() + 600);
}

TEST_CASE("Preempting/Killing: KILLING_TIMEOUT escalates the kill", "[startd][slot]") {
  SlotHarness h("PREEMPT = KeyboardIdle < 60\nKILLING_TIMEOUT = 30\n");
  h.run(kJob);
  h.sensors("KeyboardIdle = 1\n", 10);
  CHECK(h.state() == "Preempting/Killing");
  h.tick(29);
  CHECK(!h.did(ActionKind::HardKill));
  h.tick(1);
  CHECK(h.did(ActionKind::HardKill));
  CHECK(h.state() == "Preempting/Killing");
  h.tick(60);
  CHECK(!h.did(ActionKind::HardKill));  // once
}

TEST_CASE("a better match: H/13 retire, then I/23 or I/24 to the new claim, 19 if it goes away",
          "[startd][slot]") {
  // RANK prefers bob: his claim preempts alice's.
  SlotHarness h(
      "RANK = TARGET.Owner == \"bob\"\nWANT_VACATE = True\nMAXJOBRETIREMENTTIME = 600\nMachineMaxVacateTime "
      "= 60\n");
  h.run(kJob);
  CHECK(h.attr("CurrentRank") == "0.0");
  h.claim("[ Owner = \"carol\" ]", "claim2");  // ranks no higher: refused
  CHECK(h.did(ActionKind::RefuseClaim));
  h.claim("[ Owner = \"bob\" ]", "claim3");
  CHECK(h.did(ActionKind::ClaimPending));  // bob's schedd waits for alice's job to go
  CHECK(!h.did(ActionKind::AcceptClaim));
  CHECK(h.transitions() == "H/13");
  CHECK(h.state() == "Claimed/Retiring");
  h.send(PreemptingClaimWithdrawn{}, 10);
  CHECK(h.transitions() == "19");
  CHECK(h.state() == "Claimed/Busy");
  // Again, and this time the retirement runs out: vacate, then the new claim.
  h.claim("[ Owner = \"bob\" ]", "claim3");
  h.tick(529);  // 590 s of retirement left (10 s run) less 60 s of vacating
  CHECK(h.state() == "Claimed/Retiring");
  h.tick(1);
  CHECK(h.state() == "Preempting/Vacating");
  h.send(JobExited{"claim1"}, 5);
  CHECK(h.transitions() == "I/23");
  CHECK(h.did(ActionKind::ClaimEnded));   // alice's schedd hears her claim is over,
  CHECK(h.did(ActionKind::AcceptClaim));  // then bob's that his may activate
  CHECK(h.state() == "Claimed/Idle");
  CHECK(h.slot().claim_id() == "claim3");
  CHECK(h.attr("CurrentRank") == "1.0");
  CHECK(h.attr("RemoteOwner") == "\"bob\"");
}

TEST_CASE("a priority preemption from the negotiator, hard kill: I/24", "[startd][slot]") {
  SlotHarness h("WANT_VACATE = False\n");
  h.run(kJob);
  h.claim("[ Owner = \"bob\" ]", "claim9", /*preempting=*/true);
  CHECK(h.transitions() == "H/13 18");
  CHECK(h.state() == "Preempting/Killing");
  h.send(JobExited{"claim1"}, 2);
  CHECK(h.transitions() == "I/24");
  CHECK(h.slot().claim_id() == "claim9");
}

TEST_CASE("condor_vacate: H/10 soft or fast, and J back to Owner", "[startd][slot]") {
  SlotHarness h("WANT_VACATE = True\nMAXJOBRETIREMENTTIME = 3600\n");
  h.run(kJob);
  h.send(Vacate{});  // no retirement for a vacate
  CHECK(h.transitions() == "H/10");
  CHECK(h.state() == "Preempting/Vacating");
  h.send(Vacate{true});
  CHECK(h.transitions() == "21");
  h.send(JobExited{"claim1"}, 1);
  CHECK(h.transitions() == "J/25 A/1");
}

TEST_CASE("shutdown: graceful retires, fast kills, peaceful waits", "[startd][slot]") {
  SlotHarness g("MAXJOBRETIREMENTTIME = 100\nWANT_VACATE = True\nMachineMaxVacateTime = 10\n");
  g.run(kJob);
  g.send(Shutdown{}, 10);
  CHECK(g.state() == "Claimed/Retiring");
  SlotHarness f("MAXJOBRETIREMENTTIME = 100\nWANT_VACATE = True\n");
  f.run(kJob);
  f.send(Shutdown{Shutdown::How::Fast}, 10);
  CHECK(f.state() == "Preempting/Killing");
  SlotHarness p("MAXJOBRETIREMENTTIME = 100\n");
  p.run(kJob);
  p.send(Shutdown{Shutdown::How::Peaceful}, 10);
  p.tick(1000000);
  CHECK(p.state() == "Claimed/Retiring");
  CHECK(!p.slot().next_deadline());
}

TEST_CASE("draining: N/36, P/37, 33, O/34, O/35, and DEFRAG_DRAINING_START_EXPR", "[startd][slot]") {
  SlotHarness o("IS_OWNER = True\n");
  CHECK(o.state() == "Owner/Idle");
  o.send(Drain{});
  CHECK(o.transitions() == "N/36");
  CHECK(o.state() == "Drained/Retiring");
  CHECK(o.attr("Requirements") == "false");
  o.send(AllSlotsDrained{}, 100);
  CHECK(o.transitions() == "33");
  CHECK(o.state() == "Drained/Idle");
  o.send(CancelDrain{}, 100);
  CHECK(o.transitions() == "O/35");
  CHECK(o.slot().drain_unclaimed() == 200);  // cpu-seconds, of one cpu

  SlotHarness u("");
  u.send(Drain{});
  CHECK(u.transitions() == "P/37");
  u.send(CancelDrain{}, 10);
  CHECK(u.transitions() == "O/34 A/1");

  // Graceful draining of a running job: retirement honoured, START becomes
  // the drain's expression meanwhile.
  SlotHarness c("MAXJOBRETIREMENTTIME = 300\nWANT_VACATE = False\n");
  c.run(kJob);
  c.send(Drain{DrainSchedule::Graceful, *classad::parse_expression("MaxJobRetirementTime == 0")}, 100);
  CHECK(c.state() == "Claimed/Retiring");
  CHECK(c.attr("Start") == "MaxJobRetirementTime == 0");
  c.tick(200);
  CHECK(c.transitions() == "18");
  c.send(JobExited{"claim1"}, 1);
  CHECK(c.state() == "Drained/Retiring");
  CHECK(c.slot().drain_badput() == 300);
  // Quick draining skips retirement but lets the job vacate; fast kills.
  SlotHarness q("MAXJOBRETIREMENTTIME = 3000\nWANT_VACATE = True\n");
  q.run(kJob);
  q.send(Drain{DrainSchedule::Quick, nullptr}, 50);
  CHECK(q.state() == "Preempting/Vacating");
  CHECK(q.slot().drain_badput() == 50);
  SlotHarness f("MAXJOBRETIREMENTTIME = 3000\nWANT_VACATE = True\n");
  f.run(kJob);
  f.send(Drain{DrainSchedule::Fast, nullptr}, 50);
  CHECK(f.state() == "Preempting/Killing");
  // A draining slot refuses new claims.
  SlotHarness r("");
  r.send(Drain{});
  r.claim(kJob);
  CHECK(r.did(ActionKind::RefuseClaim));
}

TEST_CASE("vanilla jobs use the _VANILLA expressions when defined", "[startd][slot]") {
  SlotHarness h(
      "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nWANT_SUSPEND_VANILLA = False\n"
      "PREEMPT_VANILLA = KeyboardIdle < 60\n");
  h.run(kJob);  // JobUniverse 5: no suspension, PREEMPT_VANILLA applies
  h.sensors("KeyboardIdle = 1\n", 10);
  CHECK(h.state() == "Preempting/Killing");
  SlotHarness other(
      "WANT_SUSPEND = True\nSUSPEND = KeyboardIdle < 60\nCONTINUE = False\nWANT_SUSPEND_VANILLA = False\n");
  other.run("[ Owner = \"a\"; JobUniverse = 7 ]");
  other.sensors("KeyboardIdle = 1\n", 10);
  CHECK(other.state() == "Claimed/Suspended");
}

TEST_CASE("ClockMin and ClockDay follow the time and zone", "[startd][slot]") {
  SlotHarness h("", kTuesday10am);
  CHECK(h.attr("ClockMin") == "600");
  CHECK(h.attr("ClockDay") == "2");
  h.tick(14 * 3600);  // Wednesday 00:00
  CHECK(h.attr("ClockMin") == "0");
  CHECK(h.attr("ClockDay") == "3");
}

TEST_CASE("a claimed slot advertises its user's accounting principal with the domain", "[startd][slot]") {
  // HTCondor's startd publishes AccountingGroup as group.user@uid_domain,
  // the name the negotiator charges; the job's own attribute has no domain.
  SlotHarness h("");
  h.claim(
      "[ Owner = \"cms001\"; User = \"cms001@physik.rwth-aachen.de\"; "
      "AccountingGroup = \"group_cms.cms.cms001\"; JobUniverse = 5 ]");
  CHECK(h.state() == "Claimed/Idle");
  CHECK(h.attr("AccountingGroup") == "\"group_cms.cms.cms001@physik.rwth-aachen.de\"");
  CHECK(h.attr("RemoteUser") == "\"cms001@physik.rwth-aachen.de\"");
}

TEST_CASE("a claimed slot shows only the public part of its claim id", "[startd][slot]") {
  // "<public>#<secret>": the secret would let anyone who reads the
  // collector claim the slot.
  SlotHarness h("");
  h.claim("[ Owner = \"a\" ]", "1700000000.7#5ec2e7");
  CHECK(h.attr("PublicClaimId") == "\"1700000000.7\"");
  for (const classad::Attribute& a : h.slot().ad().attributes())
    CHECK(classad::unparse(*a.expr).find("5ec2e7") == std::string::npos);
  SlotHarness bare("");
  bare.claim("[ Owner = \"a\" ]", "secretonly");
  CHECK(bare.attr("PublicClaimId") == "<none>");
}
