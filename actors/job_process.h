// Running a job's process for the starter (no CAF here): what to run, as
// taken from the job ad, and the launch itself.
//
// The process is started with posix_spawn in its own process group, so a
// signal reaches the job and everything it started; stdin/stdout/stderr
// go to the job's In/Out/Err files (relative to Iwd), the working
// directory is Iwd; no other descriptor of the daemon is inherited. Its exit is awaited by a thread of its
// own that calls `on_exit` once: waiting on one pid never reaps another part of the program's children.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "model/classad/classad.h"
#include "model/common/result.h"

namespace cara::actors {

struct JobLaunch {
  std::string cmd;
  std::vector<std::string> args;         // without argv[0]
  std::vector<std::string> environment;  // NAME=value
  std::string iwd, in, out, err;
  int kill_sig = 15;  // KillSig: the soft kill
};

// What the job ad asks for (Cmd, Arguments/Args, Environment, Iwd, In,
// Out, Err, KillSig); an ad without Cmd is an error.
Result<JobLaunch> job_launch(const classad::ClassAd& job);

struct ProcessExit {
  bool by_signal = false;
  int code = 0;  // exit code, or the signal
};

// Starts the process; `on_exit` runs on the waiting thread.
Result<pid_t> launch_job(const JobLaunch& launch, std::function<void(ProcessExit)> on_exit);

// Sends `sig` to the job's process group.
void signal_job(pid_t pid, int sig);

// KillSig names ("SIGTERM", "TERM", "15") to numbers; -1 when unknown.
int signal_number(const std::string& name);

}  // namespace cara::actors
