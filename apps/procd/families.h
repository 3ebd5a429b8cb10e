// The process families cara-procd keeps (HTCondor's condor_procd): each job
// is a family — its process group, plus every process that carries the
// job's family mark in its environment. The keeper is a child subreaper,
// so a process whose parent died while it ran is re-parented to the keeper
// rather than to init; that is how a process that left the job's group
// (setsid, a double fork) is still found. A job's family is killed when
// its main process ends (HTCondor kills what a job leaves behind), and
// every family when the keeper stops.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cara::procd {

struct Family {
  std::int64_t id = 0;
  pid_t pid = 0;  // the job's main process; its process group is pid too
  std::string sandbox;
  std::uint32_t uid = 0, gid = 0;
  bool switch_user = false;
};

class Families {
 public:
  explicit Families(std::string execute_dir) : execute_(std::move(execute_dir)) {}

  // A scratch directory for job `id`, owned by the job's user (mode
  // 0700); the empty string with `error` set when it cannot be made.
  std::string make_sandbox(std::int64_t id, bool switch_user, std::uint32_t uid, std::uint32_t gid,
                           std::string& error);
  // Removes what an earlier keeper left in EXECUTE (its node died).
  void clean_stale_sandboxes();

  void add(Family f) { running_[f.pid] = std::move(f); }
  // The family whose main process is `pid`, if any.
  const Family* by_pid(pid_t pid) const;
  const Family* by_id(std::int64_t id) const;
  bool empty() const { return running_.empty(); }

  // The main process of `pid`'s family has ended: what is left of the
  // family is killed and its sandbox removed. Processes that leave the
  // group are swept again until none is found.
  void ended(pid_t pid);
  // Kills stragglers of ended families (after a child was reaped).
  void sweep();
  // Kills every family and every process re-parented to the keeper.
  void kill_all();

 private:
  void remove_sandbox(const Family& f);
  // The keeper's children that carry `marks` in their environment (all
  // of them when `marks` is empty), excluding running main processes.
  std::vector<pid_t> strays(const std::set<std::string>& marks) const;

  std::string execute_;
  std::map<pid_t, Family> running_;
  std::set<std::string> ended_marks_;  // families that may still have strays
};

}  // namespace cara::procd
