#include "apps/node/web_service.h"

#include <atomic>
#include <caf/actor_system.hpp>

#include "apps/web/summary_cache.h"
#include "apps/web/web_routes.h"
#include "model/collector/pool_history.h"
#include "net/guard.h"
#include "net/http_server.h"
#include "os/daemon_log.h"

namespace cara::apps {
namespace {

// History ranges read the store: a few at a time, the rest told to come back.
constexpr int kHistoryInFlight = 8;

std::int64_t wall_seconds() {
  using namespace std::chrono;
  return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

struct WebService::Impl {
  caf::actor_system* sys = nullptr;
  actors::WebSourceSetup source;
  std::shared_ptr<web::SummaryCache> cache;
  bool history_kept = false;
  std::shared_ptr<std::atomic<int>> history_in_flight = std::make_shared<std::atomic<int>>(0);
  std::unique_ptr<net::HttpServer> server;

  void handle(const net::HttpRequest& request, const std::function<void(net::HttpResponse)>& reply) {
    web::Route r = web::route(request, wall_seconds());
    if (auto* now = std::get_if<net::HttpResponse>(&r)) return reply(std::move(*now));
    if (std::holds_alternative<web::MetricsPage>(r) || std::holds_alternative<web::ApiPage>(r)) {
      cache->get([r, reply](const Result<web::SharedSummary>& s) {
        if (!s) return reply(web::unavailable(503, "the pool cannot be read now: " + s.error()));
        if (const auto* page = std::get_if<web::ApiPage>(&r)) return reply(web::render_api(*page, **s));
        reply(web::render_metrics(**s));
      });
      return;
    }
    const web::HistoryPage page = std::get<web::HistoryPage>(r);
    if (!history_kept)
      return reply(
          web::unavailable(404, "this central manager keeps no pool history (KEEP_POOL_HISTORY is false)"));
    if (history_in_flight->fetch_add(1) >= kHistoryInFlight) {
      history_in_flight->fetch_sub(1);
      return reply(web::unavailable(503, "too many history queries at once; try again"));
    }
    actors::fetch_pool_history(
        *sys, source, page.from, page.to, page.constraint(),
        [page, reply, busy = history_in_flight](Result<std::vector<classad::ClassAd>> rows) {
          busy->fetch_sub(1);
          if (!rows) return reply(web::unavailable(503, rows.error()));
          reply(web::render_history(page, *rows));
        });
  }
};

WebService::WebService(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
WebService::~WebService() {
  stop();
}

Result<std::unique_ptr<WebService>> WebService::start(caf::actor_system& sys, const config::Config& config,
                                                      const web::WebSettings& settings,
                                                      actors::WebSourceSetup source,
                                                      std::shared_ptr<net::Guard> guard,
                                                      std::shared_ptr<os::DaemonLog> log) {
  auto accounting = accounting::AccountantConfig::from_config(config);
  if (!accounting) return Error{accounting.error()};
  auto history = collector::PoolHistoryPolicy::from_config(config);
  if (!history) return Error{history.error()};
  auto impl = std::make_unique<Impl>();
  impl->sys = &sys;
  impl->source = source;
  impl->history_kept = history->keep;
  impl->cache = std::make_shared<web::SummaryCache>(
      [&sys, source, accounting = *accounting](std::function<void(Result<monitor::PoolSummary>)> done) {
        actors::fetch_pool_view(sys, source, [done, accounting](Result<monitor::PoolView> view) {
          if (!view) return done(Error{view.error()});
          done(monitor::summarize(*view, accounting));
        });
      },
      settings.refresh);
  net::HttpServerOptions options;
  options.bind = settings.listen;
  options.port = settings.port;
  options.certificate = settings.certificate;
  options.key = settings.key;
  options.refusal = [guard](const std::string& address) -> std::optional<std::string> {
    return guard->refuse(net::Permission::Read, net::Identity{web::kWebUser, address}, "web");
  };
  Impl* self = impl.get();
  auto server = net::HttpServer::start(
      options, [self](net::HttpRequest request, std::function<void(net::HttpResponse)> reply) {
        self->handle(request, reply);
      });
  if (!server) return Error{server.error()};
  impl->server = std::move(*server);
  log->info(std::string("web endpoint on ") + (settings.tls ? "https" : "http") + "://" + settings.listen +
            ":" + std::to_string(impl->server->port()) + "/ (metrics at /metrics, API at /api/v1)");
  return std::unique_ptr<WebService>(new WebService(std::move(impl)));
}

std::uint16_t WebService::port() const {
  return impl_->server ? impl_->server->port() : 0;
}

void WebService::stop() {
  if (impl_ && impl_->server) impl_->server->stop();
}

}  // namespace cara::apps
