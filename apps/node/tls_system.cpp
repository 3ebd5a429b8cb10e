#include "apps/node/tls_system.h"

#include <caf/actor_system_config.hpp>
#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>

#include "actors/message_types.h"
#include "net/gate.h"
#include "net/tls_error_queue.h"

namespace cara::apps {

Status configure_tls_system(caf::actor_system_config& cfg, const TlsFiles& files) {
  cfg.load<caf::io::middleman>();
  cfg.load<caf::openssl::manager>();
  actors::configure_actor_system(cfg);
  cfg.set("openssl.certificate", files.certificate);
  cfg.set("openssl.key", files.key);
  cfg.set("openssl.cafile", files.ca);
  cfg.set("middleman.heartbeat-interval", caf::timespan{static_cast<std::int64_t>(kHeartbeatInterval * 1e9)});
  net::add_gate_message_types(cfg);
  if (!net::tls_error_queue_guarded())
    return Error{"this build does not interpose OpenSSL's I/O calls (net/tls_error_queue.cpp)"};
  return Ok{};
}

}  // namespace cara::apps
