// /api/v1: the pool summary and the pool history as JSON documents, one
// per page. Field names are snake case; times are Unix seconds; weighted
// resources are in the pool's slot weight.
#pragma once

#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/monitor/pool_summary.h"

namespace cara::web {

enum class ApiPage { Status, Queue, Submitters, Groups, Cycles };

// The document of `page` (compact JSON).
std::string api_document(ApiPage page, const monitor::PoolSummary& summary);

// History rows (collector/pool_history.h) as {"from", "to", "rows": [...]},
// each row an object of its attributes under their ClassAd names.
std::string history_document(std::int64_t from, std::int64_t to, const std::vector<classad::ClassAd>& rows);

}  // namespace cara::web
