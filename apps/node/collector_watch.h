// Keeps a node's daemons reporting to its central managers' current
// collectors. A central manager's master restarts a collector that died,
// as another actor; HTCondor's daemons would find it again by address, so
// ours must too. Every few seconds the watch asks each central manager's
// gate for its directory (GateDirectoryQuery); when the collector there is
// another actor than before — or the central manager was unreachable and
// is joined again as a new node — the node's running daemons are told
// (Collectors) and the ones (re)spawned later start with it.
#pragma once

#include <caf/fwd.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/interfaces.h"
#include "apps/node/node_plan.h"
#include "net/daemon_log.h"
#include "net/gate.h"

namespace cara::apps {

// The node's collectors, shared by the daemons' spawn functions and the
// watch (each reads a copy).
class CollectorList {
 public:
  std::vector<actors::collector_actor> get() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return list_;
  }
  void set(std::vector<actors::collector_actor> list) {
    std::lock_guard<std::mutex> lock(mutex_);
    list_ = std::move(list);
  }

 private:
  mutable std::mutex mutex_;
  std::vector<actors::collector_actor> list_;
};

struct CentralManager {
  HostPort where;
  net::gate_actor gate;
};

class CollectorWatch {
 public:
  // `daemons` names the node's running daemons now (asked of its master).
  CollectorWatch(caf::actor_system& sys, std::vector<CentralManager> centrals,
                 std::shared_ptr<CollectorList> list, const net::Credentials& creds,
                 const net::TrustAnchor& anchor, net::Guard& guard, std::shared_ptr<net::DaemonLog> log,
                 caf::actor session, std::function<std::vector<caf::actor>()> daemons,
                 std::chrono::milliseconds every);
  ~CollectorWatch() { stop(); }
  CollectorWatch(const CollectorWatch&) = delete;
  CollectorWatch& operator=(const CollectorWatch&) = delete;
  void stop();

 private:
  void run();
  // The collector central manager `i` has now, re-joining it if its gate is gone.
  actors::collector_actor current(std::size_t i);

  caf::actor_system& sys_;
  std::vector<CentralManager> centrals_;
  std::shared_ptr<CollectorList> list_;
  const net::Credentials& creds_;
  const net::TrustAnchor& anchor_;
  net::Guard& guard_;
  std::shared_ptr<net::DaemonLog> log_;
  caf::actor session_;
  std::function<std::vector<caf::actor>()> daemons_;
  std::chrono::milliseconds every_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace cara::apps
