// What the web endpoint answers to each request (pure: no I/O): an asset
// or an error at once, or the page the request names, to render once the
// pool's summary or history has been fetched.
//
//   GET /                      the dashboard (index.html, dashboard.js, dashboard.css)
//   GET /metrics               Prometheus metrics
//   GET /api/v1                the list of API pages
//   GET /api/v1/status         slots, machines, jobs, daemons, collectors, negotiators, HA
//   GET /api/v1/queue          jobs per submitter
//   GET /api/v1/submitters     jobs and priorities per submitter
//   GET /api/v1/groups         jobs, quotas and usage per accounting group
//   GET /api/v1/cycles         the negotiators' last cycles
//   GET /api/v1/history?from=&to=&type=   the pool history (KEEP_POOL_HISTORY)
//
// Only GET and HEAD are served (405 otherwise); an unknown path is 404; a
// bad query parameter is 400 naming it and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "apps/web/api_json.h"
#include "model/classad/classad.h"
#include "model/monitor/pool_summary.h"
#include "net/http_server.h"

namespace cara::web {

struct MetricsPage {};
struct HistoryPage {
  std::int64_t from = 0, to = 0;
  std::string type;  // "Machine", "Submitter", "Group", "Negotiator"; empty: every row
  // The constraint on the history rows the type selects (empty: none).
  std::string constraint() const;
};

using Route = std::variant<net::HttpResponse, MetricsPage, ApiPage, HistoryPage>;

// `now`: the current time, for a history range given relative to it
// (from=-3600) and the default range (the last hour).
Route route(const net::HttpRequest& request, std::int64_t now);

net::HttpResponse render_metrics(const monitor::PoolSummary& summary);
net::HttpResponse render_api(ApiPage page, const monitor::PoolSummary& summary);
net::HttpResponse render_history(const HistoryPage& page, const std::vector<classad::ClassAd>& rows);
// What could not be answered, and why: 503 when the pool did not answer,
// 404 when this central manager keeps no pool history.
net::HttpResponse unavailable(unsigned status, const std::string& why);

}  // namespace cara::web
