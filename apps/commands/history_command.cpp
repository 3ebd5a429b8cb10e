// cara history: the jobs the local schedd finished (completed or removed),
// newest first, from its store (condor_history; MAX_HISTORY_LOG and
// MAX_HISTORY_JOBS bound what is kept).
#include "apps/commands/job_listing.h"
#include "apps/commands/node_commands.h"

namespace cara::apps {

int run_history(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static const JobListing history{
      "history", "history",
      "usage: cara history [--config FILE] [-constraint EXPR] [-af ATTR,ATTR...] [-limit N]\n", true};
  return run_job_listing(history, args, out, err);
}

}  // namespace cara::apps
