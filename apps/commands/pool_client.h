// A command-line tool's TLS session with a running pool (cara userprio,
// cara drain): the client certificate of AUTH_SSL_CLIENT_CERTFILE /
// KEYFILE / CAFILE, an actor system over CAF's openssl module, and the
// first central manager of COLLECTOR_HOST that answers joined through its
// gate, so that its daemons know who we are. Other nodes (an execution point) are joined the
// same way.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "apps/node/node_plan.h"
#include "model/config/config.h"
#include "net/gate.h"

namespace cara::apps {

class PoolClient {
 public:
  // Null on failure, after a message on `err` naming `tool`; `exit_code`
  // is then 1 for a configuration problem, 2 for the pool not answering
  // (tool_options.h kExit*).
  // `pool` (a tool's -pool HOST[:PORT]) replaces COLLECTOR_HOST.
  static std::unique_ptr<PoolClient> open(const config::Config& cfg, const std::string& tool,
                                          std::ostream& err, int& exit_code,
                                          const std::optional<std::string>& pool = std::nullopt);
  ~PoolClient();

  caf::actor_system& system() { return *sys_; }
  // The central manager, joined.
  const net::Joined& central() const { return central_; }
  // Every central manager of COLLECTOR_HOST, in order.
  const std::vector<HostPort>& centrals() const { return centrals_; }
  // Another node, by the address its ads publish (MyAddress).
  Result<net::Joined> join(const HostPort& where);

 private:
  PoolClient() = default;
  struct Parts;
  std::unique_ptr<Parts> parts_;
  std::unique_ptr<caf::actor_system_config> cfg_;
  std::unique_ptr<caf::actor_system> sys_;
  net::Joined central_;
  std::vector<HostPort> centrals_;
};

}  // namespace cara::apps
