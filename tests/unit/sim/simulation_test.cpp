// A scenario played (model/sim/simulation.h): deterministic by seed, its
// records, and bad input named by file and line.
#include "model/sim/simulation.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

namespace cara::sim {
namespace {

constexpr const char* kScenario =
    "[pool]\n"
    "UID_DOMAIN = sim\n"
    "[machines 4]\n"
    "NUM_CPUS = 2\n"
    "MEMORY = 4096\n"
    "[arrivals alice every=5m until=6h]\n"
    "executable = /bin/true\n"
    "+SimulatedRunTime = $RANDOM_INTEGER(600, 3600)\n"
    "queue 2\n"
    "[arrivals bob every=20m until=6h]\n"
    "executable = /bin/true\n"
    "request_cpus = 2\n"
    "+SimulatedRunTime = $RANDOM_INTEGER(300, 7200)\n"
    "queue\n"
    "[run]\n"
    "end = 8h\n"
    "sample = 15m\n";

std::unique_ptr<Simulation> played(const std::string& text, std::uint64_t seed) {
  auto scenario = parse_scenario(text, "det.scenario");
  REQUIRE(scenario);
  scenario->pool.seed = seed;
  auto sim = Simulation::create(SimulationInput{std::move(*scenario), {}});
  REQUIRE(sim);
  REQUIRE((*sim)->run());
  return std::move(*sim);
}

TEST_CASE("the same scenario and seed give the same records, another seed others", "[sim][simulation]") {
  auto a = played(kScenario, 7);
  auto b = played(kScenario, 7);
  auto c = played(kScenario, 8);
  REQUIRE(a->runs().size() > 20);
  CHECK(jobs_csv(a->runs()) == jobs_csv(b->runs()));
  CHECK(a->series().csv() == b->series().csv());
  CHECK(jobs_csv(a->runs()) != jobs_csv(c->runs()));
  // Every run the records hold is whole: it started after it arrived and
  // finished after it started, on a slot of the pool.
  for (const JobRun& r : a->runs()) {
    CHECK(r.start >= r.submit);
    CHECK(r.finish > r.start);
    CHECK_THAT(r.allocated, Catch::EndsWith("@ep1") || Catch::EndsWith("@ep2") || Catch::EndsWith("@ep3") ||
                                Catch::EndsWith("@ep4"));
  }
  const SimSummary s = a->summary();
  CHECK(s.cores == 8);
  CHECK(s.completed == static_cast<std::int64_t>(a->runs().size()));
  CHECK(s.submitted == s.completed + s.left_in_queue);
  CHECK(s.runs.utilization > 0);
  CHECK(s.runs.utilization <= 1);
}

TEST_CASE("a run without an end stops when the last job has left", "[sim][simulation]") {
  auto sim = played(
      "[machines 1]\nNUM_CPUS = 1\n[submit u at=0]\nexecutable = /bin/true\n+SimulatedRunTime = 100\nqueue "
      "3\n",
      1);
  CHECK(sim->runs().size() == 3);
  CHECK(sim->summary().simulated >= 300);
  CHECK(sim->summary().simulated < 600);
  CHECK(sim->summary().left_in_queue == 0);
}

TEST_CASE("the series counts idle jobs as the queue does: a held job is not idle", "[sim][simulation]") {
  auto sim = played(
      "[pool]\nUID_DOMAIN = sim\n"
      "[access-point]\nSYSTEM_PERIODIC_HOLD = ProcId == 0\nPERIODIC_EXPR_INTERVAL = 60\n"
      "[machines 1]\nNUM_CPUS = 1\nSTART = false\n"
      "[submit u at=0]\nexecutable = /bin/true\n+SimulatedRunTime = 100\nqueue 3\n"
      "[run]\nend = 10m\nsample = 5m\n",
      1);
  const SeriesSample* last = nullptr;
  for (const SeriesSample& s : sim->series().samples())
    if (s.kind == SeriesKind::Submitter && s.name == "u@sim") last = &s;
  REQUIRE(last);
  CHECK(last->time == 600);
  CHECK(last->idle == 2);
  CHECK(last->running == 0);
}

TEST_CASE("a submit body that does not build names the scenario file and line", "[sim][simulation]") {
  auto scenario = parse_scenario(
      "[machines 1]\nNUM_CPUS = 1\n[submit u at=1h]\nexecutable = /bin/true\nrequest_cpus = lots(\nqueue\n",
      "bad.scenario");
  REQUIRE(scenario);
  auto sim = Simulation::create(SimulationInput{std::move(*scenario), {}});
  REQUIRE(sim);
  const Status ran = (*sim)->run();
  REQUIRE_FALSE(ran);
  CHECK_THAT(ran.error(), Catch::Contains("bad.scenario") && Catch::Contains("line 5"));
}

TEST_CASE("a pool configuration that does not read names the scenario file and line", "[sim][simulation]") {
  auto scenario = parse_scenario("[pool]\nUID_DOMAIN = sim\n[machines 2]\nNUM_CPUS = 1\nSTART = (Owner ==\n",
                                 "bad.scenario");
  REQUIRE(scenario);
  auto sim = Simulation::create(SimulationInput{std::move(*scenario), {}});
  REQUIRE_FALSE(sim);
  CHECK_THAT(sim.error(), Catch::Contains("bad.scenario") && Catch::Contains("ep1"));
}

TEST_CASE("an SWF trace replays: each job runs its trace time on its cores, in its group",
          "[sim][simulation]") {
  const std::string dir = std::string(CARA_SOURCE_DIR) + "/scenarios/";
  auto read = [](const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  auto scenario = parse_scenario(read(dir + "swf-replay.scenario"), dir + "swf-replay.scenario");
  REQUIRE(scenario);
  REQUIRE(scenario->traces.size() == 1);
  const std::string path = dir + scenario->traces[0].path;
  auto trace = parse_swf(read(path), path);
  REQUIRE(trace);
  SwfSubmissions jobs = trace_jobs(scenario->traces[0], *trace, path);
  CHECK(jobs.jobs.size() == 39);
  REQUIRE(jobs.skipped.size() == 1);
  CHECK_THAT(jobs.skipped[0], Catch::Contains("job 17"));
  auto sim = Simulation::create(SimulationInput{std::move(*scenario), jobs.jobs});
  REQUIRE(sim);
  REQUIRE((*sim)->run());
  const auto& runs = (*sim)->runs();
  REQUIRE(runs.size() == 39);
  // Clusters are handed out in arrival order: cluster N is the N-th replayed job.
  std::size_t n = 0;
  std::vector<const SwfJob*> replayed;
  for (const SwfJob& j : trace->jobs)
    if (j.id != 17) replayed.push_back(&j);
  for (const JobRun& r : runs) {
    const auto cluster = static_cast<std::size_t>(std::stoll(r.id.substr(0, r.id.find('.'))));
    REQUIRE(cluster >= 1);
    REQUIRE(cluster <= replayed.size());
    const SwfJob& j = *replayed[cluster - 1];
    INFO("SWF job " << j.id);
    CHECK(r.submit == Approx(j.submit_time));
    CHECK(r.execution() == Approx(j.run_time));
    CHECK(r.cores == j.processors());
    CHECK(r.start >= r.submit);
    ++n;
  }
  CHECK(n == 39);
  // Both groups had work and shared the pool: their rows are in the series.
  bool g1 = false, g2 = false;
  for (const SeriesSample& s : (*sim)->series().samples()) {
    g1 = g1 || (s.kind == SeriesKind::Group && s.name == "group_g1" && s.running > 0);
    g2 = g2 || (s.kind == SeriesKind::Group && s.name == "group_g2" && s.running > 0);
  }
  CHECK(g1);
  CHECK(g2);
}

}  // namespace
}  // namespace cara::sim
