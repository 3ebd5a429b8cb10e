// How a starter runs a job: real processes through the node's process
// keeper (ProcessRunner), or a stand-in a deterministic test drives by hand
// (it sends StarterExit itself). No CAF here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "actors/job_process.h"
#include "actors/procd_client.h"
#include "model/startd/run_as.h"

namespace cara::actors {

class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // Starts `job` as `as` says (run_as.h: an account, or the daemon's own
  // user); `on_exit` runs once when it ends or could not start (on any
  // thread). Returns a handle for signal(), or why nothing was started.
  virtual Result<std::int64_t> start(const classad::ClassAd& job, const startd::RunAs& as,
                                     std::function<void(ProcessExit)> on_exit) = 0;
  // Signals the job's process group.
  virtual void signal(std::int64_t handle, int sig) = 0;
};

// Real processes, started by cara-procd. The keeper is started with the
// first job (or by prepare(), which a node calls at start to fail early),
// and again after it died.
class ProcessRunner : public JobRunner {
 public:
  struct Options {
    std::string procd;        // the cara-procd program; empty: default_procd_path()
    std::string execute_dir;  // EXECUTE: where job sandboxes go; empty: none
    // The keeper to run: `procd`, else default_procd_path().
    std::string program() const;
  };
  ProcessRunner() = default;
  explicit ProcessRunner(Options options) : options_(std::move(options)) {}

  // Starts the keeper now, or says why it cannot start.
  Status prepare();
  Result<std::int64_t> start(const classad::ClassAd& job, const startd::RunAs& as,
                             std::function<void(ProcessExit)> on_exit) override;
  void signal(std::int64_t handle, int sig) override;

 private:
  Result<Procd*> keeper();

  Options options_;
  std::mutex mutex_;
  std::unique_ptr<Procd> procd_;  // guarded by mutex_
};

// cara-procd beside the running executable, else the installed one.
std::string default_procd_path();

}  // namespace cara::actors
