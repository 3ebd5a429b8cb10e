#include "apps/commands/pool_client.h"

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

#include "apps/commands/tool_options.h"
#include "apps/node/tls_system.h"
#include "net/pki.h"

namespace cara::apps {

struct PoolClient::Parts {
  net::Credentials creds;
  net::TrustAnchor anchor;
};

PoolClient::~PoolClient() {
  central_ = net::Joined{};  // our session ends before the actor system
  sys_.reset();
}

std::unique_ptr<PoolClient> PoolClient::open(const config::Config& cfg, const std::string& tool,
                                             std::ostream& err, int& exit_code,
                                             const std::optional<std::string>& pool) {
  using namespace std::chrono_literals;
  exit_code = kExitUserError;  // until the pool is reached: the configuration's fault
  std::string cert, key, ca, cm;
  for (auto [knob, into] :
       {std::pair{"AUTH_SSL_CLIENT_CERTFILE", &cert}, std::pair{"AUTH_SSL_CLIENT_KEYFILE", &key},
        std::pair{"AUTH_SSL_CLIENT_CAFILE", &ca}, std::pair{"COLLECTOR_HOST", &cm}}) {
    auto v = cfg.string(knob);
    if (pool && into == &cm) continue;
    if (!v || v->empty()) {
      err << "cara " << tool << ": " << knob << " is not set\n";
      return nullptr;
    }
    *into = *v;
  }
  // Every central manager of COLLECTOR_HOST (several under high
  // availability): the first that answers is joined.
  std::vector<HostPort> centrals;
  Result<HostPort> where = Error{"COLLECTOR_HOST: no central manager listed"};
  auto hosts =
      pool ? Result<std::vector<std::string>>{std::vector<std::string>{*pool}} : cfg.list("COLLECTOR_HOST");
  if (!hosts) where = Error{hosts.error()};
  for (const std::string& h : hosts ? *hosts : std::vector<std::string>{}) {
    where = parse_host_port(h, pool ? "-pool" : "COLLECTOR_HOST");
    if (!where) break;
    centrals.push_back(*where);
  }
  auto creds = net::Credentials::load(cert, key);
  auto anchor = net::TrustAnchor::load(ca);
  if (!where || !creds || !anchor) {
    err << "cara " << tool << ": "
        << (!where   ? where.error()
            : !creds ? creds.error()
                     : anchor.error())
        << "\n";
    return nullptr;
  }
  std::unique_ptr<PoolClient> c(new PoolClient);
  c->parts_ = std::make_unique<Parts>(Parts{std::move(*creds), std::move(*anchor)});
  c->cfg_ = std::make_unique<caf::actor_system_config>();
  if (auto tls = configure_tls_system(*c->cfg_, TlsFiles{cert, key, ca}); !tls) {
    err << "cara " << tool << ": " << tls.error() << "\n";
    return nullptr;
  }
  c->sys_ = std::make_unique<caf::actor_system>(*c->cfg_);
  exit_code = kExitUnreachable;
  c->centrals_ = centrals;
  Result<net::Joined> joined = Error{"no central manager answered"};
  for (const HostPort& cm_at : centrals)
    if ((joined = c->join(cm_at))) break;
  if (!joined) {
    err << "cara " << tool << ": " << joined.error() << "\n";
    return nullptr;
  }
  c->central_ = std::move(*joined);
  exit_code = kExitOk;
  return c;
}

Result<net::Joined> PoolClient::join(const HostPort& where) {
  using namespace std::chrono_literals;
  return net::join(*sys_, where.host, where.port, parts_->creds, parts_->anchor, nullptr, 10s);
}

}  // namespace cara::apps
