// Built-in defaults: every knob caracara reads, with the default HTCondor
// documents for it. They are the first layer of every configuration, so
// `$(PRIORITY_HALFLIFE)` works in a file that never sets it and
// `cara config-val` can show where a value came from.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include "model/config/macro_set.h"

namespace cara::config {

struct KnobDefault {
  const char* name;
  const char* value;
};

// The table, ordered by name (upper-case: canonical names).
std::span<const KnobDefault> knob_defaults();

// The built-in definition of `canonical` (a canonical name) with origin
// <default>, or null. Each is made when first asked for and kept for the
// process's life: a MacroSet asks here for a name nothing defines
// (MacroSet::use_knob_defaults) instead of holding a copy of all of them,
// which every `cara submit` built at its start (issue 21).
const Definition* knob_default(std::string_view canonical);
// The same for the table's entry number `index` (< knob_defaults().size()),
// for a walk over the table in order (MacroSet::all()).
const Definition* knob_default_at(std::size_t index);

}  // namespace cara::config
