#include "apps/node/view_host_link.h"

#include <caf/actor_cast.hpp>
#include <caf/send.hpp>

namespace cara::apps {

ViewHostLink::ViewHostLink(caf::actor_system& sys, std::vector<HostPort> hosts, const net::Credentials& creds,
                           const net::TrustAnchor& anchor, net::Guard& guard,
                           std::shared_ptr<net::DaemonLog> log, caf::actor session)
    : sys_(sys),
      hosts_(std::move(hosts)),
      creds_(creds),
      anchor_(anchor),
      guard_(guard),
      log_(std::move(log)),
      session_(std::move(session)) {
  if (!hosts_.empty()) thread_ = std::thread([this] { run(); });
}

void ViewHostLink::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

namespace {

actors::ViewHosts view_hosts(const std::vector<actors::collector_actor>& reached) {
  actors::ViewHosts v;
  for (const actors::collector_actor& c : reached) v.collectors.push_back(caf::actor_cast<caf::actor>(c));
  return v;
}

}  // namespace

void ViewHostLink::tell(actors::ViewHosts v) {
  // As the collector itself: it takes view hosts only from its own node,
  // and an anonymous message could come from anywhere.
  caf::send_as(local_, local_, std::move(v));
}

void ViewHostLink::attach(const actors::collector_actor& local) {
  // Under the lock the thread adds to reached_ with: no view collector is
  // missed between the two.
  std::lock_guard<std::mutex> lock(mutex_);
  local_ = local;
  if (local_ && !reached_.empty()) tell(view_hosts(reached_));
}

void ViewHostLink::run() {
  using namespace std::chrono;
  std::vector<bool> done(hosts_.size(), false);
  std::size_t left = hosts_.size();
  for (double wait = 0.5; left > 0; wait = std::min(wait * 2, 30.0)) {
    for (std::size_t i = 0; i < hosts_.size(); ++i) {
      if (done[i]) continue;
      const std::string where = hosts_[i].host + ":" + std::to_string(hosts_[i].port);
      auto joined =
          net::join(sys_, hosts_[i].host, hosts_[i].port, creds_, anchor_, &guard_, seconds(10), session_);
      auto it = joined ? joined->daemons.find("COLLECTOR") : std::map<std::string, caf::actor>::iterator{};
      if (!joined || it == joined->daemons.end()) {
        log_->warning("view collector " + where + ": " +
                      (joined ? std::string("runs no collector") : joined.error()) + "; retrying");
        continue;
      }
      done[i] = true;
      --left;
      log_->info("forwarding to the view collector " + where + " (" + joined->peer.text() + ")");
      std::lock_guard<std::mutex> lock(mutex_);
      reached_.push_back(caf::actor_cast<actors::collector_actor>(it->second));
      if (local_) tell(view_hosts(reached_));
    }
    std::unique_lock<std::mutex> lock(mutex_);
    if (left == 0 || wake_.wait_for(lock, duration<double>(wait), [this] { return stop_; })) return;
  }
}

}  // namespace cara::apps
