// Several negotiators sharding one pool, each a process of its own
// (central-manager-configuration, "Running Multiple Negotiators in One
// Pool"): each negotiates for the slots of its NEGOTIATOR_SLOT_CONSTRAINT
// with its own accountant, a schedd asks all of them for cycles, and
// `cara userprio -name` talks to one of them.
#include "integration/pool_support.h"

using namespace cara::test;

namespace {

// `cara userprio -name NEGOTIATOR`'s records: name → (ResourcesUsed, PriorityFactor).
std::map<std::string, std::pair<double, double>> accountant_of(const std::string& admin,
                                                               const std::string& negotiator) {
  auto r = run_process({CARA_BINARY, "userprio", "--config", admin, "-name", negotiator, "-allusers", "-af",
                        "Name", "ResourcesUsed", "PriorityFactor"});
  std::map<std::string, std::pair<double, double>> out;
  if (r.exit_code != 0) return out;
  std::istringstream lines(r.out);
  std::string name;
  double used = 0, factor = 0;
  while (lines >> name >> used >> factor) out[name] = {used, factor};
  return out;
}

}  // namespace

TEST_CASE("two negotiators shard a pool: no slot claimed twice, each shard's fair share its own",
          "[integration][pool][shards]") {
  Pool pool;
  const auto cm = pool.config("cm",
                              "DAEMON_LIST = MASTER COLLECTOR NEGOTIATOR\nNEGOTIATOR_NAME = east\n"
                              "NEGOTIATOR_SLOT_CONSTRAINT = Site == \"east\"\n");
  const auto west = pool.config(
      "west", "DAEMON_LIST = MASTER NEGOTIATOR\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                  "\nNEGOTIATOR_NAME = west\n"
                  "NEGOTIATOR_SLOT_CONSTRAINT = Site == \"west\"\n");
  const auto ep = [&](const std::string& name, const std::string& site) {
    return pool.config(name,
                       "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " + std::to_string(free_port()) +
                           "\nSTART = true\nNUM_CPUS = 4\nNUM_SLOTS = 4\nSite = \"" + site +
                           "\"\nSTARTD_ATTRS = Site\n");
  };
  const auto ap = pool.config(
      "ap", "DAEMON_LIST = MASTER SCHEDD\nSHARED_PORT_PORT = " + std::to_string(free_port()) + "\n");
  for (const auto& conf : {cm, west, ep("ep1", "east"), ep("ep2", "west"), ap}) pool.start(conf);
  const std::string admin = pool.client("admin", ap);
  REQUIRE(await(
      [&] {
        const std::string log = pool.collector_log();
        return log.find("slot4@ep1.pool") != std::string::npos &&
               log.find("slot4@ep2.pool") != std::string::npos &&
               log.find("Scheduler ad ap.pool") != std::string::npos &&
               run_process({CARA_BINARY, "status", "--config", admin, "-negotiator", "-af", "Name"}).out ==
                   "east\nwest\n";
      },
      60));

  auto submit = [&](const std::string& text) {
    const fs::path sub = pool.dir / "jobs.sub";
    std::ofstream(sub) << "executable = /bin/sleep\narguments = 600\naccounting_group = physics\n" << text;
    REQUIRE(pool.tool(ap, {"submit", sub.string()}).exit_code == 0);
  };
  // Running jobs per user and the slots they run on, from the queue.
  struct Running {
    std::map<std::string, int> jobs;
    std::map<std::string, std::string> slot_user;  // RemoteHost → user
    int total = 0;
  };
  auto running = [&] {
    Running r;
    auto q = pool.tool(ap, {"q", "-constraint", "JobStatus == 2", "-af", "AcctGroupUser", "RemoteHost"});
    REQUIRE(q.exit_code == 0);
    std::istringstream lines(q.out);
    std::string user, host;
    while (lines >> user >> host) {
      ++r.jobs[user];
      ++r.total;
      CHECK(r.slot_user.emplace(host, user).second);  // one job per slot
    }
    return r;
  };

  // alice fills the west shard: its accountant charges her four slots.
  submit("accounting_group_user = alice\nrequirements = TARGET.Site == \"west\"\nqueue 4\n");
  REQUIRE(await([&] { return running().jobs["alice"] == 4; }, 60));
  // Then both users ask for more than the east shard has: they share it 2
  // and 2, and the west slots stay alice's (no preemption by default).
  submit("accounting_group_user = alice\nqueue 8\naccounting_group_user = bob\nqueue 8\n");
  REQUIRE(await(
      [&] {
        Running r = running();
        return r.total == 8 && r.jobs["alice"] == 6 && r.jobs["bob"] == 2;
      },
      60));
  const Running r = running();
  for (const auto& [slot, user] : r.slot_user) {
    INFO(slot << " runs " << user << "'s job");
    if (user == "bob") CHECK(slot.find("@ep1.pool") != std::string::npos);
  }

  // Each negotiator's accountant, by name: west charges alice's four
  // slots there, east the two and two of its own. (An east accountant that
  // charged every claimed slot of the pool, as before the shards had their
  // own, would charge alice six: her priority there would grow with her use
  // of the west shard.)
  const std::string alice = "physics.alice@pool", bob = "physics.bob@pool";
  std::string seen;  // the last figures read, for the failure message
  const bool charged = await(
      [&] {
        auto e = accountant_of(admin, "east"), w = accountant_of(admin, "west");
        seen = "east: alice " + std::to_string(e[alice].first) + ", bob " + std::to_string(e[bob].first) +
               "; west: alice " + std::to_string(w[alice].first) + ", bob " + std::to_string(w[bob].first);
        return e[alice].first == 2 && e[bob].first == 2 && w[alice].first == 4 && w[bob].first == 0;
      },
      60);
  INFO(seen);
  REQUIRE(charged);
  // A change named to one negotiator is that negotiator's only.
  auto set =
      run_process({CARA_BINARY, "userprio", "--config", admin, "-name", "west", "-setfactor", alice, "7"});
  INFO(set.out << set.err);
  REQUIRE(set.exit_code == 0);
  CHECK(accountant_of(admin, "west")[alice].second == 7);
  CHECK(accountant_of(admin, "east")[alice].second == 1000);  // DEFAULT_PRIO_FACTOR
  // A name no negotiator has is an error that says so.
  auto nobody = run_process({CARA_BINARY, "userprio", "--config", admin, "-name", "north"});
  CHECK(nobody.exit_code != 0);
  CHECK_THAT(nobody.err, Catch::Contains("no negotiator north"));
  // Still no slot with two jobs, and nothing more running than slots.
  CHECK(running().total == 8);
}
