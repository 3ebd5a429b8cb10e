// What `cara q` and `cara history` share: the options (-constraint,
// -af), the call to the local schedd, and how jobs are printed (a table,
// or the -af attributes one job per line, condor_q's "autoformat").
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cara::apps {

struct JobListing {
  const char* tool;     // "q" or "history", for messages
  const char* command;  // the local command asked of the schedd
  const char* usage;
  bool history = false;  // print when each job finished, take -limit
};

int run_job_listing(const JobListing& how, const std::vector<std::string>& args, std::ostream& out,
                    std::ostream& err);

}  // namespace cara::apps
