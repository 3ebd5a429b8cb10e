// cara q and cara history (condor_q, condor_history) without the schedd:
// their options, the constraint they send, and what they print of the
// answer. HTCondor's layouts, so that a site's scripts keep working: the
// batch summary (OWNER BATCH_NAME SUBMITTED DONE RUN IDLE [HOLD] TOTAL
// JOB_IDS), -nobatch, -run and -hold tables, the "Total for query" lines,
// and condor_history's table; -l, -json, -af and -format (ad_output.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "apps/commands/ad_output.h"
#include "apps/commands/tool_options.h"
#include "model/classad/classad.h"
#include "model/common/result.h"
#include "model/schedd/job_counts.h"

namespace cara::apps {

struct QueueOptions {
  enum class View { Batch, NoBatch, Run, Hold, Totals } view = View::Batch;
  AdOutput output;
  bool wide = false;                   // -wide: commands and reasons not cut
  bool allusers = false;               // -allusers: not only the asker's jobs
  std::string constraint;              // -constraint EXPR (checked)
  std::vector<std::string> selectors;  // USER, CLUSTER or CLUSTER.PROC
  std::int64_t limit = 0;              // history: -limit N (-match N)
  std::optional<std::string> config;   // --config FILE
  ScheddTarget target;                 // -name SCHEDD, -pool CM
};

// The options of `args` (`history`: cara history's), or an error naming
// the one that is wrong.
Result<QueueOptions> parse_queue_options(const std::vector<std::string>& args, bool history);

// What the schedd is asked for: the selectors (any of them), -constraint,
// -run's or -hold's status, and only `me`'s jobs unless -allusers or a
// selector names others (condor_q shows the asker's own jobs by default).
std::string queue_constraint(const QueueOptions& o, const std::string& me, bool history);

// The constraint of one USER, CLUSTER or CLUSTER.PROC on the command line
// (a user with '@' is matched against User, else Owner).
std::string selector_constraint(const std::string& selector);
bool is_cluster_selector(const std::string& s);
bool is_job_selector(const std::string& s);

// "3 jobs; 0 completed, 0 removed, 2 idle, 1 running, 0 held, 0 suspended"
std::string counts_text(const schedd::JobCounts& c);

// Where and when the listing is made: the schedd's name, the asker, now
// and the local time's offset (seconds east of UTC), and the schedd's
// totals of the asker's jobs and of all jobs (the last two lines).
struct QueueContext {
  std::string schedd;
  std::string me;
  std::int64_t now = 0;
  std::int32_t offset = 0;
  schedd::QueueTotals totals;
};

std::string format_queue(const QueueOptions& o, const std::vector<classad::ClassAd>& jobs,
                         const QueueContext& c);
std::string format_history(const QueueOptions& o, const std::vector<classad::ClassAd>& jobs,
                           const QueueContext& c);

// "11/26 13:40": a submit or hold time as condor_q prints it.
std::string short_date(std::int64_t secs, std::int32_t offset);

extern const char* const kQueueUsage;
extern const char* const kHistoryUsage;

}  // namespace cara::apps
