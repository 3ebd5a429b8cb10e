// One negotiation cycle over synthetic pools. Two kinds:
// - favourable (issue 5, section 6): a grid up to 100,000 slots and
//   1,000,000 idle jobs in 10,000 autoclusters from 1,000 submitters in 50
//   groups, preemption on, 50 machine shapes of identical static slots;
// - realistic (issue 30, section 2; bench/realistic_pool.h): the scaling
//   curve from 10,000 to 100,000 cores (300 to 3,000 autoclusters), each
//   point in a child process so that its peak memory is its own.
// Prints one JSON object:
//   {"points": [{"slots", "machine_shapes", "jobs", "autoclusters",
//                "submitters", "groups", "cycle_s", "matches",
//                "matches_per_s", "reference_cycle_s"}],
//    "realistic": [{"cores", "machines", "slots", "busy_cores", "jobs",
//                   "autoclusters", "submitters", "groups", "cycle_s",
//                   "matches", "rejections", "phase_s", "slot_evaluations",
//                   "prefiltered", "jobs_considered", "slot_classes", "pies",
//                   "pie_spins", "peak_rss_mb", "board_first_cycle_s",
//                   "board_cycle_s", "board_matches", "board_rejections",
//                   "board_summed_slots", "board_slot_evaluations",
//                   "board_kept_matches", "board_phase_s"}]}
// cycle_s is the median of --runs cycles (one only when a cycle takes over
// 20 s); reference_cycle_s is the plain algorithm's (every slot assessed
// one by one), or null where it would not finish within a minute.
// board_*: the same pool over a negotiator's slot board fed its list
// (board_feed.h): the first cycle (the feed and every ad described), then
// the median of --runs cycles over the unchanged board (busy slots no
// request can take only summed: board_summed_slots; family matches the
// cycle before answered: board_kept_matches).
// Usage: negotiator_bench [--pool favourable|realistic|all] [--min-slots N]
//   [--max-slots N] [--min-cores N] [--max-cores N] [--runs N] [--threads N]
// (--threads: the threads a cycle's per-slot phases may use; default 1).
// --cpu-clock: the realistic points' times are the calling thread's CPU
// time instead of the wall clock: steady on a shared machine, whose wall
// clock counts the time other guests took; with --threads 1 only (other
// threads' work would not be counted).
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench/realistic_pool.h"
#include "bench/timing.h"
#include "model/accounting/accountant.h"
#include "model/accounting/group_tree.h"
#include "model/classad/parser.h"
#include "model/config/config.h"
#include "model/negotiation/board_feed.h"
#include "model/negotiation/negotiation_cycle.h"
#include "model/negotiation/slot_board.h"

using namespace cara;

