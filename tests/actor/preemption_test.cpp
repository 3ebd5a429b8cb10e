// Preemption, eviction and suspension through the actors (issue 6): a job
// evicted by a better-priority match, by the slot's RANK or by its PREEMPT
// policy goes back to Idle and runs again; the starter's signals follow
// the slot's state machine (policy-configuration, "State and Activity
// Transitions"): soft kill, then hard kill after MachineMaxVacateTime;
// SIGSTOP/SIGCONT for SUSPEND/CONTINUE. Nothing runs twice at once.
#include <csignal>
#include <fstream>
#include <sstream>

#include "actor/pool_fixture.h"
#include "support/scratch.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

constexpr const char* kOneJob = "executable = /bin/true\nqueue\n";
// One static slot: what runs on it is all there is.
const std::string kStaticSlot =
    "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = false\n";

std::string owner_of(const FakeRunner::Run& r) {
  return str(r.job, "Owner");
}

// The job of `owner` in the queue (one each in these tests).
classad::ClassAd job_of(const std::vector<classad::ClassAd>& queue, const std::string& owner) {
  for (const classad::ClassAd& j : queue)
    if (str(j, "Owner") == owner) return j;
  FAIL("no job of " << owner << " in the queue");
  return {};
}

std::size_t count(const std::vector<int>& signals, int sig) {
  return static_cast<std::size_t>(std::count(signals.begin(), signals.end(), sig));
}

// A pool where alice's priority is far worse than bob's (factor 1000) and
// her jobs (`description`) fill the slots; `cm` is added to the central
// manager's configuration, which preempts for a better priority.
struct PreemptionFixture : PoolFixture {
  void alice_fills(const std::string& ep, const std::string& cm, const std::string& description, int running,
                   double settle_seconds = 1) {
    start({ep}, "PREEMPTION_REQUIREMENTS = True\n" + cm);
    REQUIRE(userprio(UserprioCommand{"setfactor", "alice@test", 1000, 0}).ok);
    REQUIRE(submit(description, "alice").ok);
    advance(settle_seconds);
    REQUIRE(runner->runs.size() == static_cast<std::size_t>(running));
  }
};

}  // namespace

TEST_CASE_METHOD(PreemptionFixture, "a better-priority user's match preempts a running job, which runs again",
                 "[actors][preemption]") {
  alice_fills(execution_point("ep1.test", 1, kStaticSlot + "WANT_VACATE = True\nMachineMaxVacateTime = 10\n"),
              "", kOneJob, 1);
  REQUIRE(owner_of(runner->runs[0]) == "alice");

  REQUIRE(submit(kOneJob, "bob").ok);
  advance(1);  // bob's submission asks for a cycle: it matches bob to alice's slot
  // The slot vacates alice's job with its kill signal (and SIGCONT, in
  // case it was stopped); bob's job waits for the slot.
  CHECK(count(runner->runs[0].signals, SIGTERM) == 1);
  CHECK(runner->runs.size() == 1);
  CHECK(ads(collector::AdType::Machine, "State == \"Preempting\" && Activity == \"Vacating\"").ads.size() ==
        1);

  runner->kill(0, SIGTERM);  // alice's job leaves
  settle();
  REQUIRE(runner->runs.size() == 2);
  CHECK(owner_of(runner->runs[1]) == "bob");
  auto jobs = queue();
  REQUIRE(jobs.size() == 2);
  CHECK(num(job_of(jobs, "alice"), "JobStatus") == 1);  // evicted back to Idle
  CHECK(num(job_of(jobs, "alice"), "NumJobStarts") == 1);
  CHECK(num(job_of(jobs, "bob"), "JobStatus") == 2);
  auto claimed = ads(collector::AdType::Machine, "State == \"Claimed\" && Activity == \"Busy\"");
  REQUIRE(claimed.ads.size() == 1);
  CHECK(str(claimed.ads[0].ad, "RemoteUser") == "bob@test");

  runner->finish(1, 0);  // bob is done; alice's job gets the slot again
  settle();
  advance(2);
  REQUIRE(runner->runs.size() == 3);
  CHECK(owner_of(runner->runs[2]) == "alice");
  CHECK(runner->running() == 1);  // never two at once on the one slot
  runner->finish(2, 0);
  settle();
  CHECK(queue().empty());
}

