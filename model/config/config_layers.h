// Configuration read from several pieces of text in order, each with its
// own label and first line, as if each were a file of its own: the
// simulator's scenario file holds a pool's configuration in sections, and
// an error in one names the scenario file and the line of the file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/config/config.h"

namespace cara::config {

struct TextLayer {
  std::string text;
  std::string label;   // the file it came from, named in errors
  int first_line = 1;  // the line of the file the text begins on
};

// Defaults and machine macros, then every layer in order (a later one
// overrides an earlier one, as a later file does).
Result<Config> config_from_layers(const std::vector<TextLayer>& layers, const DaemonIdentity& who,
                                  std::shared_ptr<ConfigHost> host);

// The configuration of the node named `host` (FULL_HOSTNAME; HOSTNAME its
// first label) read from `layers` alone, on a host that has no files and
// whose $RANDOM_* draw from `seed`: the nodes of a pool that lives in one
// program (the simulator's, the library API's).
Result<Config> host_config_from_layers(const std::vector<TextLayer>& layers, const DaemonIdentity& who,
                                       const std::string& host, std::uint64_t seed);

}  // namespace cara::config
