#include "apps/node/daemon_watch.h"

#include <algorithm>
#include <caf/scoped_actor.hpp>

#include "actors/daemon_directory.h"
#include "model/ha/had_config.h"

namespace cara::apps {

DaemonWatch::DaemonWatch(caf::actor_system& sys, std::string daemon, std::string role,
                         std::vector<CentralManager> centrals, std::vector<caf::actor> known,
                         const net::Credentials& creds, const net::TrustAnchor& anchor, net::Guard& guard,
                         std::shared_ptr<os::DaemonLog> log, caf::actor session, Changed changed,
                         std::chrono::milliseconds every)
    : sys_(sys),
      daemon_(std::move(daemon)),
      role_(std::move(role)),
      centrals_(std::move(centrals)),
      known_(std::move(known)),
      creds_(creds),
      anchor_(anchor),
      guard_(guard),
      log_(std::move(log)),
      session_(std::move(session)),
      changed_(std::move(changed)),
      every_(every) {
  known_.resize(centrals_.size());
  silent_.resize(centrals_.size());
  if (!centrals_.empty()) thread_ = std::thread([this] { run(); });
}

void DaemonWatch::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

caf::actor DaemonWatch::current(std::size_t i, bool& rejoined) {
  CentralManager& cm = centrals_[i];
  const std::string where = cm.where.host + ":" + std::to_string(cm.where.port);
  // A gate on a node that is gone does not answer: do not wait long.
  const auto timeout = std::chrono::milliseconds(ha::kJoinTimeoutMs);
  caf::actor found;
  bool answered = false;
  if (cm.gate && !silent_[i]) {
    caf::scoped_actor self{sys_};
    self->request(cm.gate, timeout, net::GateDirectoryQuery{})
        .receive(
            [&](net::GateWelcome& w) {
              answered = w.ok;
              for (std::size_t k = 0; k < w.names.size() && k < w.daemons.size(); ++k)
                if (w.names[k] == daemon_) found = w.daemons[k];
            },
            [&](caf::error&) {});
  }
  if (answered) return found;
  // Not joined yet, or its gate is gone (the node restarted) or forgot
  // us: join it (again).
  const bool again = static_cast<bool>(cm.gate);
  silent_[i] = again;
  auto joined = net::join(sys_, cm.where.host, cm.where.port, creds_, anchor_, &guard_, timeout, session_);
  if (!joined) return {};
  log_->info("joined the " + role_ + " " + where + (again ? " again" : "") + " (" + joined->peer.text() +
             ")");
  cm.gate = joined->gate;
  silent_[i] = false;
  rejoined = again;
  auto it = joined->daemons.find(daemon_);
  return it == joined->daemons.end() ? caf::actor{} : it->second;
}

void DaemonWatch::run() {
  // Nodes not joined yet are joined at once; the others are looked at
  // after the first interval.
  bool wait = std::all_of(known_.begin(), known_.end(), [](const caf::actor& a) { return bool(a); });
  for (;; wait = true) {
    if (wait) {
      std::unique_lock<std::mutex> lock(mutex_);
      if (wake_.wait_for(lock, every_, [this] { return stop_; })) return;
    }
    bool changed = false;
    for (std::size_t i = 0; i < centrals_.size(); ++i) {
      // A node joined again lost its connection meanwhile (it stopped
      // answering for a while, say): its collector dropped our ads, so the
      // daemons are told even if the collector is the same actor.
      bool rejoined = false;
      caf::actor c = current(i, rejoined);
      if (c && (c != known_[i] || rejoined)) {
        known_[i] = c;
        changed = true;
      }
    }
    if (changed) changed_(known_);
  }
}

}  // namespace cara::apps