TEST_CASE_METHOD(PoolFixture, "the slot's RANK preempts for a job it prefers", "[actors][preemption]") {
  start({execution_point("ep1.test", 1, kStaticSlot + "RANK = Owner == \"bob\"\n")});
  REQUIRE(submit(kOneJob, "alice").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  REQUIRE(submit(kOneJob, "bob").ok);
  advance(1);
  // WANT_VACATE is False by default: the job is killed at once.
  CHECK(count(runner->runs[0].signals, SIGKILL) == 1);
  runner->kill(0, SIGKILL);
  settle();
  REQUIRE(runner->runs.size() == 2);
  CHECK(owner_of(runner->runs[1]) == "bob");
  CHECK(num(job_of(queue(), "alice"), "JobStatus") == 1);
  // alice's job waits: the slot keeps preferring bob's claim, and no idle
  // slot is left; it runs when bob's job is done.
  advance(3);
  CHECK(runner->runs.size() == 2);
  runner->finish(1, 0);
  settle();
  advance(2);
  REQUIRE(runner->runs.size() == 3);
  CHECK(owner_of(runner->runs[2]) == "alice");
}

TEST_CASE_METHOD(PreemptionFixture, "a job within its retirement time is not matched away by default",
                 "[actors][preemption]") {
  // "By default the condor_negotiator will not match jobs to a slot with
  // retirement time remaining" (policy-configuration, MAXJOBRETIREMENTTIME).
  alice_fills(execution_point("ep1.test", 1, kStaticSlot + "MAXJOBRETIREMENTTIME = 600\n"), "", kOneJob, 1);
  auto busy = ads(collector::AdType::Machine, "State == \"Claimed\"");
  REQUIRE(busy.ads.size() == 1);
  CHECK(classad::unparse(*busy.ads[0].ad.find("MaxJobRetirementTime")->expr) == "600.0");
  REQUIRE(submit(kOneJob, "bob").ok);
  advance(130);  // two more NEGOTIATOR_INTERVALs
  CHECK(runner->runs[0].signals.empty());
  CHECK(runner->runs.size() == 1);
  CHECK(ads(collector::AdType::Machine, "State == \"Claimed\" && Activity == \"Busy\"").ads.size() == 1);
}

TEST_CASE_METHOD(PreemptionFixture, "with early preemption a preempting claim waits out the retirement",
                 "[actors][preemption]") {
  alice_fills(execution_point("ep1.test", 1, kStaticSlot + "MAXJOBRETIREMENTTIME = 600\n"),
              "NEGOTIATOR_CONSIDER_EARLY_PREEMPTION = True\n", kOneJob, 1);
  REQUIRE(submit(kOneJob, "bob").ok);
  advance(1);
  CHECK(ads(collector::AdType::Machine, "State == \"Claimed\" && Activity == \"Retiring\"").ads.size() == 1);
  CHECK(runner->runs[0].signals.empty());
  advance(60);
  CHECK(runner->runs.size() == 1);  // bob's claim waits; nothing else is matched to the slot
  // alice's job ends by itself during retirement: bob's claim takes the slot.
  runner->finish(0, 0);
  settle();
  REQUIRE(runner->runs.size() == 2);
  CHECK(owner_of(runner->runs[1]) == "bob");
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);  // alice's job completed: it is not run again
  CHECK(str(jobs[0], "Owner") == "bob");
}

TEST_CASE_METHOD(PoolFixture, "PREEMPT evicts: soft kill, hard kill after MachineMaxVacateTime, job requeued",
                 "[actors][eviction]") {
  scratch::TempDir dir("preempt-log");
  start({execution_point("ep1.test", 1,
                         kStaticSlot +
                             "WANT_VACATE = True\nMachineMaxVacateTime = 10\n"
                             "PREEMPT = (time() - EnteredCurrentActivity) > 100 && NumJobStarts == 0\n")});
  REQUIRE(submit("executable = /bin/true\nlog = " + (dir / "job.log") + "\nkill_sig = SIGINT\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  advance(100);
  // The soft kill is the job's kill_sig; it is not obeyed.
  CHECK(count(runner->runs[0].signals, SIGINT) == 1);
  CHECK(count(runner->runs[0].signals, SIGKILL) == 0);
  advance(12);  // MachineMaxVacateTime passed: SIGKILL
  CHECK(count(runner->runs[0].signals, SIGKILL) == 1);
  runner->kill(0, SIGKILL);
  settle();
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 1);
  // The slot returns to Unclaimed; the job runs again (its NumJobStarts is
  // now 1, so PREEMPT lets it be this time).
  advance(3);
  REQUIRE(runner->runs.size() == 2);
  CHECK(num(queue()[0], "JobStatus") == 2);
  advance(200);
  CHECK(runner->runs[1].signals.empty());
  runner->finish(1, 0);
  settle();
  CHECK(queue().empty());
  // The user log tells the story: submitted, executing, evicted, executing,
  // terminated.
  std::ifstream in(dir / "job.log");
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> codes;
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 4 && line[3] == ' ' && std::isdigit(static_cast<unsigned char>(line[0])))
      codes.push_back(line.substr(0, 3));
  CHECK(codes == std::vector<std::string>{"000", "001", "004", "001", "005"});
}

