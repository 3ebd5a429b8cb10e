#include "model/sim/swf_submissions.h"

#include <cmath>

#include "model/classad/unparse.h"

namespace cara::sim {
namespace {

// A time as a ClassAd real literal, exactly (the job ad reads it back).
std::string number(double v) {
  std::string out;
  classad::append_real(out, v);
  return out;
}

}  // namespace

SwfSubmissions swf_submissions(const SwfTrace& trace, const SwfMapping& mapping, const std::string& file) {
  SwfSubmissions out;
  for (const SwfJob& j : trace.jobs) {
    const std::string where = file + ", line " + std::to_string(j.line) + ", job " + std::to_string(j.id);
    if (j.run_time < 0) {
      out.skipped.push_back(where + ": no run time (status " + std::to_string(j.status) + ")");
      continue;
    }
    if (j.user < 0) {
      out.skipped.push_back(where + ": no user id");
      continue;
    }
    const std::int64_t cpus = j.processors();
    std::string text =
        "executable = " + mapping.executable + "\nrequest_cpus = " + std::to_string(cpus) + "\n";
    // SWF memory is kilobytes per processor; request_memory is MiB for the job.
    const double memory_kb = j.requested_memory > 0 ? j.requested_memory : j.used_memory;
    if (memory_kb > 0)
      text +=
          "request_memory = " +
          std::to_string(static_cast<std::int64_t>(std::ceil(memory_kb * static_cast<double>(cpus) / 1024))) +
          "\n";
    const std::string user = mapping.user_prefix + std::to_string(j.user);
    if (mapping.groups && j.group >= 0)
      text += "accounting_group = " + mapping.group_prefix + std::to_string(j.group) +
              "\naccounting_group_user = " + user + "\n";
    text += "+SimulatedRunTime = " + number(j.run_time) + "\n+SwfJobId = " + std::to_string(j.id) + "\n";
    if (j.requested_time > 0) text += "+SimulatedRequestedTime = " + number(j.requested_time) + "\n";
    text += "queue\n";
    TimedSubmission t;
    t.at = j.submit_time;
    t.swf_id = j.id;
    t.run_time = j.run_time;
    t.submission.description = std::move(text);
    t.submission.label = where;
    t.submission.owner = user;
    t.submission.iwd = mapping.iwd;
    out.jobs.push_back(std::move(t));
  }
  return out;
}

}  // namespace cara::sim