namespace {

constexpr std::int64_t kNow = 1700000000;
constexpr int kSlotsPerMachine = 8;

struct Point {
  int slots, shapes, jobs, autoclusters, submitters, groups;
};

classad::ClassAd parse(const std::string& text) {
  return bench::parse_ad(text, "negotiator_bench");
}

std::string group_name(int g) {
  return "group_" + std::to_string(g);
}
std::string submitter_name(int s, int groups) {
  return group_name(s % groups) + ".user" + std::to_string(s) + "@example.org";
}

using Pool = bench::BenchPool;

std::unique_ptr<Pool> build(const Point& p, std::mt19937& rng) {
  std::string text =
      "UID_DOMAIN = example.org\n"
      "PREEMPTION_REQUIREMENTS = RemoteUserPrio > SubmitterUserPrio * 1.2\n"
      "GROUP_ACCEPT_SURPLUS = True\n"
      "GROUP_NAMES = ";
  for (int g = 0; g < p.groups; ++g) text += (g ? ", " : "") + group_name(g);
  text += "\n";
  for (int g = 0; g < p.groups; ++g)
    text += "GROUP_QUOTA_DYNAMIC_" + group_name(g) + " = " + std::to_string(1.0 / p.groups) + "\n";
  auto pool = bench::bench_pool(text, kNow, "negotiator_bench");
  std::uniform_real_distribution<double> prio(0.5, 500);
  for (int s = 0; s < p.submitters; ++s)
    (void)pool->accountant->set_priority(submitter_name(s, p.groups), prio(rng));

  // Machine shapes: memory, arch and speed vary; each machine has 8
  // single-core slots. A quarter of the slots run a job.
  std::vector<classad::ClassAd> shapes;
  for (int k = 0; k < p.shapes; ++k) {
    shapes.push_back(
        parse("[MyType = \"Machine\"; Arch = \"" + std::string(k % 5 ? "X86_64" : "aarch64") +
              "\"; OpSys = \"LINUX\"; Cpus = 1; Memory = " + std::to_string(1024 * (1 + k % 8)) +
              "; Disk = 10000000; KFlops = " + std::to_string(1000000 + 1000 * (k % 13)) +
              "; SlotWeight = Cpus; START = TARGET.RequestMemory <= MY.Memory; Requirements = START; "
              "Rank = 0]"));
  }
  const int machines = p.slots / kSlotsPerMachine;
  std::uniform_int_distribution<int> user(0, p.submitters - 1);
  pool->slots.reserve(static_cast<std::size_t>(p.slots));
  for (int m = 0; m < machines; ++m) {
    const std::string host = "wn" + std::to_string(m) + ".example.org";
    for (int s = 1; s <= kSlotsPerMachine; ++s) {
      classad::ClassAd ad = shapes[static_cast<std::size_t>(m % p.shapes)];
      ad.set("Name", "slot" + std::to_string(s) + "@" + host);
      ad.set("Machine", host);
      ad.set("SlotID", s);
      if (rng() % 4 == 0) {
        const std::string who = submitter_name(user(rng), p.groups);
        ad.set("State", "Claimed");
        ad.set("Activity", "Busy");
        ad.set("RemoteUser", who);
        ad.set("RemoteOwner", who);
        ad.set("AccountingGroup", who);
        ad.set("CurrentRank", 0.0);
      } else {
        ad.set("State", "Unclaimed");
        ad.set("Activity", "Idle");
      }
      pool->slots.push_back(std::move(ad));
    }
  }
  // Autoclusters: requirements over arch and memory, spread over the
  // submitters.
  pool->jobs.reserve(static_cast<std::size_t>(p.autoclusters));
  for (int a = 0; a < p.autoclusters; ++a) {
    pool->jobs.push_back(
        parse("[MyType = \"Job\"; RequestCpus = 1; RequestMemory = " + std::to_string(512 * (1 + a % 16)) +
              "; Requirements = TARGET.Arch == \"" + (a % 7 ? "X86_64" : "aarch64") +
              "\" && TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus; Rank = "
              "TARGET.KFlops; JobPrio = " +
              std::to_string(a % 3) + "]"));
  }
  pool->submitters.resize(static_cast<std::size_t>(p.submitters));
  for (int s = 0; s < p.submitters; ++s)
    pool->submitters[static_cast<std::size_t>(s)].name = submitter_name(s, p.groups);
  const std::int64_t per = p.jobs / p.autoclusters;
  for (int a = 0; a < p.autoclusters; ++a) {
    negotiation::Request r;
    r.job = &pool->jobs[static_cast<std::size_t>(a)];
    r.count = per;
    pool->submitters[static_cast<std::size_t>(a % p.submitters)].requests.push_back(std::move(r));
  }
  return pool;
}

// --threads: how many threads a cycle's per-slot phases may use.
int g_threads = 1;
bool g_cpu_clock = false;  // --cpu-clock

double seconds_now(bench::Clock::time_point origin) {
  if (g_cpu_clock) {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }
  return std::chrono::duration<double>(bench::Clock::now() - origin).count();
}

double cycle_seconds(Pool& pool, bool classes, std::int64_t& matches,
                     negotiation::CycleStats* stats = nullptr) {
  classad::EvalEnv env;
  env.now = kNow;
  negotiation::NegotiationCycle cycle(pool.policy, *pool.accountant, pool.groups, env);
  cycle.set_slot_classes(classes);
  cycle.set_threads(g_threads);
  const auto origin = bench::Clock::now();
  cycle.set_clock([origin] { return std::chrono::duration<double>(bench::Clock::now() - origin).count(); });
  const auto start = bench::Clock::now();
  const negotiation::CycleResult r = cycle.run(pool.slots, pool.submitters);
  const double s = std::chrono::duration<double>(bench::Clock::now() - start).count();
  matches = r.stats.matches;
  if (stats != nullptr) *stats = r.stats;
  return s;
}

// One cycle over the pool's list, or over `board` (model/negotiation/
// slot_board.h) fed the list first by `feed` as a negotiator's collector
// gives it (board_feed.h; no feed: the board as it is). Over a board the
// first cycle describes every ad, the next ones (nothing changed) only the
// active slots and one of each bundle.
double realistic_cycle(bench::BenchPool& pool, negotiation::CycleResult& result,
                       negotiation::SlotBoard* board = nullptr, negotiation::BoardFeed* feed = nullptr) {
  classad::EvalEnv env;
  env.now = kNow;
  negotiation::NegotiationCycle cycle(pool.policy, *pool.accountant, pool.groups, env);
  cycle.set_threads(g_threads);
  const auto origin = bench::Clock::now();
  cycle.set_clock([origin] { return seconds_now(origin); });
  const double start = seconds_now(origin);
  if (board == nullptr) {
    result = cycle.run(pool.slots, pool.submitters);
  } else {
    if (feed != nullptr) feed->feed(*board, pool.slots);
    result = cycle.run(*board, pool.submitters);
  }
  return seconds_now(origin) - start;
}

nlohmann::json realistic_point(int cores, int repeats) {
  const bench::RealisticPool realistic = bench::realistic_pool(bench::RealisticShape::scaled(cores), 30);
  bench::BenchPool* pool = realistic.pool.get();
  std::int64_t jobs = 0, autoclusters = 0;
  for (const auto& s : pool->submitters)
    for (const auto& r : s.requests) {
      jobs += r.count;
      ++autoclusters;
    }
  std::vector<double> runs;
  negotiation::CycleResult result;
  for (int i = 0; i < repeats; ++i) {
    runs.push_back(realistic_cycle(*pool, result));
    if (runs.back() > 20) break;
  }
  const negotiation::CycleStats& st = result.stats;
  negotiation::SlotBoard board;
  negotiation::BoardFeed feed;
  negotiation::CycleResult on_board;
  const double board_first = realistic_cycle(*pool, on_board, &board, &feed);
  std::vector<double> board_runs;
  for (int i = 0; i < repeats; ++i) {
    board_runs.push_back(realistic_cycle(*pool, on_board, &board));
    if (board_runs.back() > 20) break;
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return {{"cores", realistic.cores},
          {"machines", realistic.machines},
          {"slots", pool->slots.size()},
          {"busy_cores", realistic.busy_cores},
          {"jobs", jobs},
          {"autoclusters", autoclusters},
          {"submitters", pool->submitters.size()},
          {"groups", realistic.groups},
          {"cycle_s", bench::median(runs)},
          {"runs", runs.size()},
          {"threads", g_threads},
          {"matches", st.matches},
          {"rejections", st.rejections},
          {"phase_s", {st.duration_phase1, st.duration_phase2, st.duration_phase3, st.duration_phase4}},
          {"slot_evaluations", st.slot_evaluations},
          {"prefiltered", st.prefiltered},
          {"candidate_lists", st.candidate_lists},
          {"rank_views", st.rank_views},
          {"jobs_considered", st.num_jobs_considered},
          {"slot_classes", st.slot_classes},
          {"candidate_slots", st.candidate_slots},
          {"pies", st.pies},
          {"pie_spins", st.pie_spins},
          {"board_first_cycle_s", board_first},
          {"board_cycle_s", bench::median(board_runs)},
          {"board_matches", on_board.stats.matches},
          {"board_rejections", on_board.stats.rejections},
          {"board_summed_slots", on_board.stats.summed_slots},
          {"board_slot_evaluations", on_board.stats.slot_evaluations},
          {"board_kept_matches", on_board.stats.kept_matches},
          {"board_phase_s",
           {on_board.stats.duration_phase1, on_board.stats.duration_phase2, on_board.stats.duration_phase3,
            on_board.stats.duration_phase4}},
          {"peak_rss_mb", static_cast<double>(usage.ru_maxrss) / 1024.0}};
}

// Runs one realistic point in a child process: its peak memory is then
// its own, not the largest of the points before it.
nlohmann::json realistic_point_isolated(int cores, int repeats) {
  int fds[2];
  if (pipe(fds) != 0) return realistic_point(cores, repeats);
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    const std::string out = realistic_point(cores, repeats).dump();
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = write(fds[1], out.data() + done, out.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty())
    return {{"cores", cores}, {"error", "the child process failed"}};
  return nlohmann::json::parse(text);
}

}  // namespace

int main(int argc, char** argv) {
  int max_slots = 100000, min_slots = 0, repeats = 3, max_cores = 100000, min_cores = 0;
  std::string kind = "all";
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--max-slots") == 0) max_slots = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--min-slots") == 0) min_slots = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--max-cores") == 0) max_cores = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--min-cores") == 0) min_cores = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--runs") == 0) repeats = std::max(1, std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--pool") == 0) kind = argv[i + 1];
    if (std::strcmp(argv[i], "--threads") == 0) g_threads = std::max(1, std::atoi(argv[i + 1]));
  }
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--cpu-clock") == 0) g_cpu_clock = true;
  if (g_cpu_clock && g_threads != 1) {
    std::cerr << "negotiator_bench: --cpu-clock counts the calling thread only: use it with --threads 1\n";
    return 2;
  }
  if (kind != "all" && kind != "favourable" && kind != "realistic") {
    std::cerr << "negotiator_bench: --pool takes favourable, realistic or all, not '" << kind << "'\n";
    return 2;
  }
  const Point grid[] = {
      {1000, 50, 10000, 100, 100, 10},
      {10000, 50, 100000, 1000, 1000, 50},
      {100000, 50, 1000000, 10000, 1000, 50},
  };
  nlohmann::json points = nlohmann::json::array();
  std::mt19937 rng(5);
  for (const Point& p : grid) {
    if (kind == "realistic") break;
    if (p.slots > max_slots || p.slots < min_slots) continue;
    auto pool = build(p, rng);
    std::vector<double> runs;
    std::int64_t matches = 0;
    negotiation::CycleStats stats;
    for (int i = 0; i < repeats; ++i) runs.push_back(cycle_seconds(*pool, true, matches, &stats));
    nlohmann::json point = {
        {"slots", p.slots},
        {"machine_shapes", p.shapes},
        {"jobs", p.jobs},
        {"autoclusters", p.autoclusters},
        {"submitters", p.submitters},
        {"groups", p.groups},
        {"cycle_s", bench::median(runs)},
        {"matches", matches},
        {"matches_per_s", static_cast<double>(matches) / bench::median(runs)},
        {"slot_classes", stats.slot_classes},
        {"slot_class_assessments", stats.slot_evaluations},
        {"presorted_walks", stats.presorted_walks},
        // the last run's phases: slots, quotas, classes, matchmaking
        {"phase_s",
         {stats.duration_phase1, stats.duration_phase2, stats.duration_phase3, stats.duration_phase4}}};
    // The plain algorithm assesses autoclusters x slots: beyond 10,000
    // slots it would take minutes.
    if (p.slots <= 10000) {
      std::int64_t ref_matches = 0;
      point["reference_cycle_s"] = cycle_seconds(*pool, false, ref_matches);
      if (ref_matches != matches) point["reference_matches"] = ref_matches;
    } else {
      point["reference_cycle_s"] = nullptr;
    }
    points.push_back(point);
  }
  nlohmann::json realistic = nlohmann::json::array();
  if (kind != "favourable")
    for (int cores : {10000, 25000, 50000, 100000})
      if (cores >= min_cores && cores <= max_cores)
        realistic.push_back(realistic_point_isolated(cores, repeats));
  std::cout << nlohmann::json{{"points", points}, {"realistic", realistic}}.dump() << "\n";
  return 0;
}
