// What the starter runs for a job, as taken from the job ad (no CAF here):
// the executable, its arguments and environment, its directory and files,
// and the signal that asks it to stop. The process itself is started by
// the node's process keeper (actors/procd_client.h, apps/procd/).
#pragma once

#include <string>
#include <vector>

#include "actors/procd_protocol.h"
#include "model/classad/classad.h"
#include "model/common/result.h"

namespace cara::actors {

struct JobLaunch {
  procd::JobSpec spec;  // the keeper's request, without the account (run_as.h); in/out/err under Iwd
  int kill_sig = 15;    // KillSig: the soft kill
};

// What the job ad asks for (Cmd, Arguments/Args, Environment, Iwd, In,
// Out, Err, KillSig); an ad without Cmd is an error.
Result<JobLaunch> job_launch(const classad::ClassAd& job);

// KillSig names ("SIGTERM", "TERM", "15") to numbers; -1 when unknown.
int signal_number(const std::string& name);

}  // namespace cara::actors
