#include "library/translation.h"

#include "model/classad/parser.h"
#include "model/classad/unparse.h"
#include "model/schedd/job_status.h"

namespace caracara {

const char* to_string(EventKind kind) {
  switch (kind) {
    case EventKind::Submitted: return "submitted";
    case EventKind::Matched: return "matched";
    case EventKind::Claimed: return "claimed";
    case EventKind::Started: return "started";
    case EventKind::Finished: return "finished";
    case EventKind::Killed: return "killed";
    case EventKind::Removed: return "removed";
    case EventKind::Cycle: return "cycle";
    case EventKind::PriorityChanged: return "priority changed";
    case EventKind::QuotaChanged: return "quota changed";
  }
  return "?";
}

namespace detail {
namespace {

EventKind kind_of(cara::node::PoolEventKind k) {
  using K = cara::node::PoolEventKind;
  switch (k) {
    case K::Submitted: return EventKind::Submitted;
    case K::Matched: return EventKind::Matched;
    case K::Claimed: return EventKind::Claimed;
    case K::Started: return EventKind::Started;
    case K::Finished: return EventKind::Finished;
    case K::Killed: return EventKind::Killed;
    case K::Removed: return EventKind::Removed;
    case K::Cycle: return EventKind::Cycle;
  }
  return EventKind::Cycle;
}

// Whether `value` differs from what `last` holds for `name`; remembers it.
bool moved(std::map<std::string, double>& last, const std::string& name, double value) {
  auto [it, fresh] = last.try_emplace(name, value);
  if (!fresh && it->second == value) return false;
  it->second = value;
  return true;
}

}  // namespace

cara::config::TextLayer layer(const ConfigText& c) {
  return cara::config::TextLayer{c.text, c.file, c.first_line};
}

std::vector<cara::config::TextLayer> layers(const ConfigText& c) {
  if (c.text.empty()) return {};
  return {layer(c)};
}

cara::Result<std::string> description_of_ad(const std::string& text, std::int64_t count) {
  if (count < 1)
    return cara::Error{"a job ad is submitted at least once, got a count of " + std::to_string(count)};
  auto ad = cara::classad::parse_classad(text);
  if (!ad) return cara::Error{"the job ad does not parse: " + ad.error()};
  static const char* const kSchedds[] = {"Owner",  "User",      "ClusterId",   "ProcId",
                                         "QDate",  "JobStatus", "GlobalJobId", "EnteredCurrentStatus",
                                         "MyType", "TargetType"};
  std::string description;
  bool executable = false;
  for (const cara::classad::Attribute& a : ad->attributes()) {
    const std::string name(a.name);
    for (const char* s : kSchedds)
      if (cara::classad::iequals(name, s))
        return cara::Error{"the job ad sets " + name + ", which the schedd sets itself"};
    const std::string value = cara::classad::unparse(*a.expr);
    if (cara::classad::iequals(name, "Cmd")) {
      const cara::classad::Value v = a.is_literal() ? a.literal() : cara::classad::Value{};
      if (!v.is_string()) return cara::Error{"the job ad's Cmd must be a string (the program), got " + value};
      description += "executable = " + std::string(v.as_string()) + "\n";
      executable = true;
      continue;
    }
    description += "+" + name + " = " + value + "\n";
  }
  if (!executable) return cara::Error{"the job ad has no Cmd (the program to run)"};
  return description + "queue " + std::to_string(count) + "\n";
}

std::vector<std::string> job_ids(std::int64_t cluster, std::int64_t count) {
  std::vector<std::string> ids;
  for (std::int64_t i = 0; i < count; ++i) ids.push_back(cara::schedd::JobId{cluster, i}.str());
  return ids;
}

void count_job(JobCounts& c, const cara::classad::ClassAd& job) {
  switch (cara::schedd::job_status(job).value_or(cara::schedd::JobStatus::Idle)) {
    case cara::schedd::JobStatus::Idle: ++c.idle; break;
    case cara::schedd::JobStatus::Running:
    case cara::schedd::JobStatus::Suspended: ++c.running; break;
    case cara::schedd::JobStatus::Held: ++c.held; break;
    default: break;
  }
}

Event public_event(const cara::node::PoolEvent& e) {
  return Event{kind_of(e.kind), e.time,  e.job.cluster > 0 ? e.job.str() : std::string(), e.submitter, e.slot,
               e.cores,         e.detail};
}

std::vector<Event> CycleChanges::after_cycle(std::int64_t time,
                                             const std::vector<SubmitterPriority>& priorities,
                                             const std::vector<GroupQuota>& quotas) {
  std::vector<Event> out;
  for (const SubmitterPriority& p : priorities)
    if (moved(eup_, p.name, p.effective_priority))
      out.push_back(Event{EventKind::PriorityChanged, time, {}, p.name, {}, p.effective_priority, {}});
  for (const GroupQuota& g : quotas)
    if (moved(quota_, g.name, g.effective_quota))
      out.push_back(Event{EventKind::QuotaChanged, time, {}, g.name, {}, g.effective_quota, {}});
  return out;
}

}  // namespace detail
}  // namespace caracara
