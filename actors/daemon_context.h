// What a daemon actor of a networked node gets from its node (net/): the
// guard that says whether a remote sender may act at a permission level,
// and the daemon's log. In an embedded pool the guard is null (everyone is
// trusted) and the log is whatever the embedding program gave (PoolSpec).
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "model/common/result.h"
#include "model/config/config.h"
#include "model/node/pool_event.h"
#include "net/guard.h"
#include "os/daemon_log.h"

namespace cara::actors {

// A node's configuration as it is now: `cara reconfig` replaces it; the
// daemons read it again when told (Reconfigure) and when (re)spawned.
class NodeConfig {
 public:
  explicit NodeConfig(std::shared_ptr<const config::Config> config) : config_(std::move(config)) {}
  std::shared_ptr<const config::Config> get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return config_;
  }
  void set(std::shared_ptr<const config::Config> config) {
    std::lock_guard<std::mutex> lock(mutex_);
    config_ = std::move(config);
  }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const config::Config> config_;
};

struct DaemonContext {
  std::shared_ptr<const net::Guard> guard;
  std::shared_ptr<os::DaemonLog> log;
  // The node's configuration, for a reconfiguration; null in an embedded
  // pool (nothing to read again).
  std::shared_ptr<const NodeConfig> node_config;
  // Who hears what the daemon does (an embedding program: the library
  // API's events, include/caracara/pool.h); null: nobody. Called from the
  // daemon's own thread: it must not block.
  std::function<void(const node::PoolEvent&)> observer;

  std::shared_ptr<const config::Config> current_config() const {
    return node_config ? node_config->get() : nullptr;
  }
  // The configuration a Reconfigure message asks the daemon `self` to
  // apply, or why there is none to apply.
  template <class Self>
  Result<std::shared_ptr<const config::Config>> reconfiguration(Self* self) const {
    if (!net::from_this_node(self)) return Error{"a reconfiguration from another node is refused"};
    auto c = current_config();
    if (!c) return Error{"this daemon has no configuration file to read again"};
    return c;
  }

  void report(const node::PoolEvent& event) const {
    if (observer) observer(event);
  }
  bool observed() const { return static_cast<bool>(observer); }

  void info(const std::string& text) const {
    if (log) log->info(text);
  }
  void warning(const std::string& text) const {
    if (log) log->warning(text);
  }
  // Who sent the message `self` handles, for a log line ("admin@pool/host"),
  // or "this node" when it came from this process or no guard knows it.
  template <class Self>
  std::string requester(Self* self) const {
    if (auto sender = self->current_sender(); sender && guard)
      if (auto id = guard->identity(sender->node())) return id->text();
    return "this node";
  }
  // The refusal of the message `self` handles, logged in this daemon's log.
  template <class Self>
  std::optional<std::string> refused(Self* self, net::Permission p, std::string_view daemon) const {
    return net::refused(self, guard, p, daemon, log.get());
  }
};

}  // namespace cara::actors
