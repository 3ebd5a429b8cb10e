// The schedd's durability (DESIGN.md "State and durability"): every change
// of the queue is stored with a synced write before anything that follows
// from it leaves the schedd (a reply to the submitter, a claim action, a
// user log event, the queue in an answer or an ad). Changes made while a
// commit is scheduled share it (CommitQueue: group commit).
#include <unistd.h>

#include <algorithm>
#include <caf/actor_system.hpp>
#include <optional>

#include "actors/schedd_state.h"
#include "actors/user_files.h"
#include "model/schedd/job_order.h"

namespace cara::actors {
namespace {

// A job event as the pool's observers hear it (DaemonContext::observer):
// the job's submitter and, once it ran, its slot (RemoteHost, or
// LastRemoteHost once it left).
std::optional<node::PoolEvent> pool_event(const schedd::UserLogEvent& e, const classad::ClassAd* job) {
  using K = node::PoolEventKind;
  std::optional<K> kind;
  switch (e.code) {
    case schedd::UserLogCode::Submit: kind = K::Submitted; break;
    case schedd::UserLogCode::Execute: kind = K::Started; break;
    case schedd::UserLogCode::Terminated: kind = K::Finished; break;
    case schedd::UserLogCode::Evicted: kind = K::Killed; break;
    case schedd::UserLogCode::Aborted: kind = K::Removed; break;
    default: break;
  }
  if (!kind || !job) return std::nullopt;
  node::PoolEvent out{*kind, e.time, e.job, schedd::submitter_name(*job), {}, 0, {}};
  if (*kind == K::Started || *kind == K::Finished || *kind == K::Killed) {
    out.slot = schedd::string_attr(*job, "RemoteHost");
    if (out.slot.empty()) out.slot = schedd::string_attr(*job, "LastRemoteHost");
    out.cores = static_cast<double>(std::max<std::int64_t>(1, schedd::int_attr(*job, "RequestCpus")));
  }
  if (*kind == K::Killed || *kind == K::Removed) out.detail = e.headline;
  return out;
}

// The user log events of the last changes, appended to each job's log
// with its owner's rights (a log the owner may not write is not written),
// and told to the pool's observers. `finished`: the jobs that left the
// queue with these changes.
void write_events(ScheddSelf self, const ScheddSetup& setup, const std::vector<classad::ClassAd>& finished) {
  for (const schedd::LoggedEvent& e : self->state.queue->take_events()) {
    if (setup.context.observed()) {
      const classad::ClassAd* job = self->state.queue->find(e.event.job);
      for (const classad::ClassAd& f : finished)
        if (!job && schedd::job_id(f) == e.event.job) job = &f;
      if (auto event = pool_event(e.event, job)) setup.context.report(*event);
    }
    if (e.log.empty()) continue;
    const Account* owner = owner_account(self, e.owner);
    if (!owner && ::geteuid() == 0) {
      // Root may not write for a user it cannot become.
      setup.context.warning("user log of " + e.owner + " not written: no such user here");
      continue;
    }
    if (auto s = append_as(e.log, schedd::format_user_log_event(e.event), owner); !s)
      setup.context.warning("user log of " + e.owner + ": " + s.error());
  }
}

// Stores the changes made since the last save, then writes their events;
// false when the store failed (the schedd is stopping).
bool save(ScheddSelf self) {
  auto& st = self->state;
  const ScheddSetup& setup = *st.setup;
  std::vector<schedd::JobId> touched = st.queue->take_touched();
  std::vector<classad::ClassAd> finished = st.queue->take_finished();
  if (st.store && (!touched.empty() || !finished.empty())) {
    if (Status s = st.store->commit(*st.queue, touched, finished); !s) {
      // Nothing of this change may be acknowledged or acted on: the
      // schedd stops, and its master restarts it from what is stored.
      setup.context.warning("stopping: the queue cannot be stored: " + s.error());
      self->quit(caf::make_error(caf::sec::runtime_error, "the job queue cannot be stored: " + s.error()));
      return false;
    }
  }
  write_events(self, setup, finished);
  for (const classad::ClassAd& job : finished)
    if (schedd::job_status(job) == schedd::JobStatus::Completed) ++st.completed;
  st.dirty = true;
  st.reschedule = true;
  return true;
}

}  // namespace

void start_commits(ScheddSelf self) {
  self->state.commits.emplace([self] { return save(self); });
}

void changed(ScheddSelf self) {
  auto& st = self->state;
  st.commits->changed();
  if (!st.store) {
    commit(self);
    return;
  }
  if (!st.commit_scheduled) {
    st.commit_scheduled = true;
    // After the messages already waiting (their changes share the
    // commit), and not sooner than commit_gap after the last one.
    const auto now = self->clock().now();
    if (st.last_commit && *st.last_commit + st.setup->commit_gap > now)
      self->delayed_send(self, *st.last_commit + st.setup->commit_gap - now, Timer{kCommitTimer});
    else
      self->send(self, Timer{kCommitTimer});
  }
}

void after_commit(ScheddSelf self, std::function<void()> then) {
  self->state.commits->after(std::move(then));
}

bool commit(ScheddSelf self) {
  auto& st = self->state;
  const std::size_t saves = st.commits->saves();
  const bool ok = st.commits->commit();
  if (st.store && st.commits->saves() != saves) st.last_commit = self->clock().now();
  return ok;
}

}  // namespace cara::actors
