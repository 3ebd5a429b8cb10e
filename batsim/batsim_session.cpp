#include "batsim/batsim_session.h"

#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

namespace cara::batsim {

using json = nlohmann::json;

namespace {

// An event of the decisions message, at the message's time (the
// protocol: no event after `now`, in ascending order).
json decision(double now, const char* type, json body) {
  return json{{"timestamp", now}, {"event_type", type}, {"event", std::move(body)}};
}

std::string text_field(const json& o, const char* name, const std::string& fallback = "") {
  auto it = o.find(name);
  return it != o.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// The owner of a submitted job: its extra_data's "user" (a JSON object, or
// a string holding one), else its workload (the part of its id before '!').
json extra_data(const json& job) {
  auto it = job.find("extra_data");
  if (it == job.end()) return json::object();
  if (it->is_object()) return *it;
  if (it->is_string()) {
    json parsed = json::parse(it->get<std::string>(), nullptr, false);
    if (parsed.is_object()) return parsed;
  }
  return json::object();
}

// A user name a submit description takes: letters, digits, '_', '-', '.'.
std::string user_name(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
  return s.empty() ? std::string("batsim") : s;
}

std::int64_t pool_time(double t) {
  return static_cast<std::int64_t>(std::floor(t));
}

}  // namespace

Result<SessionConfig> parse_session_config(std::string_view init) {
  SessionConfig c;
  if (init.find_first_not_of(" \t\r\n") == std::string_view::npos) return c;
  json j = json::parse(init, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error{"the initialization string is not a JSON object (expected {\"common\": \"...\", ...})"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    std::string* field = key == "common"            ? &c.common
                         : key == "central_manager" ? &c.central_manager
                         : key == "access_point"    ? &c.access_point
                         : key == "machine"         ? &c.machine
                         : key == "submit"          ? &c.submit
                                                    : nullptr;
    if (field) {
      if (!it->is_string()) return Error{"initialization string: \"" + key + "\" must be a string of text"};
      *field = it->get<std::string>();
      if (!field->empty() && field->back() != '\n') *field += '\n';
    } else if (key == "seed") {
      if (!it->is_number_unsigned()) return Error{"initialization string: \"seed\" must be a whole number"};
      c.seed = it->get<std::uint64_t>();
    } else {
      return Error{"initialization string: unknown key \"" + key +
                   "\" (expected common, central_manager, access_point, machine, submit, seed)"};
    }
  }
  return c;
}

Status Session::begin(const json& event) {
  if (pool_) return Error{"SimulationBeginsEvent: the simulation has begun already"};
  auto hosts = event.find("computation_hosts");
  if (hosts == event.end() || !hosts->is_array() || hosts->empty())
    return Error{"SimulationBeginsEvent: expected a non-empty list computation_hosts"};
  caracara::PoolSpec spec;
  spec.common = {config_.common, "the EDC's common configuration", 1};
  spec.central_manager = {config_.central_manager, "the EDC's central manager configuration", 1};
  spec.access_point = {config_.access_point, "the EDC's access point configuration", 1};
  spec.start = 0;  // Batsim's clock
  spec.seed = config_.seed;
  for (const json& h : *hosts) {
    if (!h.is_object() || !h.contains("id"))
      return Error{"SimulationBeginsEvent: a computation host without an id"};
    const std::string id = h["id"].is_string() ? h["id"].get<std::string>() : h["id"].dump();
    const std::string name = user_name(text_field(h, "name", "host" + id));
    if (!host_ids_.emplace(name, id).second)
      return Error{"SimulationBeginsEvent: two hosts are named " + name};
    spec.machines.push_back({name, {config_.machine, "the EDC's machine configuration", 1}});
  }
  try {
    pool_ = std::make_unique<caracara::VirtualPool>(spec);
  } catch (const caracara::Error& e) {
    return Error{std::string("the pool does not start: ") + e.what()};
  }
  pool_->on_event([this](const caracara::Event& e) {
    if (e.kind == caracara::EventKind::Started || e.kind == caracara::EventKind::Killed) events_.push_back(e);
  });
  return Ok{};
}

Status Session::submitted(const json& event, double now, json& out) {
  const std::string id = text_field(event, "job_id");
  if (id.empty()) return Error{"JobSubmittedEvent: expected a job_id"};
  if (!pool_) return Error{"JobSubmittedEvent for " + id + " before SimulationBeginsEvent"};
  const json job = event.value("job", json::object());
  const json hosts = job.value("resource_request", json(1));
  auto reject = [&] { out.push_back(decision(now, "RejectJobEvent", {{"job_id", id}})); };
  // A vanilla job runs on one slot: a job asking for several hosts cannot.
  if (!hosts.is_number_integer() || hosts.get<std::int64_t>() != 1) {
    reject();
    return Ok{};
  }
  const json extra = extra_data(job);
  const std::string owner = user_name(text_field(extra, "user", id.substr(0, id.find('!'))));
  std::string description = "executable = /bin/true\n";
  if (const std::string group = text_field(extra, "group"); !group.empty())
    description += "accounting_group = " + user_name(group) + "\n";
  if (job.contains("walltime") && job["walltime"].is_number() && job["walltime"].get<double>() > 0)
    description += "+BatsimWalltime = " + std::to_string(job["walltime"].get<double>()) + "\n";
  description += "+BatsimJobId = \"" + id + "\"\n" + config_.submit + "queue\n";
  try {
    const auto ids = pool_->submit(owner, description);
    job_of_batsim_[id] = ids.at(0);
    batsim_of_job_[ids.at(0)] = id;
  } catch (const caracara::Error&) {
    // The schedd refused it (SUBMIT_REQUIREMENTS, a bad "submit" line):
    // Batsim hears the job is rejected.
    reject();
  }
  return Ok{};
}

void Session::advance(double t) {
  if (pool_ && pool_time(t) > pool_->now()) pool_->run_until(pool_time(t));
}

std::string Session::host_of(const std::string& slot) const {
  const std::string host = slot.substr(slot.find('@') + 1);
  auto it = host_ids_.find(host);
  return it == host_ids_.end() ? std::string() : it->second;
}

Result<std::string> Session::take_decisions(std::string_view message) {
  json in = json::parse(message, nullptr, false);
  if (in.is_discarded() || !in.is_object())
    return Error{"the message from Batsim is not a JSON object (is Batsim using the JSON format?)"};
  if (!in.contains("now") || !in["now"].is_number())
    return Error{"the message from Batsim has no number \"now\""};
  const double now = in["now"].get<double>();
  json out = json::array();
  const json events = in.value("events", json::array());
  if (!events.is_array()) return Error{"the message from Batsim: \"events\" is not a list"};
  for (std::size_t i = 0; i < events.size(); ++i) {
    const json& e = events[i];
    const std::string type = text_field(e, "event_type");
    const json body = e.value("event", json::object());
    const std::string where =
        "event " + std::to_string(i) + " (" + (type.empty() ? "no event_type" : type) + ")";
    if (!e.is_object() || type.empty()) return Error{where + ": expected an object with an event_type"};
    if (e.contains("timestamp") && e["timestamp"].is_number()) advance(e["timestamp"].get<double>());
    if (type == "BatsimHelloEvent") {
      out.push_back(decision(now, "EDCHelloEvent",
                             {{"batprotocol_version", text_field(body, "batprotocol_version", "1.0.0")},
                              {"decision_component_name", "caracara"},
                              {"decision_component_version", "0.1.0"},
                              {"decision_component_commit", ""},
                              {"requested_simulation_features", json::object()}}));
    } else if (type == "SimulationBeginsEvent") {
      if (Status s = begin(body); !s) return Error{s.error()};
    } else if (type == "JobSubmittedEvent") {
      if (Status s = submitted(body, now, out); !s) return Error{s.error()};
    } else if (type == "JobCompletedEvent") {
      // Batsim ran the job to its end (or its walltime): so does the pool.
      const std::string id = text_field(body, "job_id");
      auto it = job_of_batsim_.find(id);
      if (it == job_of_batsim_.end()) return Error{where + ": job " + id + " is not one caracara started"};
      const std::string job = it->second;
      job_of_batsim_.erase(it);
      batsim_of_job_.erase(job);  // its end is Batsim's news, not the pool's
      const std::string state = text_field(body, "state");
      try {
        pool_->end_job(job, state == "COMPLETED_KILLED" || state == "COMPLETED_WALLTIME_REACHED");
      } catch (const caracara::Error& err) {
        return Error{where + ": " + err.what()};
      }
    } else if (type == "JobsKilledEvent") {
      // Jobs this session asked Batsim to kill: the pool killed them first.
    } else if (type == "SimulationEndsEvent") {
      ended_ = true;
    }
    // RequestedCallEvent and the rest: the pool runs up to their time.
  }
  advance(now);
  // What the pool did meanwhile: each job it started runs on its slot's
  // host; a job it killed is killed in Batsim and leaves the queue.
  std::vector<std::string> killed;
  for (const caracara::Event& e : events_) {
    auto b = batsim_of_job_.find(e.job);
    if (b == batsim_of_job_.end()) continue;
    if (e.kind == caracara::EventKind::Started) {
      const std::string host = host_of(e.slot);
      if (host.empty())
        return Error{"job " + b->second + " started on " + e.slot + ", not one of Batsim's hosts"};
      out.push_back(decision(now, "ExecuteJobEvent",
                             {{"job_id", b->second},
                              {"allocation",
                               {{"host_allocation", host},
                                {"executor_placement_type", "PredefinedExecutorPlacementStrategyWrapper"},
                                {"executor_placement", {{"strategy", "SpreadOverHostsFirst"}}}}}}));
    } else if (e.kind == caracara::EventKind::Killed) {
      killed.push_back(b->second);
    }
  }
  events_.clear();
  if (!killed.empty()) {
    out.push_back(decision(now, "KillJobsEvent", {{"job_ids", killed}}));
    for (const std::string& id : killed) {
      const std::string job = job_of_batsim_[id];
      job_of_batsim_.erase(id);
      batsim_of_job_.erase(job);
      const auto dot = job.find('.');
      pool_->remove("ClusterId == " + job.substr(0, dot) + " && ProcId == " + job.substr(dot + 1));
    }
    events_.clear();
  }
  // While jobs wait, Batsim calls again at the pool's next event (the next
  // negotiation cycle, a policy deadline): otherwise nothing would happen
  // until Batsim's own next event.
  if (pool_ && !ended_ && pool_->jobs().idle > 0) {
    if (auto next = pool_->next_event()) {
      const std::int64_t at = std::max<std::int64_t>(*next, pool_time(now) + 1);
      if (!call_at_ || *call_at_ <= pool_time(now) || at < *call_at_) {
        call_at_ = at;
        out.push_back(decision(now, "CallMeLaterEvent",
                               {{"call_me_later_id", "caracara-" + std::to_string(++calls_)},
                                {"when_type", "OneShot"},
                                {"when", {{"time", at}, {"time_unit", "Second"}}}}));
      }
    }
  }
  return json{{"now", now}, {"events", std::move(out)}}.dump();
}

}  // namespace cara::batsim
