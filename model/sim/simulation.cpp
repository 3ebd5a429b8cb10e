#include "model/sim/simulation.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "model/accounting/accountant.h"

namespace cara::sim {

namespace {

// The text of a submit body as the schedd reads it: blank lines before it
// keep its line numbers the scenario file's.
schedd::Submission body_submission(const config::TextLayer& body, const std::string& owner) {
  schedd::Submission s;
  s.description = std::string(static_cast<std::size_t>(std::max(0, body.first_line - 1)), '\n') + body.text;
  s.label = body.label;
  s.owner = owner;
  s.iwd = "/tmp";
  return s;
}

// Arrival times of a Poisson process with mean gap `every` seconds, from
// its own generator: a process's arrivals do not depend on the others.
std::vector<std::int64_t> arrival_times(const ScenarioArrivals& a, std::uint64_t seed, std::size_t index) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + index + 1);
  std::vector<std::int64_t> out;
  double t = static_cast<double>(a.from);
  for (;;) {
    if (a.count && static_cast<std::int64_t>(out.size()) >= *a.count) break;
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0, 1)
    t += -a.every * std::log1p(-u);
    const auto at = static_cast<std::int64_t>(std::llround(t));
    if (a.until && at > *a.until) break;
    out.push_back(at);
  }
  return out;
}

// Samples are taken in time order: the series never refuses one.
void keep(const Status&) {}

// A time-ordered list: ties keep the scenario's order (stable sort).
void order(std::vector<Simulation::Action>& actions) {
  std::stable_sort(actions.begin(), actions.end(),
                   [](const Simulation::Action& a, const Simulation::Action& b) { return a.at < b.at; });
}

}  // namespace

SwfSubmissions trace_jobs(const ScenarioTrace& section, const SwfTrace& trace, const std::string& path) {
  SwfMapping mapping;
  mapping.groups = section.groups;
  mapping.user_prefix = section.user_prefix;
  mapping.group_prefix = section.group_prefix;
  SwfSubmissions out = swf_submissions(trace, mapping, path);
  for (TimedSubmission& j : out.jobs) j.at += static_cast<double>(section.at);
  return out;
}

Simulation::Simulation(SimulationInput input, std::unique_ptr<VirtualPool> pool)
    : input_(std::move(input)), pool_(std::move(pool)) {
  start_ = input_.scenario.pool.start;
  next_sample_ = start_;
  pool_->set_observer([this](const PoolEvent& e) { observe(e); });
}

Result<std::unique_ptr<Simulation>> Simulation::create(SimulationInput input) {
  const Scenario& sc = input.scenario;
  auto pool = VirtualPool::create(sc.pool);
  if (!pool) return Error{sc.file + ": " + pool.error()};
  std::unique_ptr<Simulation> sim(new Simulation(std::move(input), std::move(*pool)));
  const Scenario& s = sim->input_.scenario;
  auto& actions = sim->actions_;
  for (std::size_t i = 0; i < s.submits.size(); ++i) actions.push_back({Action::Submit, s.submits[i].at, i});
  for (std::size_t i = 0; i < s.removes.size(); ++i) actions.push_back({Action::Remove, s.removes[i].at, i});
  for (std::size_t i = 0; i < s.userprios.size(); ++i)
    actions.push_back({Action::Userprio, s.userprios[i].at, i});
  for (std::size_t i = 0; i < s.reconfigs.size(); ++i)
    actions.push_back({Action::Reconfig, s.reconfigs[i].at, i});
  for (std::size_t i = 0; i < sim->input_.trace_jobs.size(); ++i) {
    const double at = sim->input_.trace_jobs[i].at;
    actions.push_back({Action::Trace, static_cast<std::int64_t>(std::llround(at)), i});
  }
  for (std::size_t p = 0; p < s.arrivals.size(); ++p)
    for (std::int64_t at : arrival_times(s.arrivals[p], s.pool.seed, p))
      actions.push_back({Action::Arrival, at, p});
  order(actions);
  return sim;
}

std::string Simulation::group_of(const std::string& submitter) const {
  return pool_->accountant().group_of(submitter);
}

