// A central manager's way to its CONDOR_VIEW_HOST collectors: they are
// joined in the background (a view collector may start after the central
// manager, or not at all, and must never hold up the pool), each over the
// gate's TLS handshake like any node; every view collector reached is
// handed to the local collector, which forwards each update to it.
#pragma once

#include <caf/actor.hpp>
#include <caf/fwd.hpp>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/interfaces.h"
#include "apps/node/node_plan.h"
#include "net/daemon_log.h"
#include "net/gate.h"

namespace cara::apps {

class ViewHostLink {
 public:
  ViewHostLink(caf::actor_system& sys, std::vector<HostPort> hosts, const net::Credentials& creds,
               const net::TrustAnchor& anchor, net::Guard& guard, std::shared_ptr<net::DaemonLog> log,
               caf::actor session);
  ~ViewHostLink() { stop(); }
  // Stops trying and waits for the thread (at most one join's timeout).
  void stop();
  ViewHostLink(const ViewHostLink&) = delete;
  ViewHostLink& operator=(const ViewHostLink&) = delete;

  // The node's collector, now and after each restart: it is told the view
  // collectors reached so far, and each one reached later.
  void attach(const actors::collector_actor& local);

 private:
  void run();
  void tell(actors::ViewHosts v);  // to local_, under mutex_

  caf::actor_system& sys_;
  std::vector<HostPort> hosts_;
  const net::Credentials& creds_;
  const net::TrustAnchor& anchor_;
  net::Guard& guard_;
  std::shared_ptr<net::DaemonLog> log_;
  caf::actor session_;        // what the view collectors' gates watch (our gate)
  mutable std::mutex mutex_;  // guards what follows
  actors::collector_actor local_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::vector<actors::collector_actor> reached_;
  std::thread thread_;
};

}  // namespace cara::apps
