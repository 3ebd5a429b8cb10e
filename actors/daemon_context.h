// What a daemon actor of a networked node gets from its node (net/): the
// guard that says whether a remote sender may act at a permission level,
// and the daemon's log. Both null in an embedded pool: everyone is trusted
// and nothing is logged.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "net/daemon_log.h"
#include "net/guard.h"

namespace cara::actors {

struct DaemonContext {
  std::shared_ptr<const net::Guard> guard;
  std::shared_ptr<net::DaemonLog> log;

  void info(const std::string& text) const {
    if (log) log->info(text);
  }
  void warning(const std::string& text) const {
    if (log) log->warning(text);
  }
  // The refusal of the message `self` handles, logged in this daemon's log.
  template <class Self>
  std::optional<std::string> refused(Self* self, net::Permission p, std::string_view daemon) const {
    return net::refused(self, guard, p, daemon, log.get());
  }
};

}  // namespace cara::actors