void Simulation::observe(const PoolEvent& e) {
  const double t = seconds(e.time);
  switch (e.kind) {
    case PoolEventKind::Submitted:
      jobs_[e.job] = JobState{e.submitter, t};
      submitters_.try_emplace(e.submitter);
      ++submitted_;
      break;
    case PoolEventKind::Started: {
      auto it = jobs_.find(e.job);
      if (it == jobs_.end()) break;
      Tally& tally = submitters_[it->second.submitter];
      tally.running += e.cores;
      it->second.phase = JobState::Running;
      it->second.started = t;
      it->second.cores = e.cores;
      break;
    }
    case PoolEventKind::Finished:
    case PoolEventKind::Killed: {
      auto it = jobs_.find(e.job);
      if (it == jobs_.end()) break;
      JobState& j = it->second;
      Tally& tally = submitters_[j.submitter];
      if (j.phase == JobState::Running) tally.running = std::max(0.0, tally.running - j.cores);
      if (e.kind == PoolEventKind::Finished) {
        runs_.push_back(JobRun{e.job.str(), j.submitted, j.started, t, j.cores, e.slot});
        jobs_.erase(it);
        break;
      }
      ++evictions_;
      wasted_ += j.cores * (t - j.started) / 3600.0;
      if (j.removed)
        jobs_.erase(it);
      else
        j.phase = JobState::Idle;  // it runs again, or waits held
      break;
    }
    case PoolEventKind::Removed: {
      ++removed_;
      auto it = jobs_.find(e.job);
      if (it == jobs_.end()) break;
      if (it->second.phase == JobState::Running)
        it->second.removed = true;  // its kill follows
      else
        jobs_.erase(it);
      break;
    }
    case PoolEventKind::Matched:
    case PoolEventKind::Claimed:
    case PoolEventKind::Cycle: break;
  }
}

void Simulation::sample() {
  const std::int64_t now = pool_->now();
  const double t = seconds(now);
  const double cores = std::max(1.0, pool_->total_cores());
  const accounting::Accountant& acc = pool_->accountant();
  std::map<std::string, Tally> groups;
  std::set<std::string> shown;
  std::vector<double> active;  // running cores of the submitters with jobs, for Jain's index
  for (auto& [name, tally] : submitters_) {
    // Idle as the queue counts it (a held job is not idle); running cores
    // as the runs began and ended.
    tally.idle = static_cast<std::int64_t>(pool_->queue().idle_count(name));
    const bool has_jobs = tally.running > 0 || tally.idle > 0;
    const std::string group = group_of(name);
    Tally& g = groups[group];
    g.running += tally.running;
    g.idle += tally.idle;
    // A submitter is shown while it has jobs or its priority still decays
    // (the removal figure), and once more after, its lines dropping to
    // where they rest.
    const double rup = acc.priority_at(name, now);
    const bool decaying = rup > accounting::kMinPriority + 0.01;
    if (!has_jobs && !decaying && !shown_.count(name)) continue;
    if (has_jobs || decaying) shown.insert(name);
    if (has_jobs) active.push_back(tally.running);
    keep(series_.record(SeriesSample{t, SeriesKind::Submitter, name, tally.running,
                                     static_cast<double>(tally.idle), rup, rup * acc.factor(name), 0,
                                     tally.running / cores}));
  }
  const auto& outcome = pool_->last_cycle().groups;
  const bool in_window =
      t >= static_cast<double>(input_.scenario.window_start) &&
      (!input_.scenario.window_end || t <= static_cast<double>(*input_.scenario.window_end));
  for (const auto& [name, tally] : groups) {
    const bool has_jobs = tally.running > 0 || tally.idle > 0;
    const std::string key = "group " + name;
    if (!has_jobs && !shown_.count(key)) continue;
    if (has_jobs) shown.insert(key);
    double quota = 0;
    for (const negotiation::GroupOutcome& o : outcome)
      if (o.name == name) quota = o.effective_quota;
    const double share = tally.running / cores;
    keep(series_.record(SeriesSample{t, SeriesKind::Group, name, tally.running,
                                     static_cast<double>(tally.idle), 0, 0, quota, share}));
    if (in_window && has_jobs && quota > 0) {
      GroupShare& g = group_shares_[name];
      g.name = name;
      g.target = quota / cores;
      g.mean_share += share;
      g.share_error += std::abs(share - g.target);
      ++g.samples;
    }
  }
  if (in_window && !active.empty()) {
    jain_sum_ += jain_index(active);
    ++jain_samples_;
  }
  shown_ = std::move(shown);
}

void Simulation::advance_to(std::int64_t t, const std::function<void(const SimProgress&)>& progress) {
  const std::int64_t every = std::max<std::int64_t>(1, input_.scenario.sample);
  while (next_sample_ <= t) {
    pool_->run_until(next_sample_);
    sample();
    next_sample_ += every;
    if (progress) progress(SimProgress{pool_->now() - start_, pool_->counters().events});
  }
  pool_->run_until(t);
}

