// cara q: the local schedd's queue, through its Unix socket (condor_q).
#include "apps/commands/job_listing.h"
#include "apps/commands/node_commands.h"

namespace cara::apps {

int run_q(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  static const JobListing q{"q", "q", "usage: cara q [--config FILE] [-constraint EXPR] [-af ATTR,ATTR...]\n",
                            false};
  return run_job_listing(q, args, out, err);
}

}  // namespace cara::apps
