// The administrator's changes to the accountant (condor_userprio
// -setfactor, -setprio, -setaccum, -setfloor, -setceil, -resetusage,
// -delete) as one typed command: parsed once where it arrives, applied
// here. Durability (the accountant's store) records exactly these.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/accounting/accountant.h"
#include "model/common/result.h"

namespace cara::accounting {

enum class PriorityEditKind {
  SetFactor,
  SetPriority,
  SetAccumulated,
  SetFloor,
  SetCeiling,
  ResetUsage,
  Delete,
  SetBegin,  // value: seconds since the epoch
  SetLast,
};

struct PriorityEdit {
  PriorityEditKind kind = PriorityEditKind::SetFactor;
  std::string name;                      // the submitter or group
  double value = 0;                      // unused by ResetUsage and Delete
  std::optional<std::int64_t> duration;  // SetFloor, SetCeiling: seconds until the limit lapses
};

// "setfactor", "setprio", "setaccum", "setfloor", "setceil", "resetusage",
// "delete", "setbegin" or "setlast" (condor_userprio's option names
// without the dash).
Result<PriorityEditKind> parse_priority_edit_kind(std::string_view word);
std::string_view to_string(PriorityEditKind kind);

// Applies `edit` at `now`; the accountant's refusal is the error.
Status apply(Accountant& accountant, const PriorityEdit& edit, std::int64_t now);

}  // namespace cara::accounting
