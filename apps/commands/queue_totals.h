// The schedd's totals (model/schedd/job_counts.h) as the local socket's
// JSON carries them: {"owner": {"total": N, "idle": N, ...}, "all": {...}}.
#pragma once

#include <nlohmann/json.hpp>

#include "model/common/result.h"
#include "model/schedd/job_counts.h"

namespace cara::apps {

nlohmann::json totals_json(const schedd::QueueTotals& t);
// An error names the count that is missing or not a whole number.
Result<schedd::QueueTotals> totals_from_json(const nlohmann::json& j);

}  // namespace cara::apps
