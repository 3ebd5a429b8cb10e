// The defrag daemon in the embedded pool under CAF's test coordinator: it
// reads the slots from the collector, drains a fragmented machine through
// its slot (the startd takes the order with the defrag's reason and
// resumes once drained), leaves whole machines alone, and advertises its
// ad (central-manager-configuration, "Defragmenting Dynamic Slots").
#include <csignal>

#include "actor/pool_fixture.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

// One machine drained a minute, a poll a minute.
constexpr const char* kDefrag =
    "DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR, DEFRAG\nDEFRAG_INTERVAL = 60\n"
    "DEFRAG_DRAINING_MACHINES_PER_HOUR = 60\nDEFRAG_UPDATE_INTERVAL = 60\n";

}  // namespace

TEST_CASE_METHOD(PoolFixture, "the defrag daemon drains the fragmented machine, which comes back whole",
                 "[actors][defrag]") {
  start({execution_point("ep1.test", 4, "WANT_VACATE = True\n"), execution_point("ep2.test", 4)}, kDefrag);
  REQUIRE(
      submit("executable = /bin/true\nrequest_cpus = 1\nrequirements = Machine == \"ep1.test\"\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  // ep1 runs a job on one of its four cpus; ep2 is whole. At the next
  // poll, ep1 is drained (gracefully: no retirement here, the job is
  // asked to leave at once), ep2 is not.
  advance(60);
  auto ep1 = ads(collector::AdType::Machine, "Name == \"slot1@ep1.test\"");
  REQUIRE(ep1.ads.size() == 1);
  CHECK(str(ep1.ads[0].ad, "DrainReason") == "Defrag cm.test");
  CHECK(ads(collector::AdType::Machine, "Machine == \"ep2.test\" && Draining").ads.empty());
  REQUIRE(runner->runs[0].signals.size() >= 1);
  CHECK(runner->runs[0].signals[0] == SIGTERM);
  CHECK(logged("INFO defrag: drain ep1.test (slot1@ep1.test): done"));
  CHECK(logged("drain (graceful) by this node: Defrag cm.test"));
  // The job leaves; the machine has drained and goes back to work, whole.
  runner->kill(0, SIGTERM);
  settle();
  ep1 = ads(collector::AdType::Machine, "Name == \"slot1@ep1.test\"");
  REQUIRE(ep1.ads.size() == 1);
  CHECK(str(ep1.ads[0].ad, "State") == "Unclaimed");
  CHECK(num(ep1.ads[0].ad, "Cpus") == 4);
  CHECK(str(ep1.ads[0].ad, "DrainReason").empty());
  // The job was evicted, not lost: it runs on ep1 again, which is then
  // fragmented again, and drained again at the next poll.
  advance(61);
  CHECK(runner->runs.size() == 2);
  auto defrag = ads(collector::AdType::Defrag);
  REQUIRE(defrag.ads.size() == 1);
  const classad::ClassAd& d = defrag.ads[0].ad;
  CHECK(str(d, "Name") == "cm.test");
  CHECK(str(d, "Machine") == "cm.test");
  CHECK(num(d, "DrainSuccesses") == 2);
  CHECK(num(d, "DrainFailures") == 0);
  CHECK(num(d, "WholeMachines") == 1);  // ep2; ep1 had its job back when polled
}

TEST_CASE_METHOD(PoolFixture, "a defrag daemon with a wrong policy does not start, naming the knob",
                 "[actors][defrag]") {
  auto bad = spawn_pool(
      sys,
      spec({make_config(std::string(kCentralManager) + kDefrag + "DEFRAG_SCHEDULE = never\n", "DEFRAG")}));
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::Contains("DEFRAG_SCHEDULE: 'never' is not a draining schedule"));
}

TEST_CASE_METHOD(PoolFixture,
                 "a defrag drain carries DEFRAG_SCHEDULE and DEFRAG_DRAINING_START_EXPR to the startd",
                 "[actors][defrag]") {
  // A job with retirement time left: a graceful drain lets it retire, and
  // meanwhile the machine takes only what DEFRAG_DRAINING_START_EXPR admits.
  start({execution_point("ep1.test", 4, "MAXJOBRETIREMENTTIME = 3600\n")},
        std::string(kDefrag) + "DEFRAG_DRAINING_START_EXPR = TARGET.MaxJobRetirementTime == 0\n");
  REQUIRE(submit("executable = /bin/true\nrequest_cpus = 1\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  advance(60);
  auto slot1 = ads(collector::AdType::Machine, "Name == \"slot1@ep1.test\"");
  REQUIRE(slot1.ads.size() == 1);
  CHECK(str(slot1.ads[0].ad, "DrainReason") == "Defrag cm.test");
  CHECK(classad::unparse(*slot1.ads[0].ad.find("Start")->expr) == "TARGET.MaxJobRetirementTime == 0");
  CHECK(runner->runs[0].signals.empty());  // retiring, not evicted
  auto running = ads(collector::AdType::Machine, "Activity == \"Retiring\"");
  CHECK(running.ads.size() == 1);
}

TEST_CASE_METHOD(PoolFixture, "DEFRAG_SCHEDULE = fast kills the fragmented machine's jobs at once",
                 "[actors][defrag]") {
  start({execution_point("ep1.test", 4, "MAXJOBRETIREMENTTIME = 3600\n")},
        std::string(kDefrag) + "DEFRAG_SCHEDULE = fast\n");
  REQUIRE(submit("executable = /bin/true\nrequest_cpus = 1\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  advance(60);
  REQUIRE(runner->runs[0].signals.size() >= 1);
  CHECK(runner->runs[0].signals[0] == SIGKILL);  // no retirement, no vacating
  CHECK(logged("drain (fast) by this node: Defrag cm.test"));
}
