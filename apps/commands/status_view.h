// cara status (condor_status) without the pool: its options, the query
// they make of the collector, and the tables it prints of the answer
// (-compact: a machine per line, its slots summed).
// HTCondor's layouts, so that a site's scripts keep working: the slot
// table (Name, OpSys, Arch, State, Activity, LoadAv, Mem, ActvtyTime) with
// its totals by Arch/OpSys, the schedd and submitter tables with theirs,
// and the negotiator table, to which caracara adds the negotiator's high
// availability: its role, its term and since when (issue 22).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands/ad_output.h"
#include "model/classad/classad.h"
#include "model/collector/ad_store.h"
#include "model/common/result.h"

namespace cara::apps {

struct StatusOptions {
  collector::AdType type = collector::AdType::Machine;  // -startd (default), -schedd, -negotiator, ...
  bool any = false;                                     // -any: ads of every type
  bool absent = false;                                  // -absent: the machines that went away
  // The tables: HTCondor's per type, -total's totals alone, -compact's
  // one line per machine; -l, -json, -af and -format print the ads.
  enum class Display { Table, Total, Compact } display = Display::Table;
  AdOutput output;
  std::string constraint;             // -constraint EXPR (checked)
  std::vector<std::string> names;     // NAME...: ads whose Name or Machine is one of these
  std::optional<std::string> pool;    // -pool HOST[:PORT]
  std::optional<std::string> config;  // --config FILE
};

// The options of `args`, or an error naming the one that is wrong.
Result<StatusOptions> parse_status_options(const std::vector<std::string>& args);

// The constraint sent to the collector: -constraint and the NAMEs.
std::string status_constraint(const StatusOptions& o);

// The ads as `o` asks, `now` for the activity times (seconds since the
// epoch).
std::string format_status(const StatusOptions& o, std::vector<classad::ClassAd> ads, std::int64_t now);

// d+hh:mm:ss, condor_status's ActvtyTime.
std::string activity_time(std::int64_t seconds);

extern const char* const kStatusUsage;

}  // namespace cara::apps
