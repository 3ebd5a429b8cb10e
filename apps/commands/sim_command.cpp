#include "apps/commands/sim_command.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "apps/commands/arguments.h"
#include "model/config/config_host.h"
#include "model/sim/simulation.h"
#include "model/sim/svg_chart.h"
#include "model/sim/swf_trace.h"

namespace cara::apps {
namespace {

constexpr const char* kUsage = "usage: cara sim SCENARIO [--out DIR] [--seed N] [--end TIME] [--quiet]\n";

struct Options {
  std::string scenario;
  std::string out = "sim-out";
  std::optional<std::uint64_t> seed;
  std::optional<std::int64_t> end;
  bool quiet = false;
};

Result<Options> parse_args(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> Result<std::string> {
      if (i + 1 >= args.size()) return Error{a + " expects a value"};
      return args[++i];
    };
    if (is_flag(a, "out")) {
      auto v = value();
      if (!v) return Error{v.error()};
      o.out = *v;
    } else if (is_flag(a, "seed")) {
      auto v = value();
      if (!v) return Error{v.error()};
      char* end = nullptr;
      const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
      if (v->empty() || *end != '\0' || (*v)[0] == '-')
        return Error{"--seed expects a whole number, got '" + *v + "'"};
      o.seed = n;
    } else if (is_flag(a, "end")) {
      auto v = value();
      if (!v) return Error{v.error()};
      auto d = sim::parse_duration(*v);
      if (!d || *d <= 0) return Error{"--end expects a time (48h, 30d), got '" + *v + "'"};
      o.end = *d;
    } else if (is_flag(a, "quiet")) {
      o.quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      return Error{"unknown option '" + a + "'"};
    } else if (o.scenario.empty()) {
      o.scenario = a;
    } else {
      return Error{"one scenario file only ('" + o.scenario + "' and '" + a + "')"};
    }
  }
  if (o.scenario.empty()) return Error{"a scenario file is required"};
  return o;
}

// The traces a scenario names, read relative to the scenario's directory;
// `skipped` says which jobs could not be replayed.
Result<std::vector<sim::TimedSubmission>> read_traces(const sim::Scenario& s, config::ConfigHost& host,
                                                      std::vector<std::string>& skipped) {
  std::vector<sim::TimedSubmission> jobs;
  const std::filesystem::path dir = std::filesystem::path(s.file).parent_path();
  for (const sim::ScenarioTrace& t : s.traces) {
    const std::filesystem::path path =
        std::filesystem::path(t.path).is_absolute() ? std::filesystem::path(t.path) : dir / t.path;
    auto text = host.read_file(path.string());
    if (!text)
      return Error{s.file + ", line " + std::to_string(t.line) + ": cannot read the trace: " + text.error()};
    auto trace = sim::parse_swf(*text, path.string());
    if (!trace) return Error{trace.error()};
    sim::SwfSubmissions subs = sim::trace_jobs(t, *trace, path.string());
    for (sim::TimedSubmission& j : subs.jobs) jobs.push_back(std::move(j));
    for (std::string& why : subs.skipped) skipped.push_back(std::move(why));
  }
  return jobs;
}

nlohmann::json summary_json(const sim::SimSummary& s) {
  nlohmann::json groups = nlohmann::json::array();
  for (const sim::GroupShare& g : s.groups)
    groups.push_back({{"name", g.name},
                      {"target_share", g.target},
                      {"mean_share", g.mean_share},
                      {"share_error", g.share_error},
                      {"samples", g.samples}});
  return {{"cores", s.cores},
          {"jobs_submitted", s.submitted},
          {"jobs_completed", s.completed},
          {"jobs_removed", s.removed},
          {"jobs_left_in_queue", s.left_in_queue},
          {"makespan", s.runs.makespan},
          {"utilization", s.runs.utilization},
          {"mean_wait", s.runs.mean_wait},
          {"max_wait", s.runs.max_wait},
          {"mean_bounded_slowdown", s.runs.mean_bounded_slowdown},
          {"bounded_slowdown_threshold", sim::JobRun::kBoundedSlowdownThreshold},
          {"jain_index", s.jain},
          {"groups", groups},
          {"preemptions", s.preemptions},
          {"evictions", s.evictions},
          {"wasted_core_hours", s.wasted_core_hours},
          {"negotiation_cycles", s.cycles},
          {"negotiation_cycles_skipped", s.cycles_skipped},
          {"events", s.events},
          {"simulated_seconds", s.simulated}};
}

Status write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) return Error{"cannot write " + path.string()};
  f << text;
  f.close();
  if (!f) return Error{"cannot write " + path.string() + " (disk full?)"};
  return Ok{};
}

