// Every error of a configuration at once, not only the first: a daemon's
// reading of its knobs stops at the first bad one, so a file with two typos
// would be fixed one restart (or one `cara reconfig`) at a time.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "model/common/result.h"
#include "model/config/config.h"

namespace cara::config {

// A daemon's reading of its configuration: what it would do with it at
// start or at a reconfiguration, stopping at the first error.
using ConfigReading = std::function<Status(const Config&)>;

// Runs `read` on `config` again and again: each time it fails on a knob
// that a file (or the environment, or the command line) defined — the knob
// the error message starts with — the error is kept, the knob is set back
// to its built-in default (or undefined), and `read` runs again. It stops
// when `read` succeeds, fails on something that names no such knob, repeats
// an error, or after `max_errors`. Each error names where its knob was set
// ("(set at FILE, line N)"), added when `read`'s message does not.
std::vector<std::string> collect_config_errors(const Config& config, const ConfigReading& read,
                                               std::size_t max_errors = 50);

}  // namespace cara::config
