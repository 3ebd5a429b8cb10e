// The schedd's queue as the pool sees it: submissions, queries, the
// negotiator's resource requests, and the Scheduler and Submitter ads.
#include <deque>
#include <random>

#include "actors/schedd_state.h"
#include "actors/system_accounts.h"
#include "model/classad/eval.h"
#include "model/classad/selection.h"
#include "model/collector/ad_store.h"
#include "model/common/environment.h"
#include "model/schedd/autocluster.h"
#include "model/schedd/job_actions.h"
#include "model/schedd/schedd_ads.h"
#include "model/schedd/submission.h"

namespace cara::actors {

using schedd::JobId;

namespace {

bool is_idle(const classad::ClassAd& job) {
  return schedd::job_status(job) == schedd::JobStatus::Idle;
}

}  // namespace

// A negotiator's NEGOTIATOR_JOB_CONSTRAINT, parsed once per text (a pool
// has a few negotiators). One that does not parse offers that negotiator
// nothing: better no match than matches outside its shard.
std::optional<const classad::ExprTree*> job_constraint(ScheddSelf self, const std::string& text,
                                                       const ScheddSetup& setup) {
  if (text.empty()) return nullptr;
  auto& known = self->state.job_constraints;
  if (auto it = known.find(text); it != known.end()) return it->second.get();
  auto parsed = classad::Selection::parse(text, {});
  if (!parsed) {
    setup.context.warning("a negotiator's NEGOTIATOR_JOB_CONSTRAINT is refused: " + parsed.error());
    return std::nullopt;
  }
  if (known.size() >= 16) known.clear();
  return known.emplace(text, std::move(parsed->constraint)).first->second.get();
}

RequestsReply requests_for(ScheddSelf self, const RequestsQuery& q, const ScheddSetup& setup) {
  auto& st = self->state;
  RequestsReply reply;
  reply.submitter = q.submitter;
  const auto constraint = job_constraint(self, q.job_constraint, setup);
  if (!constraint) return reply;
  const auto requests = st.queue->resource_requests(
      q.submitter, schedd::SignificantAttributes::from_list(q.significant),
      [&](JobId id) { return st.claims->busy(id); }, *constraint, setup.clock.now(self));
  reply.requests.reserve(requests.size());
  for (const schedd::ResourceRequest& r : requests) {
    reply.requests.push_back(WireRequest{WireAd{*r.job}, r.count, r.jobs});
  }
  return reply;
}

// The Submitter ads and the Scheduler ad (model/schedd/schedd_ads.h), the
// schedd speaking for both: the negotiator asks it for each submitter's
// requests.
void advertise(ScheddSelf self) {
  auto& st = self->state;
  schedd::ScheddAds ads = schedd::schedd_ads(*st.queue, st.submitters, st.completed);
  AdUpdate submitters{static_cast<std::int32_t>(collector::AdType::Submitter), {}, {}};
  for (auto& [name, ad] : ads.submitters) {
    st.submitters.insert(name);
    submitters.ads.push_back(WireAd{std::move(ad)});
    submitters.endpoints.push_back(as_endpoint<collector::AdType::Submitter>(self));
  }
  AdUpdate own{static_cast<std::int32_t>(collector::AdType::Scheduler),
               {WireAd{std::move(ads.scheduler)}},
               {as_endpoint<collector::AdType::Scheduler>(self)}};
  for (const collector_actor& c : st.collectors) {
    if (!submitters.ads.empty()) self->send(c, submitters);
    self->send(c, own);
  }
  st.dirty = false;
}

bool has_idle(ScheddSelf self) {
  for (const auto& [id, job] : self->state.queue->jobs())
    if (is_idle(job) && !self->state.claims->busy(id)) return true;
  return false;
}

SubmitReply submit(ScheddSelf self, const ScheddSetup& setup, const SubmitRequest& r) {
  auto& st = self->state;
  SubmitReply reply;
  const schedd::Submission submission{
      r.description, r.label, r.appends, r.queue, r.owner, r.iwd, parse_environment(r.environment)};
  // Every submission its own random numbers ($RANDOM_INTEGER), as
  // condor_submit's are.
  const schedd::SubmitSite site{st.uid_domain, st.config.get(), setup.files.get(), st.submit_seeds()};
  schedd::BuildProgress progress;
  if (r.progress && net::from_this_node(self))
    progress = [self, to = r.progress](std::int64_t built, std::int64_t total) {
      self->send(to, SubmitProgress{built, total});
    };
  auto result = schedd::submit_description(*st.queue, submission, site, setup.clock.now(self), progress);
  if (!result) {
    reply.error = result.error;
    reply.at_commit = result.at_commit;
    return reply;
  }
  changed(self);
  reply.ok = true;
  reply.cluster = result.submitted->cluster;
  reply.count = static_cast<std::int64_t>(result.submitted->count);
  reply.warning = result.submitted->warning.value_or("");
  return reply;
}

QueueReply history(ScheddSelf self, const HistoryQuery& q, std::int64_t now) {
  QueueReply reply;
  auto selection = classad::Selection::parse(q.constraint, q.projection);
  if (!selection) return QueueReply{false, selection.error(), {}, {}};
  if (q.limit < 0) return QueueReply{false, "a history limit must not be negative", {}, {}};
  auto& st = self->state;
  if (!st.store) return QueueReply{false, "this schedd keeps no history: its queue is not stored", {}, {}};
  // Oldest first on disk: the newest `limit` matches are kept on the way.
  std::deque<classad::ClassAd> found;
  Status read = st.store->history([&](const classad::ClassAd& job) -> Status {
    if (!selection->selects(job, now)) return Ok{};
    found.push_back(selection->project(job));
    if (q.limit > 0 && static_cast<std::int64_t>(found.size()) > q.limit) found.pop_front();
    return Ok{};
  });
  if (!read) return QueueReply{false, read.error(), {}, {}};
  for (auto it = found.rbegin(); it != found.rend(); ++it) reply.jobs.push_back(WireAd{std::move(*it)});
  return reply;
}

JobActionReply act_on_jobs(ScheddSelf self, const JobActionRequest& r, std::int64_t now) {
  auto& st = self->state;
  auto action = schedd::parse_job_action(r.action);
  if (!action) return JobActionReply{false, action.error(), {}, {}};
  const schedd::JobActionRequest request{
      *action,    r.constraint, r.reason, r.user, schedd::is_queue_super_user(st.super_users, r.user),
      r.mine_only};
  auto report = schedd::act_on_jobs(*st.queue, request, now);
  if (!report) return JobActionReply{false, report.error(), {}, {}};
  JobActionReply reply;
  for (const JobId& id : report->done) reply.done.push_back(id.str());
  for (const auto& [id, why] : report->refused) reply.refused.push_back(id.str() + ": " + why);
  if (!report->done.empty()) {
    changed(self);
    carry_out(self, st.claims->stop_unwanted());
  }
  return reply;
}

QueueReply query(ScheddSelf self, const QueueQuery& q, std::int64_t now) {
  QueueReply reply;
  auto selection = classad::Selection::parse(q.constraint, q.projection);
  if (!selection) {
    reply.ok = false;
    reply.error = selection.error();
    return reply;
  }
  for (const auto& [id, job] : self->state.queue->jobs()) {
    // A claim's secret is neither shown nor read by a constraint.
    if (schedd::has_private_attributes(job)) {
      const classad::ClassAd shown = schedd::public_view(job);
      if (selection->selects(shown, now)) reply.jobs.push_back(WireAd{selection->project(shown)});
      continue;
    }
    if (selection->selects(job, now)) reply.jobs.push_back(WireAd{selection->project(job)});
  }
  if (q.totals) reply.totals = schedd::queue_totals(*self->state.queue, q.owner);
  return reply;
}

}  // namespace cara::actors
