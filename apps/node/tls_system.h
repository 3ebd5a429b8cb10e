// The actor-system configuration every networked process shares — a
// `cara master` node and a tool that talks to one over TLS: the middleman
// with CAF's openssl module and the pool certificate, the scheduler suited
// to 2 cores (STACK-NOTES.md), CAF's own log off, and every message type of
// the daemons and the gate registered.
#pragma once

#include <caf/fwd.hpp>
#include <string>

#include "model/common/result.h"

namespace cara::apps {

struct TlsFiles {
  std::string certificate, key, ca;
};

Status configure_tls_system(caf::actor_system_config& cfg, const TlsFiles& files);

}  // namespace cara::apps
