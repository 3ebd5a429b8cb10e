// Accountant records written as text, one submitter or group per line, for
// `cara negotiate --accountant` and tests:
//
//   # name                 priority  factor  usage  floor  ceiling
//   alice@example.org      12.5      1000    3600   -      -
//
// priority is the RUP, factor the priority factor, usage the accumulated
// usage in resource-seconds; floor and ceiling are numbers or '-' for
// none. Trailing fields may be left out. Blank lines and '#' comments are
// ignored.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/accounting/accountant.h"
#include "model/common/result.h"

namespace cara::accounting {

// Applies the records of `text` (from `label`, for messages) to
// `accountant`. A bad line is an error naming `label`, the line and the
// field; records before it are applied.
Status load_accountant_records(Accountant& accountant, std::string_view text, std::string_view label,
                               std::int64_t now);

}  // namespace cara::accounting
