// Keeps a node pointed at a daemon of remote nodes that may come and go:
// its central managers' collectors (COLLECTOR_HOST), on a central manager
// its view collectors (CONDOR_VIEW_HOST) and, under high availability, the
// other central managers' hads (HAD_LIST). A master restarts a daemon that
// died, as another actor; HTCondor's daemons would find it again by
// address, so ours must too. Every few seconds the watch asks each remote
// node's gate for its directory (GateDirectoryQuery), joins the node
// (again) when it has no gate for it or the gate is gone, and reports the
// daemons when one of them is another actor than before or had to be
// joined again (its connection was lost: a collector dropped our ads).
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/interfaces.h"
#include "apps/node/node_plan.h"
#include "net/gate.h"
#include "os/daemon_log.h"

namespace cara::apps {

// The node's collectors, shared by the daemons' spawn functions, the watch
// and the had (each reads a copy): a central manager's own collector first
// (its negotiator asks it), then the remote ones its daemons report to as
// well (the central managers' of COLLECTOR_HOST; on a central manager under
// high availability, the other central managers').
class CollectorList {
 public:
  std::vector<actors::collector_actor> get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<actors::collector_actor> out;
    if (own_) out.push_back(own_);
    out.insert(out.end(), remote_.begin(), remote_.end());
    return out;
  }
  void set_own(actors::collector_actor c) {
    std::lock_guard<std::mutex> lock(mutex_);
    own_ = std::move(c);
  }
  void set_remote(std::vector<actors::collector_actor> list) {
    std::lock_guard<std::mutex> lock(mutex_);
    remote_ = std::move(list);
  }

 private:
  mutable std::mutex mutex_;
  actors::collector_actor own_;
  std::vector<actors::collector_actor> remote_;
};

// A remote node with the daemon watched; `gate` is null until it is joined.
struct CentralManager {
  HostPort where;
  net::gate_actor gate;
};

class DaemonWatch {
 public:
  // `daemon` is the DAEMON_LIST name watched ("COLLECTOR", "HAD"); `role`
  // names the remote nodes in the log ("central manager", "view
  // collector"); `known` holds their daemons as first joined (null for
  // none yet); `changed` gets them all (null: not reached) each time one is
  // another actor, on the watch's thread.
  using Changed = std::function<void(const std::vector<caf::actor>&)>;
  DaemonWatch(caf::actor_system& sys, std::string daemon, std::string role,
              std::vector<CentralManager> centrals, std::vector<caf::actor> known,
              const net::Credentials& creds, const net::TrustAnchor& anchor, net::Guard& guard,
              std::shared_ptr<os::DaemonLog> log, caf::actor session, Changed changed,
              std::chrono::milliseconds every);
  ~DaemonWatch() { stop(); }
  DaemonWatch(const DaemonWatch&) = delete;
  DaemonWatch& operator=(const DaemonWatch&) = delete;
  void stop();

 private:
  void run();
  // The daemon remote node `i` has now, re-joining it if its gate is gone
  // (then `rejoined` is set).
  caf::actor current(std::size_t i, bool& rejoined);

  caf::actor_system& sys_;
  std::string daemon_;
  std::string role_;
  std::vector<CentralManager> centrals_;
  std::vector<caf::actor> known_;
  // Gates that did not answer once: each is asked no more, only joined
  // again. Asking the gate of a node that is gone may wait the whole join
  // timeout (while its connection's loss is not known yet), and a central
  // manager that restarted must be reached within
  // HadConfig::startup_listen_ms.
  std::vector<bool> silent_;
  const net::Credentials& creds_;
  const net::TrustAnchor& anchor_;
  net::Guard& guard_;
  std::shared_ptr<os::DaemonLog> log_;
  caf::actor session_;
  Changed changed_;
  std::chrono::milliseconds every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cara::apps
