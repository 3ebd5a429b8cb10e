// `cara config-val`: print configuration values, like condor_config_val.
//
//   cara config-val [--config FILE] [--subsystem NAME] [--local-name NAME]
//                   [--verbose] NAME ...
//   cara config-val [--config FILE] --dump [--verbose]
//   cara config-val use CATEGORY:TEMPLATE
//
// Each NAME prints its value with macros expanded, one per line; --verbose
// adds the file and line that set it and the raw text, and prints the
// configuration's warnings. --dump prints every definition, raw, sorted by
// name. `use` prints what a configuration template sets. HTCondor's
// single-dash spellings (-config, -subsystem, -local-name, -verbose, -v,
// -dump) are accepted too.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace cara::config {
class ConfigHost;
}

namespace cara::apps {

// Returns the exit code: 0 when every name was defined, 1 when some was
// not (the others still print), for bad usage or a configuration error
// (tool_options.h: every tool's 1 is the user's to fix).
int run_config_val(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                   std::shared_ptr<config::ConfigHost> host);

}  // namespace cara::apps
