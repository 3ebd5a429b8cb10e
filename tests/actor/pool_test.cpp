// The daemons as actors under CAF's test coordinator: virtual time, no
// threads, no real processes (a stand-in JobRunner is driven by hand).
// Covers the claim protocol, claim reuse, eviction and requeue when a slot
// dies, the negotiator cycle over messages, and userprio commands.
#include <csignal>

#include "actor/pool_fixture.h"
#include "model/classad/parser.h"

using namespace cara;
using namespace cara::actors;
using namespace cara::actors::testing;

namespace {

constexpr const char* kOneJob = "executable = /bin/true\nqueue\n";

}  // namespace

TEST_CASE_METHOD(PoolFixture, "a job is matched, claimed, activated and completes", "[actors]") {
  start({execution_point("ep1.test", 1)});
  CHECK(ads(collector::AdType::Machine).ads.size() == 1);
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 2);
  CHECK(str(jobs[0], "RemoteHost") == "slot1_1@ep1.test");  // carved from the partitionable slot1
  auto claimed = ads(collector::AdType::Machine, "State == \"Claimed\" && Activity == \"Busy\"");
  REQUIRE(claimed.ads.size() == 1);
  CHECK(str(claimed.ads[0].ad, "RemoteUser") == "alice@test");
  // The claim id's secret stays between the schedd and the slot: the ad
  // shows only its public part (the negotiator's start and a counter).
  const std::string public_id = str(claimed.ads[0].ad, "PublicClaimId");
  CHECK(public_id.size() > 2);
  CHECK(public_id.ends_with(".1"));  // the first claim of this negotiator
  for (const classad::Attribute& a : claimed.ads[0].ad.attributes())
    CHECK(classad::unparse(*a.expr).find('#') == std::string::npos);

  runner->finish(0, 3);
  settle();
  CHECK(queue().empty());  // completed jobs leave the queue
  // No job left: the claim was released.
  CHECK(ads(collector::AdType::Machine, "State == \"Unclaimed\"").ads.size() == 1);
}

TEST_CASE_METHOD(PoolFixture, "the embedded pool runs what each node's DAEMON_LIST names",
                 "[actors][assembly]") {
  // A personal pool: one node runs every daemon (the last DAEMON_LIST wins).
  auto p =
      spawn_pool(sys, spec({make_config(std::string(kCentralManager) + execution_point("node.test", 1) +
                                            "DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR, SCHEDD, STARTD\n",
                                        "MASTER")}));
  REQUIRE(p);
  pool = *p;
  settle();
  CHECK(pool.daemons.size() == 4);
  CHECK(pool.startds.size() == 1);
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  CHECK(runner->runs.size() == 1);
}

TEST_CASE_METHOD(PoolFixture, "a node whose DAEMON_LIST is wrong fails the pool, naming the node",
                 "[actors][assembly]") {
  auto bad = spawn_pool(
      sys, spec({make_config(kCentralManager, "NEGOTIATOR"),
                 make_config("DAEMON_LIST = MASTER, SHADOW\nFULL_HOSTNAME = ap.test\n", "SCHEDD")}));
  REQUIRE_FALSE(bad);
  CHECK(bad.error() ==
        "node 2 (ap.test): DAEMON_LIST: unknown daemon 'SHADOW'; expected MASTER, COLLECTOR, "
        "NEGOTIATOR, HAD, SCHEDD, STARTD, DEFRAG");
  // A HAD goes with the collector and the negotiator it controls.
  auto lone_had =
      spawn_pool(sys, spec({make_config("DAEMON_LIST = MASTER, COLLECTOR, HAD\nHAD_LIST = cm.test\n"
                                        "FULL_HOSTNAME = cm.test\n",
                                        "NEGOTIATOR")}));
  REQUIRE_FALSE(lone_had);
  CHECK_THAT(lone_had.error(), Catch::Contains("HAD runs on a central manager"));
  // And HAD_LIST names the node.
  auto stranger = spawn_pool(
      sys,
      spec({make_config("DAEMON_LIST = MASTER, COLLECTOR, NEGOTIATOR, HAD\nHAD_LIST = cm1.test, cm2.test\n"
                        "FULL_HOSTNAME = cm.test\n",
                        "NEGOTIATOR")}));
  REQUIRE_FALSE(stranger);
  CHECK_THAT(stranger.error(), Catch::Contains("HAD_LIST does not name this node (cm.test)"));
  settle();
  // A daemon that cannot start fails the pool too (the ones started before
  // it are stopped), naming its node and daemon.
  auto broken =
      spawn_pool(sys, spec({make_config(kCentralManager, "NEGOTIATOR"),
                            make_config(execution_point("ep9.test", 1, "NUM_CPUS = banana\n"), "STARTD")}));
  REQUIRE_FALSE(broken);
  CHECK_THAT(broken.error(), Catch::StartsWith("node 2 (ep9.test): STARTD: ") && Catch::Contains("NUM_CPUS"));
  settle();
  auto none = spawn_pool(sys, spec({make_config(kAccessPoint, "SCHEDD")}));
  REQUIRE_FALSE(none);
  CHECK(none.error() == "no node of the pool runs a COLLECTOR (DAEMON_LIST)");
}

