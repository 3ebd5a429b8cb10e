// Built-in defaults: every knob caracara reads, with the default HTCondor
// documents for it. They are the first layer of every configuration, so
// `$(PRIORITY_HALFLIFE)` works in a file that never sets it and
// `cara config-val` can show where a value came from.
#pragma once

#include <span>

namespace cara::config {

struct KnobDefault {
  const char* name;
  const char* value;
};

// The table, ordered by name.
std::span<const KnobDefault> knob_defaults();

}  // namespace cara::config
