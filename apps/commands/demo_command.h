// `cara demo`: the README's main command. One process runs a whole pool
// (apps/demo/demo_pool.h) with real jobs, shows a live table of running
// and idle jobs per group and user, and ends with a summary: jobs done,
// each group's share of the running jobs against its quota, wall time.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace cara::apps {

int run_demo(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace cara::apps
