#include "apps/web/web_routes.h"

#include <charconv>
#include <map>

#include "apps/web/assets.h"
#include "apps/web/metrics_exporter.h"

namespace cara::web {
namespace {

constexpr const char* kJson = "application/json";

net::HttpResponse answer(unsigned status, std::string text) {
  net::HttpResponse r;
  r.status = status;
  r.body = std::move(text) + "\n";
  return r;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX and '+' decoded; nullopt for a broken escape.
std::optional<std::string> decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

using Query = std::map<std::string, std::string>;

// "a=1&b=2" → {a: 1, b: 2}; an error names the part that is wrong.
Result<Query> parse_query(std::string_view q) {
  Query out;
  while (!q.empty()) {
    const std::size_t amp = q.find('&');
    const std::string_view part = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    auto key = decode(part.substr(0, eq));
    auto value = decode(eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1));
    if (!key || !value) return Error{"bad %-escape in query parameter '" + std::string(part) + "'"};
    out[*key] = *value;
  }
  return out;
}

// A time parameter: Unix seconds, or seconds before `now` when negative.
Result<std::int64_t> time_param(const Query& q, const char* name, std::int64_t now, std::int64_t otherwise) {
  auto it = q.find(name);
  if (it == q.end()) return otherwise;
  std::int64_t v = 0;
  const std::string& s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    return Error{std::string("query parameter '") + name +
                 "': expected Unix seconds (or -N for N seconds ago), got '" + s + "'"};
  return v < 0 ? now + v : v;
}

Route history_route(const Query& q, std::int64_t now) {
  for (const auto& [key, value] : q)
    if (key != "from" && key != "to" && key != "type")
      return answer(400, "unknown query parameter '" + key + "': /api/v1/history takes from, to and type");
  auto to = time_param(q, "to", now, now);
  if (!to) return answer(400, to.error());
  auto from = time_param(q, "from", now, *to - 3600);
  if (!from) return answer(400, from.error());
  if (*from > *to)
    return answer(400, "query parameters: from (" + std::to_string(*from) + ") is after to (" +
                           std::to_string(*to) + ")");
  HistoryPage page{*from, *to, {}};
  if (auto it = q.find("type"); it != q.end()) {
    const std::string& t = it->second;
    if (t != "Machine" && t != "Submitter" && t != "Group" && t != "Negotiator")
      return answer(
          400, "query parameter 'type': expected Machine, Submitter, Group or Negotiator, got '" + t + "'");
    page.type = t;
  }
  return page;
}

constexpr const char* kIndex = R"({"pages":["/api/v1/status","/api/v1/queue","/api/v1/submitters",)"
                               R"("/api/v1/groups","/api/v1/cycles","/api/v1/history?from=&to=&type="]})";

}  // namespace

std::string HistoryPage::constraint() const {
  return type.empty() ? std::string() : "MyType == \"" + type + "History\"";
}

Route route(const net::HttpRequest& request, std::int64_t now) {
  if (request.method != "GET" && request.method != "HEAD")
    return answer(405,
                  "method " + request.method + " not allowed: the web endpoint is read-only (GET, HEAD)");
  const std::string_view target = request.target;
  const std::size_t mark = target.find('?');
  const std::string_view path = target.substr(0, mark);
  const std::string_view query =
      mark == std::string_view::npos ? std::string_view() : target.substr(mark + 1);
  if (path.empty() || path.front() != '/')
    return answer(400, "request target must be a path starting with '/'");
  auto q = parse_query(query);
  if (!q) return answer(400, q.error());
  const bool takes_query = path == "/api/v1/history";
  if (!takes_query && !q->empty())
    return answer(
        400, "unknown query parameter '" + q->begin()->first + "': " + std::string(path) + " takes none");
  if (path == "/metrics") return MetricsPage{};
  if (path == "/api/v1" || path == "/api/v1/") {
    net::HttpResponse r;
    r.content_type = kJson;
    r.body = kIndex;
    return r;
  }
  static const std::pair<std::string_view, ApiPage> pages[] = {{"/api/v1/status", ApiPage::Status},
                                                               {"/api/v1/queue", ApiPage::Queue},
                                                               {"/api/v1/submitters", ApiPage::Submitters},
                                                               {"/api/v1/groups", ApiPage::Groups},
                                                               {"/api/v1/cycles", ApiPage::Cycles}};
  for (const auto& [p, page] : pages)
    if (path == p) return page;
  if (takes_query) return history_route(*q, now);
  if (const Asset* a = find_asset(path == "/" ? std::string_view("/index.html") : path)) {
    net::HttpResponse r;
    r.content_type = std::string(a->content_type);
    r.body = std::string(a->body);
    r.cache_control = "no-cache";
    return r;
  }
  return answer(404, "no page " + std::string(path) + ": try /, /metrics or /api/v1");
}

net::HttpResponse render_metrics(const monitor::PoolSummary& summary) {
  net::HttpResponse r;
  r.content_type = kPrometheusContentType;
  r.body = metrics_text(summary);
  return r;
}

net::HttpResponse render_api(ApiPage page, const monitor::PoolSummary& summary) {
  net::HttpResponse r;
  r.content_type = kJson;
  r.body = api_document(page, summary);
  return r;
}

net::HttpResponse render_history(const HistoryPage& page, const std::vector<classad::ClassAd>& rows) {
  net::HttpResponse r;
  r.content_type = kJson;
  r.body = history_document(page.from, page.to, rows);
  return r;
}

net::HttpResponse unavailable(unsigned status, const std::string& why) {
  return answer(status, why);
}

}  // namespace cara::web
