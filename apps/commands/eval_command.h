// `cara eval`: evaluate ClassAd expressions, mirroring HTCondor's
// condor_classad_eval.
//
//   cara eval [--my FILE] [--target FILE] [--print-ad | --quiet] [ARG ...]
//
// Arguments are processed in order. `Name = expr` adds an attribute to the
// MY ad, `[ ... ]` replaces the MY ad, and anything else is an expression:
// its value is printed, unparsed, on one line. With no ARG, arguments are
// read from standard input, one per line. --print-ad prints the MY ad
// before each value (condor_classad_eval's default); --quiet turns that off
// again. HTCondor's spellings -my-file, -target-file, -file and -quiet are
// accepted too.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cara::apps {

struct EvalClock {
  std::int64_t now;           // seconds since the epoch
  std::int32_t local_offset;  // seconds east of UTC
};

// Runs the command; returns the process exit code: 0 when everything
// parsed, 1 when some expression did not parse (the rest still ran), for
// bad usage or for an unreadable ad file.
int run_eval(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err,
             const EvalClock& clock);

}  // namespace cara::apps