std::string clock_text(std::int64_t seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lldd %02lld:%02lld:%02lld", static_cast<long long>(seconds / 86400),
                static_cast<long long>(seconds / 3600 % 24), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60));
  return buf;
}

}  // namespace

int run_sim(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            const SimEnvironment& env) {
  if (wants_help(args)) return (out << kUsage, 0);
  auto opts = parse_args(args);
  if (!opts) return (err << "cara sim: " << opts.error() << "\n" << kUsage, 1);
  auto text = env.host->read_file(opts->scenario);
  if (!text) return (err << "cara sim: cannot read the scenario: " << text.error() << "\n", 1);
  auto scenario = sim::parse_scenario(*text, opts->scenario);
  if (!scenario) return (err << "cara sim: " << scenario.error() << "\n", 1);
  if (opts->seed) scenario->pool.seed = *opts->seed;
  if (opts->end) scenario->end = *opts->end;
  std::vector<std::string> skipped;
  auto traces = read_traces(*scenario, *env.host, skipped);
  if (!traces) return (err << "cara sim: " << traces.error() << "\n", 1);
  // A trace job with nothing to replay (cancelled before it ran) is left
  // out, and said so: the first few by place, then how many in all.
  constexpr std::size_t kShown = 5;
  if (!opts->quiet)
    for (std::size_t i = 0; i < skipped.size() && i < kShown; ++i)
      err << "cara sim: left out " << skipped[i] << "\n";
  if (!opts->quiet && skipped.size() > kShown)
    err << "cara sim: " << skipped.size() << " trace jobs left out in all\n";
  auto simulation = sim::Simulation::create(sim::SimulationInput{std::move(*scenario), std::move(*traces)});
  if (!simulation) return (err << "cara sim: " << simulation.error() << "\n", 1);

  const double began = env.wall_seconds();
  double last_shown = began;
  bool shown = false;
  auto progress = [&](const sim::SimProgress& p) {
    if (opts->quiet) return;
    const double now = env.wall_seconds();
    if (!p.done && now - last_shown < (env.terminal ? 0.5 : 5.0)) return;
    last_shown = now;
    const double rate = static_cast<double>(p.events) / std::max(1e-9, now - began);
    err << (env.terminal ? "\r" : "") << "cara sim: " << clock_text(p.simulated) << " simulated, "
        << static_cast<long long>(std::llround(rate)) << " events/s" << (env.terminal ? "   " : "\n")
        << std::flush;
    shown = true;
  };
  const Status ran = (*simulation)->run(progress);
  if (shown && env.terminal) err << "\n";
  if (!ran) return (err << "cara sim: " << ran.error() << "\n", 1);

  const sim::Simulation& s = **simulation;
  const std::filesystem::path dir = opts->out;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return (err << "cara sim: cannot make " << dir.string() << ": " << ec.message() << "\n", 1);
  const nlohmann::json summary = summary_json(s.summary());
  const std::pair<const char*, std::string> files[] = {
      {"jobs.csv", sim::jobs_csv(s.runs())},
      {"series.csv", s.series().csv()},
      {"summary.json", summary.dump(2) + "\n"},
      {"running.svg",
       sim::svg_line_chart(s.series().running_chart(sim::SeriesKind::Group, "Running jobs per group"))},
      {"running-submitters.svg", sim::svg_line_chart(s.series().running_chart(sim::SeriesKind::Submitter,
                                                                              "Running jobs per submitter"))},
      {"priorities.svg", sim::svg_line_chart(s.series().priority_chart("Effective user priority"))},
  };
  for (const auto& [name, content] : files)
    if (Status w = write_file(dir / name, content); !w) return (err << "cara sim: " << w.error() << "\n", 1);
  out << summary.dump(2) << "\n";
  return 0;
}

}  // namespace cara::apps
