#include "apps/node/tls_system.h"

#include <caf/actor_system_config.hpp>
#include <caf/io/middleman.hpp>
#include <caf/openssl/manager.hpp>

#include "actors/message_types.h"
#include "net/gate.h"

namespace cara::apps {

void configure_tls_system(caf::actor_system_config& cfg, const TlsFiles& files) {
  cfg.load<caf::io::middleman>();
  cfg.load<caf::openssl::manager>();
  cfg.set("scheduler.policy", caf::atom("sharing"));
  cfg.set("logger.verbosity", caf::atom("quiet"));
  cfg.set("openssl.certificate", files.certificate);
  cfg.set("openssl.key", files.key);
  cfg.set("openssl.cafile", files.ca);
  actors::add_message_types(cfg);
  net::add_gate_message_types(cfg);
}

}  // namespace cara::apps
