// Worked examples from ../shared/spec/ as tests.
#include "model/classad/match.h"
#include "support.h"

using namespace cara::classad;
using cara::classad::test::ad;
using cara::classad::test::ev;

// policy-configuration-ep-ap.txt, "The RANK Expression": the research group
// tenorsax/piano/bass/drums owned by coltrane/tyner/garrison/jones.
TEST_CASE("spec: RANK prefers the group's own users", "[spec]") {
  const std::string group_rank =
      "Owner == \"coltrane\" || Owner == \"tyner\" || Owner == \"garrison\" || Owner == \"jones\"";
  for (const char* owner : {"coltrane", "tyner", "garrison", "jones"}) {
    ClassAd job = ad(std::string("[ Owner = \"") + owner + "\" ]");
    CHECK(ev(group_rank, &job) == "true");
  }
  ClassAd stranger = ad("[ Owner = \"miles\" ]");
  CHECK(ev(group_rank, &stranger) == "false");

  // On bass: RANK = (Owner == "coltrane") + (Owner == "tyner")
  //               + ((Owner == "garrison") * 10) + (Owner == "jones")
  ClassAd bass = ad(
      "[ RANK = (Owner == \"coltrane\") + (Owner == \"tyner\") + ((Owner == \"garrison\") * 10) + "
      "(Owner == \"jones\") ]");
  auto rank_for = [&](const char* owner) {
    ClassAd job = ad(std::string("[ Owner = \"") + owner + "\" ]");
    return rank(bass, job);
  };
  CHECK(rank_for("miles") == 0.0);     // "the RANK would evaluate numerically to 0"
  CHECK(rank_for("jones") == 1.0);     // Elvin Jones: 1
  CHECK(rank_for("garrison") == 10.0); // Jimmy Garrison: 10, so he preempts Jones
  CHECK(rank_for("garrison") > rank_for("jones"));

  // RANK = ImageSize: the bigger the job, the more the machine wants it.
  ClassAd big = ad("[ RANK = ImageSize ]");
  ClassAd small_job = ad("[ ImageSize = 100 ]");
  ClassAd large_job = ad("[ ImageSize = 200000 ]");
  CHECK(rank(big, large_job) > rank(big, small_job));

  // The spec's Coltrane RANK, written as it is printed, multiplies a string
  // by a number: without the parentheses it intends, it is an error, which
  // ranks as 0.
  ClassAd coltrane_literal = ad("[ RANK = (Owner == \"coltrane\" * 1000000000000) + Imagesize ]");
  ClassAd job = ad("[ Owner = \"coltrane\"; ImageSize = 5 ]");
  CHECK(ev("(Owner == \"coltrane\" * 1000000000000) + Imagesize", &job) == "error");
  CHECK(rank(coltrane_literal, job) == 0.0);
  ClassAd coltrane = ad("[ RANK = ((Owner == \"coltrane\") * 1000000000000) + Imagesize ]");
  CHECK(rank(coltrane, job) == 1000000000005.0);
}

// policy-configuration-ep-ap.txt, "Owner State": with POLICY : Desktop,
// IS_OWNER = (START =?= FALSE), evaluated by the machine alone.
TEST_CASE("spec: START locally evaluated in the Owner state", "[spec]") {
  const char* is_owner = "START =?= FALSE";
  // START = KeyboardIdle > 15 * $(MINUTE) && Owner == "coltrane", idle 34 s:
  // "Owner is undefined, and anything && FALSE is FALSE" -> stays Owner.
  ClassAd m1 = ad("[ KeyboardIdle = 34; START = KeyboardIdle > 15 * 60 && Owner == \"coltrane\" ]");
  CHECK(ev("START", &m1) == "false");
  CHECK(ev(is_owner, &m1) == "true");
  // START = KeyboardIdle > 15 * $(MINUTE) || Owner == "coltrane":
  // "FALSE || UNDEFINED is UNDEFINED" -> leaves Owner for Unclaimed.
  ClassAd m2 = ad("[ KeyboardIdle = 34; START = KeyboardIdle > 15 * 60 || Owner == \"coltrane\" ]");
  CHECK(ev("START", &m2) == "undefined");
  CHECK(ev(is_owner, &m2) == "false");
  // ... and coltrane's job would be willing to run there.
  ClassAd coltrane = ad("[ Owner = \"coltrane\" ]");
  CHECK(ev("START", &m2, &coltrane) == "true");
  ClassAd other = ad("[ Owner = \"miles\" ]");
  CHECK(ev("START", &m2, &other) == "false");
}

