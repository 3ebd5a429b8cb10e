// Emulated execution points for bench/scale_bench (issue 30, section 5):
// one process that joins a running central manager over TLS, as a node
// does (net/gate.h), and runs many real startd actors in it. Their slots
// advertise to the central manager's collector, take claims and "run" jobs
// that never end (no process is forked): the whole pool's traffic without
// a machine per startd.
#pragma once

#include <string>

namespace cara::bench {

struct EmulatorOptions {
  std::string config;     // a tool's configuration: COLLECTOR_HOST, AUTH_SSL_CLIENT_*
  int first_machine = 0;  // machines first_machine .. first_machine + machines - 1
  int machines = 0;
  int slots_per_machine = 50;  // static one-core slots
  // Where the emulator keeps the number of jobs its slots started, as
  // text, replaced (rename) at most every 20 ms while it changes: the
  // bench learns how far the claims got without asking the collector,
  // whose every query would scan the whole pool while it is measured.
  std::string started_file;
};

// The text of emulated machine `i`'s configuration: `slots` static slots,
// memory per core, site, rack and HasDocker varying with `i` (so that the
// slot ads differ per machine, as a site's do).
std::string emulated_machine(int i, int slots);

// Runs the emulator until SIGTERM or SIGINT; the exit code (non-zero with
// a message on stderr when the central manager cannot be joined or a
// machine's configuration does not make a startd).
int run_emulator(const EmulatorOptions& options);

}  // namespace cara::bench
