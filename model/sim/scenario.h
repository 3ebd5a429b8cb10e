// A simulation scenario (issue 29): the pool's shape as configuration text,
// and what its users do and when. One text file of sections, each a
// header line in brackets followed by its body:
//
//   [pool]                        configuration every node reads first
//   [central-manager]             the negotiator's own configuration
//   [access-point]                the schedd's own configuration
//   [machines 100 name=ep]        100 execution points (ep1 ... ep100),
//                                 the body their configuration
//   [submit alice at=48h]         a submit description, submitted by alice
//   [arrivals bob every=10m from=0 until=30d count=500]
//                                 a Poisson process of submissions of the
//                                 body, one every 10 minutes on average
//   [remove alice at=24h]         condor_rm of alice's jobs (the body, if
//                                 any, a constraint they must also meet)
//   [userprio at=1h]              condor_userprio changes, one a line:
//                                 `setfactor alice@sim 2`
//   [reconfig machines at=1d name=ep1]
//                                 condor_reconfig of the machines whose name
//                                 begins with ep1 (or central-manager, or
//                                 access-point), the body added to their
//                                 configuration
//   [trace jobs.swf groups=true at=0]
//                                 an SWF trace (swf_submissions.h)
//   [run]                         end = 72h, sample = 10m, seed = 7,
//                                 window = 24h..72h, start = <epoch>
//
// Times are seconds, or a number with s, m, h, d or w. Lines before the
// first section may only be blank or comments. Configuration and submit
// bodies are passed on as written, with their file and line, so that an
// error in them names the scenario file and the line in it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/accounting/priority_edit.h"
#include "model/common/result.h"
#include "model/config/config_layers.h"
#include "model/sim/virtual_pool.h"

namespace cara::sim {

struct ScenarioSubmit {
  std::int64_t at = 0;  // seconds from the start
  std::string owner;
  config::TextLayer description;
};

struct ScenarioArrivals {
  std::string owner;
  double every = 0;  // mean seconds between arrivals
  std::int64_t from = 0;
  std::optional<std::int64_t> until;
  std::optional<std::int64_t> count;
  config::TextLayer description;
};

struct ScenarioRemove {
  std::int64_t at = 0;
  std::string owner;
  std::string constraint;  // the whole constraint: the owner's jobs, and the body's
  int line = 0;
};

struct ScenarioUserprio {
  std::int64_t at = 0;
  accounting::PriorityEdit edit;
  int line = 0;
};

// condor_reconfig of a node with the body's configuration added.
struct ScenarioReconfig {
  std::int64_t at = 0;
  VirtualPool::Node node = VirtualPool::Node::Machines;
  std::string prefix;  // machines whose name begins with it (all when empty)
  config::TextLayer body;
  int line = 0;
};

struct ScenarioTrace {
  std::string path;  // as written: relative to the scenario file's directory
  bool groups = false;
  std::int64_t at = 0;  // where the trace's time 0 falls
  std::string user_prefix = "u", group_prefix = "group_g";
  int line = 0;
};

struct Scenario {
  std::string file;
  PoolSetup pool;  // its start and seed from [run]
  std::vector<ScenarioSubmit> submits;
  std::vector<ScenarioArrivals> arrivals;
  std::vector<ScenarioRemove> removes;
  std::vector<ScenarioUserprio> userprios;
  std::vector<ScenarioReconfig> reconfigs;
  std::vector<ScenarioTrace> traces;
  std::optional<std::int64_t> end;  // none: when the last job has left and nothing more comes
  std::int64_t sample = 600;        // the time series' interval
  std::int64_t window_start = 0;    // the summary's fairness window
  std::optional<std::int64_t> window_end;
};

// The default virtual start: 2024-01-01T00:00:00Z.
inline constexpr std::int64_t kDefaultStart = 1704067200;

Result<Scenario> parse_scenario(std::string_view text, const std::string& file);

// "90", "90s", "15m", "48h", "1.5d", "2w": seconds.
Result<std::int64_t> parse_duration(std::string_view text);

}  // namespace cara::sim