// thesis-migrating-to-htcondor-rwth-2018.md, figure 18: slot START
// expressions that send the listed users, groups and short-queue jobs to
// slot type 2 and everyone else to the partitionable slot 1.
TEST_CASE("thesis: slot START with stringListIMember and =?=", "[spec]") {
  const std::string high_priority =
      "(stringListIMember(TARGET.Owner, \"cmss cmsp014 cmsp015 cmspi043 cmspi058\") "
      "|| (TARGET.AcctGroup =?= \"group_ops\") || (TARGET.AcctGroup =?= \"group_dteam\") "
      "|| (TARGET.CreamQueue =?= \"short\"))";
  ClassAd slot1 = ad("[ START = true; Requirements = START && " + high_priority + " != true ]");
  ClassAd slot2 = ad("[ START = true; Requirements = START && " + high_priority + " ]");
  struct Case {
    const char* job;
    bool slot1, slot2;
  } cases[] = {
      {"[ Owner = \"cmsp014\" ]", false, true},
      {"[ Owner = \"CMSS\" ]", false, true},  // case-insensitive member
      {"[ Owner = \"cms001\"; AcctGroup = \"group_ops\" ]", false, true},
      {"[ Owner = \"cms001\"; AcctGroup = \"group_dteam\" ]", false, true},
      {"[ Owner = \"cms001\"; CreamQueue = \"short\" ]", false, true},
      {"[ Owner = \"cms001\"; AcctGroup = \"group_cms.cms\" ]", true, false},
      {"[ Owner = \"cms001\"; CreamQueue = \"long\" ]", true, false},
  };
  for (const auto& c : cases) {
    INFO(c.job);
    ClassAd job = ad(c.job);
    CHECK(requirements_met(slot1, job) == c.slot1);
    CHECK(requirements_met(slot2, job) == c.slot2);
  }
}

// Thesis figure 8 (slot) and figure 9 (job): RequestMemory written with
// `MemoryUsage != undefined` is undefined under ClassAd semantics (use =!=),
// so that job matches no slot; with =!= it asks for (ImageSize+1023)/1024.
TEST_CASE("thesis: figure 8 slot and figure 9 job", "[spec]") {
  ClassAd slot = ad(
      "Activity = \"Idle\"\nCpus = 4\nDisk = 115943020\nKeyboardIdle = 5\nLoadAvg = 0.1\nMemory = 6324\n"
      "Name = \"slot1@lx3b39.physik.rwth-aachen.de\"\nOpSys = \"LINUX\"\nRank = 0\n"
      "Requirements = (START)\nStart = (KeyboardIdle > 15*60) && (LoadAvg <= 0.3)\nState = \"Owner\"\n");
  ClassAd job = ad(
      "ClusterId=1\nCmd=\"/home/cms001/testjob.sh\"\nJobUniverse=5\nOwner=\"cms001\"\n"
      "AcctGroup = \"group_cms.cms\"\nRequirements=(TARGET.OpSys == \"LINUX\") && (TARGET.Memory >= RequestMemory)\n"
      "RequestMemory=ifthenelse(MemoryUsage != undefined, MemoryUsage, (ImageSize + 1023) / 1024)\n"
      "ImageSize=1\nRank=0.0\nProcId=0\nArgs=\"0\"\nJobStatus=1\nOut=\"00.out\"\n");
  CHECK(ev("RequestMemory", &job, &slot) == "undefined");
  CHECK_FALSE(requirements_met(job, slot));
  job.insert("RequestMemory",
             *parse_expression("ifThenElse(MemoryUsage =!= undefined, MemoryUsage, (ImageSize + 1023) / 1024)"));
  CHECK(ev("RequestMemory", &job, &slot) == "1");  // integer division: (1 + 1023) / 1024
  CHECK(requirements_met(job, slot));
  // The slot's START needs 15 idle minutes; at KeyboardIdle = 5 it refuses.
  CHECK_FALSE(symmetric_match(job, slot));
  slot.set("KeyboardIdle", 901);
  CHECK(symmetric_match(job, slot));
}

// central-manager-configuration.rst: ephemeral attributes are tested with
// (RemoteUserPrio =?= UNDEFINED).
TEST_CASE("spec: testing ephemeral attributes with =?= UNDEFINED", "[spec]") {
  ClassAd slot = ad("[ Name = \"slot1@x\" ]");
  CHECK(ev("(RemoteUserPrio =?= UNDEFINED)", &slot) == "true");
  slot.set("RemoteUserPrio", 10.5);
  CHECK(ev("(RemoteUserPrio =?= UNDEFINED)", &slot) == "false");
}

// thesis appendix: NEGOTIATOR_POST_JOB_RANK.
TEST_CASE("thesis: NEGOTIATOR_POST_JOB_RANK", "[spec]") {
  const char* post_rank =
      "(RemoteOwner != UNDEFINED) * (ifThenElse(isUndefined(Mips), 1000, Mips) - SlotID - 1.0e10*(Offline!=True))";
  ClassAd slot = ad("[ SlotID = 3 ]");
  CHECK(ev(post_rank, &slot) == "undefined");  // != UNDEFINED is never true
}