Status Simulation::apply(const Action& a) {
  const Scenario& s = input_.scenario;
  auto submitted = [&](const schedd::SubmitOutcome& out) -> Status {
    if (out) return Ok{};
    return Error{out.error};
  };
  switch (a.kind) {
    case Action::Submit: {
      const ScenarioSubmit& sub = s.submits[a.index];
      return submitted(pool_->submit(body_submission(sub.description, sub.owner)));
    }
    case Action::Arrival: {
      const ScenarioArrivals& arr = s.arrivals[a.index];
      return submitted(pool_->submit(body_submission(arr.description, arr.owner)));
    }
    case Action::Trace: {
      const TimedSubmission& job = input_.trace_jobs[a.index];
      schedd::SubmitOutcome out = pool_->submit(job.submission);
      if (!out) return Error{"SWF job " + std::to_string(job.swf_id) + ": " + out.error};
      return Ok{};
    }
    case Action::Remove: {
      const ScenarioRemove& r = s.removes[a.index];
      auto n = pool_->remove(r.constraint,
                             "removed by the scenario (" + s.file + ", line " + std::to_string(r.line) + ")");
      if (!n) return Error{s.file + ", line " + std::to_string(r.line) + ": " + n.error()};
      return Ok{};
    }
    case Action::Reconfig: {
      const ScenarioReconfig& r = s.reconfigs[a.index];
      if (Status st = pool_->reconfigure(r.node, {r.body}, r.prefix); !st)
        return Error{s.file + ", line " + std::to_string(r.line) + ": [reconfig]: " + st.error()};
      return Ok{};
    }
    case Action::Userprio: {
      const ScenarioUserprio& u = s.userprios[a.index];
      if (Status st = pool_->edit_priority(u.edit); !st)
        return Error{s.file + ", line " + std::to_string(u.line) + ": " + st.error()};
      return Ok{};
    }
  }
  return Ok{};
}

Status Simulation::run(const std::function<void(const SimProgress&)>& progress) {
  const Scenario& s = input_.scenario;
  // What the scenario does at a time comes before the pool's own events
  // of that time: submissions at one moment are all queued before a cycle
  // that moment runs.
  std::optional<std::int64_t> last;
  for (const Action& a : actions_) {
    if (s.end && a.at > *s.end) break;
    if (!last || a.at != *last) {
      advance_to(start_ + a.at - 1, progress);
      pool_->run_before(start_ + a.at);
    }
    last = a.at;
    if (Status st = apply(a); !st) return st;
  }
  if (s.end) {
    advance_to(start_ + *s.end, progress);
  } else {
    // Until the queue is empty, or nothing more can happen. A job that never
    // ends (no SimulatedRunTime) needs an `end`: the run stops ten years on.
    const std::int64_t cap = pool_->now() + 10 * 365 * 86400;
    while (pool_->queue().size() > 0) {
      auto next = pool_->next_event();
      if (!next || *next > cap) break;
      advance_to(*next, progress);
    }
  }
  end_ = pool_->now();
  if (next_sample_ - input_.scenario.sample < end_) sample();  // the state at the end
  if (progress) progress(SimProgress{end_ - start_, pool_->counters().events, true});
  return Ok{};
}

SimSummary Simulation::summary() const {
  SimSummary out;
  out.cores = pool_->total_cores();
  out.runs = summarize(runs_, out.cores);
  out.jain = jain_samples_ > 0 ? jain_sum_ / static_cast<double>(jain_samples_) : 1;
  for (const auto& [name, g] : group_shares_) {
    GroupShare r = g;
    if (r.samples > 0) {
      r.mean_share /= static_cast<double>(r.samples);
      r.share_error /= static_cast<double>(r.samples);
    }
    out.groups.push_back(r);
  }
  const PoolCounters& c = pool_->counters();
  out.preemptions = c.preemptions;
  out.evictions = evictions_;
  out.wasted_core_hours = wasted_;
  out.submitted = submitted_;
  out.completed = static_cast<std::int64_t>(runs_.size());
  out.removed = removed_;
  out.left_in_queue = static_cast<std::int64_t>(pool_->queue().size());
  out.cycles = c.cycles;
  out.cycles_skipped = c.cycles_skipped;
  out.events = c.events;
  out.simulated = end_ - start_;
  return out;
}

}  // namespace cara::sim
