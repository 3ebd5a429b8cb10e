// What ties a central manager's had to its negotiator and its collector,
// and names the node in HAD_LIST. The master (re)spawns each on its own;
// each finds the others here: a negotiator that starts tells the had of the
// box (AccountantVersion), and a had that starts tells the negotiator of the
// box to stand by until it decides. The had hands the other central
// managers' collectors (from their heartbeats) to the node through
// `on_peer_collectors`, so that the node's daemons report to every one.
#pragma once

#include <cstdint>
#include <functional>
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
  collector_actor collector() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return collector_;
  }
  void set_collector(collector_actor c) {
    std::lock_guard<std::mutex> lock(mutex_);
    collector_ = std::move(c);
  }
  // Who hears of the other central managers' collectors as the had finds
  // and loses them (none: nobody). One set after the had heard of some is
  // told of them at once.
  using PeerCollectors = std::function<void(const std::vector<collector_actor>&)>;
  void on_peer_collectors(PeerCollectors f) {
    std::lock_guard<std::mutex> in_order(deliver_);  // each told list the newest
    std::vector<collector_actor> known;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      peer_collectors_ = f;
      known = peers_;
    }
    if (f && !known.empty()) f(known);
  }
  void peer_collectors_changed(std::vector<collector_actor> peers) {
    std::lock_guard<std::mutex> in_order(deliver_);
    PeerCollectors f;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      f = peer_collectors_;
      peers_ = peers;
    }
    if (f) f(peers);
  }

 private:
  const std::vector<std::string> names_;
  const std::uint16_t port_;
  mutable std::mutex mutex_;
  std::mutex deliver_;  // held while the listener is told
  had_actor had_;
  negotiator_actor negotiator_;
  collector_actor collector_;
  PeerCollectors peer_collectors_;
  std::vector<collector_actor> peers_;  // the last the had told
};

}  // namespace cara::actors
