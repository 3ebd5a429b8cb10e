#include "apps/web/api_json.h"

#include <nlohmann/json.hpp>

#include "model/classad/eval.h"

namespace cara::web {
namespace {

using nlohmann::json;

json jobs(const monitor::Jobs& j) {
  return {{"running", j.running}, {"idle", j.idle}, {"held", j.held}};
}

json submitter(const monitor::SubmitterSummary& u) {
  json o = {{"name", u.name}, {"group", u.group}, {"jobs", jobs(u.jobs)}};
  if (u.has_priority) {
    o["real_priority"] = u.priority;
    o["effective_priority"] = u.effective_priority;
    o["priority_factor"] = u.factor;
    o["resources_used"] = u.resources_used;
    o["accumulated_usage"] = u.accumulated_usage;
  }
  return o;
}

json group(const monitor::GroupSummary& g) {
  json o = {{"name", g.name}, {"submitters", g.submitters}, {"jobs", jobs(g.jobs)}};
  if (g.has_quota) {
    o["configured_quota"] = g.config_quota;
    o["quota"] = g.effective_quota;
    o["requested"] = g.requested;
    o["allocated"] = g.allocated;
    o["in_use"] = g.in_use;
  }
  return o;
}

json negotiator(const monitor::NegotiatorSummary& n) {
  return {{"name", n.name},
          {"active", n.active},
          {"term", n.term},
          {"active_since", n.active_since},
          {"cycles", n.cycles},
          {"last_cycle",
           {{"time", n.cycle_time},
            {"duration_seconds", n.duration},
            {"phase_duration_seconds", {n.phase[0], n.phase[1], n.phase[2], n.phase[3]}},
            {"matches", n.matches},
            {"rejections", n.rejections},
            {"match_rate", n.match_rate}}}};
}

json status(const monitor::PoolSummary& s) {
  json slots = json::array();
  for (const auto& b : s.slots)
    slots.push_back({{"state", b.state}, {"activity", b.activity}, {"slots", b.slots}, {"cpus", b.cpus}});
  json daemons = json::array();
  for (const auto& d : s.daemons)
    daemons.push_back({{"machine", d.machine}, {"daemon", d.daemon}, {"up", d.up}});
  json collectors = json::array();
  for (const auto& c : s.collectors)
    collectors.push_back(
        {{"name", c.name}, {"updates_total", c.updates_total}, {"updates_lost", c.updates_lost}});
  json negotiators = json::array();
  for (const auto& n : s.negotiators) negotiators.push_back(negotiator(n));
  json o = {{"time", s.now},
            {"machines", s.machines},
            {"total_slots", s.total_slots},
            {"cpus", s.cpus},
            {"cpus_in_use", s.cpus_in_use},
            {"slots", slots},
            {"jobs", jobs(s.jobs)},
            {"ads", s.ad_counts},
            {"daemons", daemons},
            {"collectors", collectors},
            {"negotiators", negotiators},
            {"ha", nullptr}};
  if (s.ha)
    o["ha"] = {
        {"member", s.ha->member}, {"active", s.ha->active}, {"term", s.ha->term}, {"since", s.ha->since}};
  return o;
}

json value_json(const classad::Value& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_real()) return v.as_real();
  if (v.is_bool()) return v.as_bool();
  if (v.is_string()) return std::string(v.as_string());
  return nullptr;
}

}  // namespace

std::string api_document(ApiPage page, const monitor::PoolSummary& s) {
  json doc;
  switch (page) {
    case ApiPage::Status: doc = status(s); break;
    case ApiPage::Queue: {
      json subs = json::array();
      for (const auto& u : s.submitters)
        subs.push_back({{"name", u.name}, {"group", u.group}, {"jobs", jobs(u.jobs)}});
      doc = {{"time", s.now}, {"jobs", jobs(s.jobs)}, {"submitters", subs}};
      break;
    }
    case ApiPage::Submitters: {
      json subs = json::array();
      for (const auto& u : s.submitters) subs.push_back(submitter(u));
      doc = {{"time", s.now}, {"submitters", subs}};
      break;
    }
    case ApiPage::Groups: {
      json groups = json::array();
      for (const auto& g : s.groups) groups.push_back(group(g));
      doc = {{"time", s.now}, {"groups", groups}};
      break;
    }
    case ApiPage::Cycles: {
      json negotiators = json::array();
      for (const auto& n : s.negotiators) negotiators.push_back(negotiator(n));
      doc = {{"time", s.now}, {"negotiators", negotiators}};
      break;
    }
  }
  return doc.dump(-1, ' ', false, json::error_handler_t::replace);  // a bad byte in a name must not throw
}

std::string history_document(std::int64_t from, std::int64_t to, const std::vector<classad::ClassAd>& rows) {
  json out = json::array();
  for (const classad::ClassAd& row : rows) {
    json o = json::object();
    for (const classad::Attribute& a : row.attributes())
      o[std::string(a.name)] = value_json(classad::evaluate_attr(row, a.name));
    out.push_back(std::move(o));
  }
  return json{{"from", from}, {"to", to}, {"rows", out}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace cara::web
