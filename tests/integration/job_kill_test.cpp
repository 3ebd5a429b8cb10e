// Nothing acknowledged is lost and nothing runs twice (issue 21, job
// leases): an access point killed with kill -9 at random moments while 16
// clients submit thousands of short real jobs and two execution points run
// them. Each restart reconnects to the jobs the execution points kept
// running. Every job's own output file is counted, not the schedd's word:
// each acknowledged job ran exactly once and completed exactly once. Real
// `cara master` processes on 127.0.0.1, ended by PID; every wait bounded.
// It loads the machine on purpose, so it runs alone (SERIAL).
#include <signal.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "integration/pool_support.h"
#include "integration/submit_clients.h"

namespace fs = std::filesystem;
using namespace cara::test;

namespace {

using JobIds = std::set<std::pair<long, long>>;

JobIds ids_in(const std::string& af) {
  JobIds out;
  std::istringstream lines(af);
  long cluster = 0, proc = 0;
  while (lines >> cluster >> proc) out.emplace(cluster, proc);
  return out;
}

// The jobs the access point knows, queued and finished; nullopt while it
// does not answer.
std::optional<std::pair<JobIds, std::vector<std::pair<long, long>>>> known_jobs(Pool& pool,
                                                                                const fs::path& ap) {
  // The queue first: a job that finishes between the two queries is seen
  // in both, never in neither.
  auto q = pool.tool(ap, {"q", "-af", "ClusterId,ProcId"});
  auto h = pool.tool(ap, {"history", "-af", "ClusterId,ProcId"});
  if (q.exit_code != 0 || h.exit_code != 0) return std::nullopt;
  // Each history line, repeats kept: a set would hide one.
  std::vector<std::pair<long, long>> history;
  std::istringstream lines(h.out);
  long c = 0, p = 0;
  while (lines >> c >> p) history.emplace_back(c, p);
  return std::pair{ids_in(q.out), history};
}

// The jobs of the acknowledged clusters (cluster id → its number of jobs).
JobIds job_ids(const std::map<long, long>& clusters) {
  JobIds out;
  for (const auto& [cluster, jobs] : clusters)
    for (long p = 0; p < jobs; ++p) out.emplace(cluster, p);
  return out;
}

}  // namespace

TEST_CASE("an access point killed with kill -9 while real jobs run: every job runs and completes once",
          "[integration][durability][lease]") {
  Pool pool;
  const fs::path ap = pool.start_access_point();
  for (const char* name : {"ep1", "ep2"})
    pool.start(pool.config(name, "DAEMON_LIST = MASTER STARTD\nSHARED_PORT_PORT = " +
                                     std::to_string(free_port()) + "\nSTART = true\nNUM_CPUS = 4\n"));
  REQUIRE(await(
      [&] {
        const std::string log = pool.collector_log();
        return log.find("@ep1.pool") != std::string::npos && log.find("@ep2.pool") != std::string::npos;
      },
      60));

  // Each job appends one line to its own file: the count of lines is the
  // count of its runs.
  const fs::path runs = pool.dir / "runs";
  fs::create_directory(runs);
  const fs::path job = pool.dir / "job.sh";
  std::ofstream(job) << "#!/bin/sh\necho run >> \"$1\"\nsleep 0.3\n";
  fs::permissions(job, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  if (::geteuid() == 0) REQUIRE(::chown(runs.c_str(), 65534, 65534) == 0);

  Acknowledged acked;
  std::vector<fs::path> files;
  for (int c = 0; c < 16; ++c) {
    files.push_back(pool.dir / ("client" + std::to_string(c) + ".sub"));
    std::ofstream(files.back()) << "executable = " << job.string() << "\narguments = " << runs.string()
                                << "/$(Cluster).$(Process)\nqueue " << 5 + c % 11 << "\n";
  }
  SubmitClients clients(pool, ap, files, acked);

  std::mt19937 random(std::random_device{}());
  int kills = 0;
  for (; kills < 10; ++kills) {
    // A random moment, while jobs run: after some more acknowledgements
    // (the execution points run the queue meanwhile).
    REQUIRE(acked.wait_for(acked.submissions(), std::uniform_int_distribution<long>(1, 24)(random),
                           std::chrono::seconds(120)));
    Pool::stop(pool.nodes[1], SIGKILL);
    pool.nodes.erase(pool.nodes.begin() + 1);
    pool.start(ap);
    std::swap(pool.nodes[1], pool.nodes.back());  // the access point stays at [1]
    // What was acknowledged before the access point was asked.
    JobIds before;
    std::optional<std::pair<JobIds, std::vector<std::pair<long, long>>>> known;
    REQUIRE(await(
        [&] {
          before = job_ids(acked.snapshot());
          return (known = known_jobs(pool, ap)).has_value();
        },
        60));
    clients.resume();
    // Every acknowledged job is there, queued or finished; finished once.
    JobIds all = known->first, finished;
    for (const auto& id : known->second) {
      INFO("job " << id.first << "." << id.second);
      CHECK(finished.insert(id).second);
      all.insert(id);
    }
    std::size_t missing = 0;
    for (const auto& id : before) missing += all.count(id) == 1 ? 0 : 1;
    CHECK(missing == 0);
  }
  // Thousands of jobs: the clients go on after the kills until a thousand
  // were acknowledged.
  REQUIRE(acked.wait_for_jobs(1000, std::chrono::seconds(300)));
  clients.stop();
  CHECK(kills == 10);
  const JobIds everything = job_ids(acked.snapshot());
  CHECK(everything.size() >= 1000);

  // Every acknowledged job completes.
  REQUIRE(await(
      [&] {
        auto q = pool.tool(ap, {"q", "-af", "ClusterId,ProcId"});
        return q.exit_code == 0 && ids_in(q.out).empty();
      },
      600));
  auto h = pool.tool(ap, {"history", "-af", "ClusterId,ProcId,JobStatus"});
  REQUIRE(h.exit_code == 0);
  std::map<std::pair<long, long>, int> completed;
  std::istringstream lines(h.out);
  long c = 0, p = 0, status = 0;
  while (lines >> c >> p >> status)
    if (status == 4) ++completed[{c, p}];
  std::size_t ran_once = 0;
  for (const auto& id : everything) {
    INFO("job " << id.first << "." << id.second);
    CHECK(completed[id] == 1);
    const std::string out = read(runs / (std::to_string(id.first) + "." + std::to_string(id.second)));
    CHECK(count(out, "run\n") == 1);
    ran_once += count(out, "run\n") == 1 ? 1 : 0;
  }
  CHECK(ran_once == everything.size());
  // And no job, acknowledged or cut off by a kill, ran twice.
  for (const auto& entry : fs::directory_iterator(runs)) {
    INFO(entry.path().filename().string());
    CHECK(count(read(entry.path()), "run\n") == 1);
  }
}