TEST_CASE_METHOD(PoolFixture, "a claim is reused for the next job without a new cycle", "[actors]") {
  start({execution_point("ep1.test", 1)});
  REQUIRE(submit("executable = /bin/true\nqueue 2\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  runner->finish(0, 0);
  settle();  // no time passes: no cycle can run
  REQUIRE(runner->runs.size() == 2);
  CHECK(num(runner->runs[1].job, "ProcId") == 1);
  runner->finish(1, 0);
  settle();
  CHECK(queue().empty());
}

TEST_CASE_METHOD(PoolFixture, "CLAIM_WORKLIFE = 0 ends the claim after one job, the next is matched again",
                 "[actors]") {
  start({execution_point("ep1.test", 1, "CLAIM_WORKLIFE = 0\n")});
  REQUIRE(submit("executable = /bin/true\nqueue 2\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  runner->finish(0, 0);
  settle();
  CHECK(runner->runs.size() == 1);  // the slot refused to reuse the claim
  advance(1);                       // the schedd asks for a cycle; the slot is matched again
  CHECK(runner->runs.size() == 2);
}

TEST_CASE_METHOD(PoolFixture, "a job whose execution point dies goes back to Idle and runs elsewhere",
                 "[actors]") {
  start({execution_point("ep1.test", 1), execution_point("ep2.test", 1)});
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  const std::string host = str(queue()[0], "RemoteHost");
  // Which startd runs it: kill that one.
  auto busy = ads(collector::AdType::Machine, "State == \"Claimed\"");
  REQUIRE(busy.ads.size() == 1);
  const std::string machine = str(busy.ads[0].ad, "Machine");
  const std::size_t victim = machine == "ep1.test" ? 0 : 1;
  anon_send_exit(pool.startds[victim], caf::exit_reason::kill);
  settle();
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 1);  // evicted back to Idle
  CHECK(num(jobs[0], "NumJobStarts") >= 1);
  // The dead node's ad is still in the collector until it expires; the
  // other node takes the job at the next cycle (a claim on the dead one
  // fails at once: a request to a dead local actor errors).
  advance(3);
  REQUIRE(runner->runs.size() == 2);
  jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 2);
}

TEST_CASE_METHOD(PoolFixture, "an unclaimed match returns to Unclaimed after MATCH_TIMEOUT", "[actors]") {
  // A static slot (a partitionable one is never Matched).
  start({execution_point("ep1.test", 1,
                         "MATCH_TIMEOUT = 30\nNUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\n"
                         "SLOT_TYPE_1_PARTITIONABLE = false\n")});
  auto slots = ads(collector::AdType::Machine);
  REQUIRE(slots.endpoints.size() == 1);
  REQUIRE(slots.endpoints[0]);
  self->send(caf::actor_cast<slot_actor>(slots.endpoints[0]), SlotMatched{"secret#1"});
  settle();
  CHECK(ads(collector::AdType::Machine, "State == \"Matched\"").ads.size() == 1);
  // A claim with another id is refused: the claim id is a secret.
  auto h = self->request(caf::actor_cast<slot_actor>(slots.endpoints[0]), caf::infinite,
                         ActivateClaim{"guess#1", {}, -1, -1});
  settle();
  h.receive([](ActivateReply& r) { CHECK_FALSE(r.ok); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
  advance(31);
  CHECK(ads(collector::AdType::Machine, "State == \"Unclaimed\"").ads.size() == 1);
}

TEST_CASE_METHOD(PoolFixture, "userprio commands change the accountant between cycles", "[actors]") {
  start({execution_point("ep1.test", 1)});
  auto h = self->request(pool.negotiator, caf::infinite, UserprioCommand{"setfactor", "alice@test", 10, 0});
  settle();
  h.receive([](CommandReply& r) { CHECK(r.ok); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
  auto bad =
      self->request(pool.negotiator, caf::infinite, UserprioCommand{"setfactor", "alice@test", 0.5, 0});
  settle();
  bad.receive([](CommandReply& r) { CHECK_FALSE(r.ok); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
  auto q = self->request(pool.negotiator, caf::infinite, UserprioQuery{});
  settle();
  q.receive(
      [](UserprioReply& r) {
        REQUIRE(r.records.size() == 1);
        CHECK(str(r.records[0].ad, "Name") == "alice@test");
        classad::Value f = classad::evaluate_attr(r.records[0].ad, "PriorityFactor");
        double d = 0;
        CHECK((f.number(d) && d == 10));
      },
      [](caf::error& e) { FAIL(caf::to_string(e)); });
}

TEST_CASE_METHOD(PoolFixture, "each accounting group is an actor with its quota, allocation and turn",
                 "[actors][groups]") {
  // 4 slots; a gets a static quota of 3, b of 1; both ask for more.
  start({execution_point("ep1.test", 4, "NUM_SLOTS = 4\n")},
        "GROUP_NAMES = a, b\nGROUP_QUOTA_a = 3\nGROUP_QUOTA_b = 1\n"
        "GROUP_SORT_EXPR = ifThenElse(AccountingGroup == \"b\", 1, 2)\n");
  const std::string job = "executable = /bin/true\nqueue 6\n";
  REQUIRE(submit("accounting_group = a\n" + job, "alice").ok);
  REQUIRE(submit("accounting_group = b\n" + job, "bob").ok);
  advance(3);
  auto q = self->request(pool.negotiator, caf::infinite, UserprioQuery{});
  settle();
  std::map<std::string, classad::ClassAd> groups;
  q.receive(
      [&](UserprioReply& r) {
        for (const WireAd& g : r.groups) groups[str(g.ad, "Name")] = g.ad;
      },
      [](caf::error& e) { FAIL(caf::to_string(e)); });
  REQUIRE(groups.size() == 3);  // <none>, a, b
  auto number = [&](const std::string& g, const char* attr) {
    double d = -1;
    classad::evaluate_attr(groups.at(g), attr).number(d);
    return d;
  };
  CHECK(number("a", "ConfigQuota") == 3);
  CHECK(number("b", "ConfigQuota") == 1);
  // The quotas held: a runs 3 jobs, b 1 (the last cycle saw them in use and
  // had nothing left to match).
  CHECK(number("a", "GroupResourcesInUse") == 3);
  CHECK(number("b", "GroupResourcesInUse") == 1);
  CHECK(number("a", "MatchesLastCycle") == 0);
  CHECK(number("a", "GroupResourcesAllocated") == 3);
  CHECK(number("b", "GroupResourcesAllocated") == 1);
  CHECK(number("a", "Requested") >= 6);
  // GROUP_SORT_EXPR put b first.
  CHECK(number("b", "NegotiationTurn") < number("a", "NegotiationTurn"));
  CHECK(number("a", "LastCycle") >= 1);
}

TEST_CASE_METHOD(PoolFixture, "daemons told of a new collector advertise to it and negotiate through it",
                 "[actors][collectors]") {
  start({execution_point("ep1.test", 1)});
  CollectorSetup cs;
  cs.policy = collector::CollectorPolicy{};
  cs.clock = PoolClock{1700000000};
  collector_actor fresh = *spawn_collector(sys, cs);
  const Collectors moved{{fresh}};
  for (const startd_actor& s : pool.startds) self->send(s, moved);
  self->send(pool.schedd, moved);
  self->send(pool.negotiator, moved);
  settle();
  caf::anon_send_exit(pool.collector, caf::exit_reason::kill);  // the old one is gone
  pool.collector = fresh;
  pool.daemons.push_back(caf::actor_cast<caf::actor>(fresh));  // stopped with the pool
  settle();
  // The startd sent the new collector every slot at once.
  CHECK(ads(collector::AdType::Machine).ads.size() == 1);
  REQUIRE(submit("executable = /bin/true\nqueue\n").ok);
  advance(3);
  CHECK(runner->running() == 1);  // matched through the new collector
  CHECK(ads(collector::AdType::Scheduler).ads.size() == 1);
}

TEST_CASE_METHOD(PoolFixture, "a claim counts only with an id the negotiator announced, once", "[actors]") {
  start({execution_point("ep1.test", 1,
                         "NUM_SLOTS_TYPE_1 = 1\nSLOT_TYPE_1 = 100%\nSLOT_TYPE_1_PARTITIONABLE = false\n")});
  auto slots = ads(collector::AdType::Machine);
  REQUIRE(slots.endpoints.size() == 1);
  const slot_actor slot = caf::actor_cast<slot_actor>(slots.endpoints[0]);
  const WireAd job{
      *classad::parse_classad("[ ClusterId = 9; ProcId = 0; Owner = \"alice\"; User = \"alice@test\" ]")};
  auto claim = [&](const std::string& id) {
    auto h = self->request(slot, caf::infinite, ClaimSlot{id, job, false, {}, {}, false});
    settle();
    ClaimReply out;
    h.receive([&](ClaimReply& r) { out = std::move(r); }, [](caf::error& e) { FAIL(caf::to_string(e)); });
    return out;
  };
  // A guess is refused at once: the announcement always comes first (the
  // negotiator waits for the slot's answer before it tells the schedd).
  const ClaimReply guess = claim("1.1#guess");
  CHECK_FALSE(guess.ok);
  CHECK(guess.reason == "no match was announced for this claim on slot1");
  CHECK(ads(collector::AdType::Machine, "State == \"Unclaimed\"").ads.size() == 1);
  // The announcement is answered; then the claim counts.
  auto announced = self->request(slot, caf::infinite, SlotMatched{"1.2#real"});
  settle();
  announced.receive([] {}, [](caf::error& e) { FAIL(caf::to_string(e)); });
  CHECK(claim("1.2#real").ok);
  CHECK(ads(collector::AdType::Machine, "State == \"Claimed\"").ads.size() == 1);
  // An announced id is good once.
  CHECK_FALSE(claim("1.2#real").ok);
  // A malformed id from the wire is refused on the way in, saying why.
  const ClaimReply malformed = claim("no-secret");
  CHECK_FALSE(malformed.ok);
  CHECK_THAT(malformed.reason, Catch::Contains("malformed claim id 'no-secret'"));
  CHECK(logged("a claim refused: malformed claim id"));
}

TEST_CASE_METHOD(PoolFixture, "CLAIM_PARTITIONABLE_LEFTOVERS: one match fills a partitionable slot",
                 "[actors][leftovers]") {
  // One cycle in the window: the one the submission asks for; the next
  // waits NEGOTIATOR_MIN_INTERVAL.
  const std::string cm = "NEGOTIATOR_MIN_INTERVAL = 300\n";
  const std::string jobs = "executable = /bin/true\nrequest_cpus = 1\nrequest_memory = 100\nqueue 6\n";
  SECTION("the schedd claims the leftovers for its next jobs: 4 CPUs, 4 jobs from one match") {
    start({execution_point("ep1.test", 4)}, cm);
    REQUIRE(submit(jobs).ok);
    advance(100);
    CHECK(runner->runs.size() == 4);
    CHECK(ads(collector::AdType::Machine, "DynamicSlot =?= true && State == \"Claimed\"").ads.size() == 4);
    CHECK(num(ads(collector::AdType::Machine, "PartitionableSlot =?= true").ads[0].ad, "Cpus") == 0);
    // The next cycle charges alice for all four.
    advance(300);
    auto q = self->request(pool.negotiator, caf::infinite, UserprioQuery{});
    settle();
    q.receive(
        [](UserprioReply& r) {
          REQUIRE(r.records.size() == 1);
          double used = 0;
          classad::evaluate_attr(r.records[0].ad, "ResourcesUsed").number(used);
          CHECK(used == 4);
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
  }
  SECTION("without it a cycle starts one job on the partitionable slot") {
    start({execution_point("ep1.test", 4)}, cm, "CLAIM_PARTITIONABLE_LEFTOVERS = False\n");
    REQUIRE(submit(jobs).ok);
    advance(100);
    CHECK(runner->runs.size() == 1);
  }
}

namespace {

// The execution point's users: only those named.
class Users : public AccountBook {
 public:
  explicit Users(std::vector<Account> users) : users_(std::move(users)) {}
  std::optional<Account> find(std::string_view name) const override {
    for (const Account& a : users_)
      if (a.name == name) return a;
    return std::nullopt;
  }

 private:
  std::vector<Account> users_;
};

}  // namespace

TEST_CASE_METHOD(PoolFixture,
                 "a root startd runs a job as its owner, and holds one whose owner it does not know",
                 "[actors][run_as]") {
  daemon_account = Account{"root", 0, 0, {0}};
  accounts = std::make_shared<Users>(
      std::vector<Account>{{"alice", 1001, 1001, {1001, 77}}, {"nobody", 65534, 65534, {65534}}});
  start({execution_point("ep1.test", 1)});
  REQUIRE(submit(kOneJob, "alice").ok);
  advance(1);
  REQUIRE(runner->accounts.size() == 1);
  INFO(runner->accounts[0].how << ": " << runner->accounts[0].not_owner);
  CHECK(runner->accounts[0].switch_user);
  CHECK(runner->accounts[0].account.uid == 1001);
  CHECK(runner->accounts[0].account.groups == std::vector<std::uint32_t>{1001, 77});
  // The slot says whom it can run jobs as.
  auto slots = ads(collector::AdType::Machine);
  REQUIRE_FALSE(slots.ads.empty());
  CHECK(classad::unparse(*slots.ads[0].ad.find("CanRunAsOwner")->expr) == "true");
  runner->finish(0, 0);
  settle();

  // carol has no account on the execution point: held, saying why, and
  // nothing was started for her.
  REQUIRE(submit(kOneJob, "carol").ok);
  advance(1);
  CHECK(runner->runs.size() == 1);
  auto jobs = queue();
  REQUIRE(jobs.size() == 1);
  CHECK(num(jobs[0], "JobStatus") == 5);
  CHECK(num(jobs[0], "HoldReasonCode") == 23);
  CHECK_THAT(str(jobs[0], "HoldReason"), Catch::Contains("carol is not a user on this execution point"));
}

TEST_CASE_METHOD(PoolFixture, "a startd that is not root says so in its slot ads", "[actors][run_as]") {
  start({execution_point("ep1.test", 1)});
  auto slots = ads(collector::AdType::Machine);
  REQUIRE_FALSE(slots.ads.empty());
  CHECK(classad::unparse(*slots.ads[0].ad.find("CanRunAsOwner")->expr) == "false");
  CHECK(str(slots.ads[0].ad, "SlotUser") == "condor");
}

// A dynamic slot whose claim ended is gone with its actor: a slot actor
// left alive by an exit message it ignored (exit_reason::normal) kept the
// actor system of a node from ever finishing its stop (issue 19).
TEST_CASE_METHOD(PoolFixture, "a dynamic slot's actor ends with its claim", "[actors]") {
  start({execution_point("ep1.test", 2, "CLAIM_WORKLIFE = 0\n")});
  REQUIRE(submit("executable = /bin/true\nqueue 2\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 2);
  auto claimed = ads(collector::AdType::Machine, "DynamicSlot =?= true");
  REQUIRE(claimed.endpoints.size() == 2);
  for (std::size_t i = 0; i < runner->runs.size(); ++i) runner->finish(i, 0);
  advance(2);
  CHECK(queue().empty());
  CHECK(ads(collector::AdType::Machine, "DynamicSlot =?= true").ads.empty());
  // The actors are gone: a request to one fails at once.
  for (const caf::actor& a : claimed.endpoints) {
    REQUIRE(a);
    auto h = self->request(caf::actor_cast<slot_actor>(a), caf::infinite, ActivateClaim{"x", {}, -1, -1});
    settle();
    bool gone = false;
    h.receive([](ActivateReply&) {}, [&](caf::error&) { gone = true; });
    CHECK(gone);
  }
}

// A startd told that its node stops (issue 19): its slots leave the pool at
// once and take no claim; its running job is asked to leave (retirement,
// then the soft kill with WANT_VACATE) and the startd ends when it has.
TEST_CASE_METHOD(PoolFixture, "a stopping startd lets its job go, then ends", "[actors][stop]") {
  start({execution_point("ep1.test", 1, "WANT_VACATE = True\n")});
  REQUIRE(submit("executable = /bin/true\nqueue 2\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  self->send(pool.startds[0], NodeStop{false});
  settle();
  CHECK(ads(collector::AdType::Machine).ads.empty());  // withdrawn at once
  REQUIRE(runner->runs[0].signals.size() >= 1);
  CHECK(runner->runs[0].signals[0] == SIGTERM);  // the soft kill
  auto alive = [&] {
    auto h = self->request(pool.startds[0], caf::infinite, DrainRequest{0, true, "", "", false});
    settle();
    bool ok = true;
    h.receive([](CommandReply&) {}, [&](caf::error&) { ok = false; });
    return ok;
  };
  CHECK(alive());  // the job has not left yet
  runner->kill(0, SIGTERM);
  settle();
  CHECK_FALSE(alive());
  // The job was evicted: it is idle again, and no other one started here.
  advance(2);
  CHECK(runner->runs.size() == 1);
  for (const classad::ClassAd& j : queue()) CHECK(num(j, "JobStatus") == 1);
}

TEST_CASE_METHOD(PoolFixture,
                 "a user log that cannot be written is said in the schedd's log, the job goes on",
                 "[actors][errors]") {
  start({execution_point("ep1.test", 1)});
  REQUIRE(submit("executable = /bin/true\nlog = /nonexistent/dir/job.log\nqueue\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  runner->finish(0, 0);
  settle();
  CHECK(queue().empty());  // completed all the same
  CHECK(logged("WARNING user log of alice: cannot open /nonexistent/dir/job.log: No such file or directory"));
}

TEST_CASE_METHOD(PoolFixture, "the schedd's own SIGNIFICANT_ATTRIBUTES wins over the negotiator's list",
                 "[actors][autocluster]") {
  start({}, "", "SIGNIFICANT_ATTRIBUTES = RequestCpus\n");
  REQUIRE(submit("executable = /bin/true\n+Foo = $(Process)\nqueue 2\n").ok);
  // The negotiator would tell Foo apart (a slot expression reads it); the
  // schedd's configuration says only RequestCpus counts: one request.
  auto h = self->request(pool.schedd, caf::infinite, RequestsQuery{1, "alice@test", {"Foo"}, ""});
  settle();
  h.receive(
      [](RequestsReply& r) {
        REQUIRE(r.requests.size() == 1);
        CHECK(r.requests[0].count == 2);
        CHECK(r.requests[0].job_ids == std::vector<schedd::JobId>{{1, 0}, {1, 1}});
      },
      [](caf::error& e) { FAIL(caf::to_string(e)); });
}

TEST_CASE_METHOD(PoolFixture,
                 "a negotiator's NEGOTIATOR_JOB_CONSTRAINT: the schedd offers it only those jobs",
                 "[actors][shards]") {
  start({});
  REQUIRE(submit("executable = /bin/true\n+Shard = $(Process)\nqueue 3\n").ok);
  auto ask = [&](const std::string& constraint) {
    std::vector<schedd::JobId> offered;
    auto h = self->request(pool.schedd, caf::infinite, RequestsQuery{1, "alice@test", {"Shard"}, constraint});
    settle();
    h.receive(
        [&](RequestsReply& r) {
          for (const WireRequest& w : r.requests)
            offered.insert(offered.end(), w.job_ids.begin(), w.job_ids.end());
        },
        [](caf::error& e) { FAIL(caf::to_string(e)); });
    return offered;
  };
  CHECK(ask("").size() == 3);
  CHECK(ask("Shard >= 1") == std::vector<schedd::JobId>{{1, 1}, {1, 2}});
  CHECK(ask("Shard == 7").empty());
  CHECK(ask("Shard >= ").empty());  // not an expression: nothing, rather than jobs outside the shard
}

TEST_CASE_METHOD(PoolFixture,
                 "the negotiator remembers the slot ads that did not change since its last cycle",
                 "[actors][issue30]") {
  // The collector runs on the negotiator's node: its slot ads reach each
  // cycle as the ads it stores (model/negotiation/slot_memo.h). A slot
  // whose ad changed is described again; the others are remembered.
  auto stat = [](const classad::ClassAd& ad, const char* name) {
    double d = -1;
    (void)classad::evaluate_attr(ad, name).number(d);
    return d;
  };
  start({execution_point("ep1.test", 1), execution_point("ep2.test", 1)});
  REQUIRE(submit(kOneJob).ok);
  advance(1);
  REQUIRE(runner->runs.size() == 1);
  advance(130);  // two cycles more (NEGOTIATOR_INTERVAL = 60), nothing changed
  auto negotiators = ads(collector::AdType::Negotiator);
  REQUIRE(negotiators.ads.size() == 1);
  const classad::ClassAd& n = negotiators.ads[0].ad;
  CHECK(stat(n, "LastNegotiationCycleTotalSlots0") == 3);  // two partitionable slots, one dynamic slot
  CHECK(stat(n, "LastNegotiationCycleDescribedSlots0") == 0);
  // The job ends: its dynamic slot goes, ep1's partitionable slot gets
  // its core back (a new ad, described again); ep2's is remembered.
  runner->finish(0, 3);
  settle();
  advance(61);
  negotiators = ads(collector::AdType::Negotiator);
  REQUIRE(negotiators.ads.size() == 1);
  CHECK(stat(negotiators.ads[0].ad, "LastNegotiationCycleTotalSlots0") == 2);
  CHECK(stat(negotiators.ads[0].ad, "LastNegotiationCycleDescribedSlots0") == 1);
}

TEST_CASE_METHOD(PoolFixture, "the negotiator's cycles leave out the busy slots no match can use",
                 "[actors][issue30]") {
  // Two jobs of one user run on ep1's two cores: with the default
  // PREEMPTION_REQUIREMENTS (False) and a Rank that reads nothing of the
  // job, no request can take either dynamic slot. The negotiator's board
  // (model/negotiation/slot_board.h) sums them. The cycle before matched
  // every job and read neither, so this one goes without them too: the
  // partitionable slot, its cores given away, is still on offer, and the
  // submitter, at its fair share, has no request tried for them to tell
  // a reason.
  auto stat = [](const classad::ClassAd& ad, const char* name) {
    double d = -1;
    (void)classad::evaluate_attr(ad, name).number(d);
    return d;
  };
  start({execution_point("ep1.test", 2)});
  REQUIRE(submit("executable = /bin/true\nrequest_cpus = 1\nrequest_memory = 100\nqueue 2\n").ok);
  advance(1);
  REQUIRE(runner->runs.size() == 2);
  REQUIRE(submit("executable = /bin/true\nrequest_cpus = 1\nrequest_memory = 100\nqueue 1\n").ok);
  advance(61);
  auto negotiators = ads(collector::AdType::Negotiator);
  REQUIRE(negotiators.ads.size() == 1);
  const classad::ClassAd& n = negotiators.ads[0].ad;
  CHECK(stat(n, "LastNegotiationCycleTotalSlots0") == 3);
  CHECK(stat(n, "LastNegotiationCycleSummedSlots0") == 2);
  CHECK(stat(n, "LastNegotiationCycleMatches0") == 0);
  CHECK(stat(n, "LastNegotiationCycleNumIdleJobs0") == 1);
  CHECK(runner->runs.size() == 2);
  // A job ends: its core goes back to the partitionable slot, and the
  // waiting job is matched to it.
  runner->finish(0, 0);
  settle();
  advance(61);
  CHECK(runner->runs.size() == 3);
}
