// /metrics: the pool summary (model/monitor/pool_summary.h) as Prometheus
// metrics. Names follow Prometheus's conventions: the caracara_ prefix,
// snake case, base units in the name (_seconds), _total on counters only.
// Weighted resources (quotas, usage) are in the pool's slot weight
// (SlotWeight, Cpus by default), as condor_userprio shows them.
#pragma once

#include <string>

#include "model/monitor/pool_summary.h"

namespace cara::web {

inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

std::string metrics_text(const monitor::PoolSummary& summary);

}  // namespace cara::web
