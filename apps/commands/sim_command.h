// `cara sim`: a scenario played on a virtual pool (model/sim/simulation.h),
// the real negotiator, schedd and startd models in virtual time.
//
//   cara sim SCENARIO [--out DIR] [--seed N] [--end TIME] [--quiet]
//
// Writes into DIR (default: sim-out): jobs.csv (Batsim's columns),
// series.csv (per submitter and group: running, idle, RUP, EUP, quota,
// share), summary.json, running.svg and priorities.svg; prints the summary
// JSON. --seed and --end override the scenario's [run]. A progress line
// (simulated time reached, events per second) goes to stderr unless
// --quiet. Exit 0, or 1 for bad usage or input (the message names the
// file and line).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cara::config {
class ConfigHost;
}

namespace cara::apps {

struct SimEnvironment {
  std::shared_ptr<config::ConfigHost> host;  // reads the scenario and its traces
  std::function<double()> wall_seconds;      // a monotonic clock, for the progress line
  bool terminal = false;                     // stderr is a terminal: the progress line redraws itself
};

int run_sim(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
            const SimEnvironment& env);

}  // namespace cara::apps