TEST_CASE_METHOD(PoolFixture, "SUSPEND stops the job and CONTINUE resumes it, the queue shows it",
                 "[actors][suspension]") {
  start({execution_point("ep1.test", 1,
                         kStaticSlot +
                             "WANT_SUSPEND = True\n"
                             "SUSPEND = Activity == \"Busy\" && (time() - EnteredCurrentActivity) > 30\n"
                             "CONTINUE = (time() - EnteredCurrentActivity) > 20\n")});
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  advance(32);
  CHECK(runner->runs[0].signals == std::vector<int>{SIGSTOP});
  CHECK(num(queue()[0], "JobStatus") == 7);  // Suspended
  CHECK(ads(collector::AdType::Machine, "Activity == \"Suspended\"").ads.size() == 1);
  advance(22);
  CHECK(runner->runs[0].signals == std::vector<int>{SIGSTOP, SIGCONT});
  CHECK(num(queue()[0], "JobStatus") == 2);
  runner->finish(0, 0);
  settle();
  CHECK(queue().empty());
}

TEST_CASE_METHOD(PreemptionFixture, "a busy dynamic slot is preempted for a better-priority user's job",
                 "[actors][preemption]") {
  // The default layout: one partitionable slot; alice's job fills it.
  alice_fills(execution_point("ep1.test", 1, "WANT_VACATE = False\n"), "", kOneJob, 1);
  REQUIRE(str(queue()[0], "RemoteHost") == "slot1_1@ep1.test");
  REQUIRE(submit(kOneJob, "bob").ok);
  advance(1);
  REQUIRE(count(runner->runs[0].signals, SIGKILL) == 1);
  runner->kill(0, SIGKILL);
  settle();
  REQUIRE(runner->runs.size() == 2);
  CHECK(owner_of(runner->runs[1]) == "bob");
  CHECK(str(job_of(queue(), "bob"), "RemoteHost") == "slot1_1@ep1.test");  // the same dynamic slot
  CHECK(num(job_of(queue(), "alice"), "JobStatus") == 1);
}

TEST_CASE_METHOD(PreemptionFixture,
                 "pslot preemption: dynamic slots are evicted to make room on their partitionable slot",
                 "[actors][preemption]") {
  // 2 CPUs in one partitionable slot; alice's two 1-CPU jobs fill it, bob
  // wants both CPUs (policy-configuration, pslot preemption).
  alice_fills(execution_point("ep1.test", 2, "WANT_VACATE = False\n"), "ALLOW_PSLOT_PREEMPTION = True\n",
              "executable = /bin/true\nrequest_cpus = 1\nrequest_memory = 100\nqueue 2\n", 2, 3);
  REQUIRE(submit("executable = /bin/true\nrequest_cpus = 2\nrequest_memory = 100\nqueue\n", "bob").ok);
  advance(1);
  CHECK(count(runner->runs[0].signals, SIGKILL) == 1);
  CHECK(count(runner->runs[1].signals, SIGKILL) == 1);
  runner->kill(0, SIGKILL);
  settle();
  CHECK(runner->runs.size() == 2);  // one CPU is not enough yet
  runner->kill(1, SIGKILL);
  settle();
  REQUIRE(runner->runs.size() == 3);
  CHECK(owner_of(runner->runs[2]) == "bob");
  auto jobs = queue();
  CHECK(str(job_of(jobs, "bob"), "RemoteHost") == "slot1_3@ep1.test");
  std::size_t idle = 0;
  for (const classad::ClassAd& j : jobs)
    idle += str(j, "Owner") == "alice" && num(j, "JobStatus") == 1 ? 1 : 0;
  CHECK(idle == 2);
  auto busy = ads(collector::AdType::Machine, "State == \"Claimed\"");
  REQUIRE(busy.ads.size() == 1);
  CHECK(num(busy.ads[0].ad, "Cpus") == 2);
}
