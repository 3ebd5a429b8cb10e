#include "actors/job_runner.h"

#include <unistd.h>

#include <filesystem>

#include "os/companion_program.h"

namespace cara::actors {

std::string default_procd_path() {
  return os::companion_program("cara-procd", CARA_PROCD_INSTALLED);
}

std::string ProcessRunner::Options::program() const {
  return procd.empty() ? default_procd_path() : procd;
}

Result<Procd*> ProcessRunner::keeper() {
  if (procd_ && procd_->alive()) return procd_.get();
  procd_.reset();  // a keeper that died took its jobs with it; a new one takes the next
  auto p = Procd::start(options_.program(), options_.execute_dir);
  if (!p) return Error{p.error()};
  procd_ = std::move(*p);
  return procd_.get();
}

Status ProcessRunner::prepare() {
  std::lock_guard<std::mutex> lock(mutex_);
  auto k = keeper();
  if (!k) return Error{k.error()};
  return Ok{};
}

Result<std::int64_t> ProcessRunner::start(const classad::ClassAd& job, const startd::RunAs& as,
                                          std::function<void(ProcessExit)> on_exit) {
  if (!as.ok) return Error{as.hold_reason};
  auto launch = job_launch(job);
  if (!launch) return Error{launch.error()};
  procd::JobSpec spec = std::move(launch->spec);
  spec.sandbox = !options_.execute_dir.empty();
  spec.switch_user = as.switch_user;
  spec.uid = as.account.uid;
  spec.gid = as.account.gid;
  spec.groups = as.account.groups;
  spec.user = as.account.name;
  std::lock_guard<std::mutex> lock(mutex_);
  auto k = keeper();
  if (!k) return Error{k.error()};
  return (*k)->launch(std::move(spec), std::move(on_exit));
}

void ProcessRunner::signal(std::int64_t handle, int sig) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (procd_) procd_->signal(handle, sig);
}

}  // namespace cara::actors
