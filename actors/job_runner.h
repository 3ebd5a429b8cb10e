// How a starter runs a job: real processes on a node (ProcessRunner), or a
// stand-in a deterministic test drives by hand (it sends StarterExit
// itself). No CAF here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "actors/job_process.h"

namespace cara::actors {

class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // Starts `job`; `on_exit` runs once when it ends (on any thread).
  // Returns a handle for signal().
  virtual Result<std::int64_t> start(const classad::ClassAd& job,
                                     std::function<void(ProcessExit)> on_exit) = 0;
  virtual void signal(std::int64_t handle, int sig) = 0;
};

// fork/exec through posix_spawn (job_process.h).
class ProcessRunner : public JobRunner {
 public:
  Result<std::int64_t> start(const classad::ClassAd& job, std::function<void(ProcessExit)> on_exit) override {
    auto launch = job_launch(job);
    if (!launch) return Error{launch.error()};
    auto pid = launch_job(*launch, std::move(on_exit));
    if (!pid) return Error{pid.error()};
    return static_cast<std::int64_t>(*pid);
  }
  void signal(std::int64_t handle, int sig) override { signal_job(static_cast<pid_t>(handle), sig); }
};

}  // namespace cara::actors
