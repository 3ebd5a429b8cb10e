// The daemon's side of cara-procd (actors/procd_protocol.h): starts the
// keeper, sends it jobs and signals, and hands each job's end to the
// callback given with it, on a reader thread of its own. No CAF here.
//
// The socket to the keeper is the jobs' lifeline: it is held by this
// process only (close-on-exec, and the keeper closes the rest), so when
// this process ends — kill -9 included — the keeper kills every job.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "actors/procd_protocol.h"
#include "model/common/result.h"

namespace cara::actors {

// How a job ended: by itself (exit code), by a signal, or it never
// started (`error` says why).
struct ProcessExit {
  bool by_signal = false;
  int code = 0;       // exit code, or the signal
  std::string error;  // not empty: the job could not be started (or was lost with its keeper)
};

class Procd {
 public:
  using OnEnd = std::function<void(ProcessExit)>;

  // Starts `program` (cara-procd) for jobs whose sandboxes go under
  // `execute_dir`, and waits (bounded) for it to say it is ready.
  static Result<std::unique_ptr<Procd>> start(const std::string& program, const std::string& execute_dir);
  // Closes the lifeline: the keeper kills what still runs and exits.
  ~Procd();
  Procd(const Procd&) = delete;
  Procd& operator=(const Procd&) = delete;

  // Sends `spec` (its id is assigned here and returned); `on_end` runs
  // once, on the reader thread, when the job ends or fails to start.
  std::int64_t launch(procd::JobSpec spec, OnEnd on_end);
  void signal(std::int64_t id, int sig);
  // False once the keeper has gone (its jobs were reported lost).
  bool alive() const;
  pid_t pid() const { return pid_; }

 private:
  Procd(int socket, pid_t pid) : socket_(socket), pid_(pid) {}
  void read_loop();
  bool send(const std::string& text);

  int socket_ = -1;
  pid_t pid_ = -1;
  mutable std::mutex mutex_;
  std::map<std::int64_t, OnEnd> waiting_;  // guarded by mutex_
  std::int64_t next_id_ = 0;               // guarded by mutex_
  bool alive_ = true;                      // guarded by mutex_
  std::thread reader_;
};

}  // namespace cara::actors
