// The Standard Workload Format of the Parallel Workloads Archive (SWF,
// version 2.2): one job per line, 18 whitespace-separated fields, -1 for
// a value the log does not have, and header comments (";Name: value").
// `cara sim` replays such traces (issue 29): the user id becomes the
// submitter, the group id optionally the accounting group. Pure: text in,
// jobs out; a bad line is an error naming the file, the line and the field.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/common/result.h"

namespace cara::sim {

// One job: the 18 fields in the archive's order. Times are seconds, memory
// kilobytes per processor; -1 where the log does not say.
struct SwfJob {
  std::int64_t id = -1;                    // 1  job number
  double submit_time = -1;                 // 2  seconds from the log's start
  double wait_time = -1;                   // 3
  double run_time = -1;                    // 4
  std::int64_t allocated_processors = -1;  // 5
  double average_cpu_time = -1;            // 6
  double used_memory = -1;                 // 7
  std::int64_t requested_processors = -1;  // 8
  double requested_time = -1;              // 9
  double requested_memory = -1;            // 10
  std::int64_t status = -1;                // 11 1 completed, 0 failed, 5 cancelled, ...
  std::int64_t user = -1;                  // 12
  std::int64_t group = -1;                 // 13
  std::int64_t executable = -1;            // 14
  std::int64_t queue = -1;                 // 15
  std::int64_t partition = -1;             // 16
  std::int64_t preceding_job = -1;         // 17
  double think_time = -1;                  // 18
  int line = 0;                            // where it was read

  // The processors the job uses: allocated, else requested, else 1.
  std::int64_t processors() const;
};

struct SwfTrace {
  // Header comments as given (";MaxProcs: 128" → "MaxProcs" → "128"), in
  // the archive's capitalisation; later repeats win.
  std::map<std::string, std::string> header;
  std::vector<SwfJob> jobs;

  // Header values the replay uses, when present and well-formed.
  std::optional<std::int64_t> unix_start_time() const;
  std::optional<std::int64_t> max_processors() const;  // MaxProcs, else MaxNodes
};

// Reads a whole trace. `file` names the input in messages
// ("trace.swf, line 7: field 4 (run time): 'x' is not a number").
Result<SwfTrace> parse_swf(std::string_view text, const std::string& file);

}  // namespace cara::sim
