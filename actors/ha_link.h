// What ties a central manager's had to its negotiator, and names the node
// in HAD_LIST. The master (re)spawns each of the two on its own; each
// finds the other here: a negotiator that starts tells the had of the box
// (AccountantVersion), and a had that starts tells the negotiator of the
// box to stand by until it decides.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "actors/handles.h"

namespace cara::actors {

class HaLink {
 public:
  HaLink(std::vector<std::string> names, std::uint16_t port) : names_(std::move(names)), port_(port) {}

  // How HAD_LIST names this node: its host names and addresses, and its
  // port (0: any port; an embedded pool's nodes have none).
  const std::vector<std::string>& names() const { return names_; }
  std::uint16_t port() const { return port_; }

  had_actor had() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return had_;
  }
  void set_had(had_actor h) {
    std::lock_guard<std::mutex> lock(mutex_);
    had_ = std::move(h);
  }
  negotiator_actor negotiator() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return negotiator_;
  }
  void set_negotiator(negotiator_actor n) {
    std::lock_guard<std::mutex> lock(mutex_);
    negotiator_ = std::move(n);
  }

 private:
  const std::vector<std::string> names_;
  const std::uint16_t port_;
  mutable std::mutex mutex_;
  had_actor had_;
  negotiator_actor negotiator_;
};

}  // namespace cara::actors
