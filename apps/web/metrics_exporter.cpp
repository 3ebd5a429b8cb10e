#include "apps/web/metrics_exporter.h"

#include "apps/web/prometheus_text.h"

namespace cara::web {
namespace {

void slots(PrometheusText& p, const monitor::PoolSummary& s) {
  p.family("caracara_slots", "gauge", "Slots in the collector by State and Activity.");
  for (const monitor::SlotStates& b : s.slots)
    p.sample({{"state", b.state}, {"activity", b.activity}}, static_cast<double>(b.slots));
  p.family("caracara_slot_cpus", "gauge", "Cpus of the slots in each State and Activity.");
  for (const monitor::SlotStates& b : s.slots)
    p.sample({{"state", b.state}, {"activity", b.activity}}, b.cpus);
  p.family("caracara_machines", "gauge", "Machines with at least one slot ad.");
  p.sample(static_cast<double>(s.machines));
}

void jobs(PrometheusText& p, const monitor::PoolSummary& s) {
  auto each = [&](const monitor::Jobs& j, const Labels& labels) {
    const std::pair<const char*, std::int64_t> by[] = {
        {"running", j.running}, {"idle", j.idle}, {"held", j.held}};
    for (const auto& [status, n] : by) {
      Labels l = labels;
      l.emplace_back("status", status);
      p.sample(l, static_cast<double>(n));
    }
  };
  p.family("caracara_submitter_jobs", "gauge",
           "Jobs of each submitter by status, summed over the access points (Submitter ads).");
  for (const monitor::SubmitterSummary& u : s.submitters)
    each(u.jobs, {{"submitter", u.name}, {"group", u.group}});
  p.family("caracara_group_jobs", "gauge", "Jobs of each accounting group's submitters by status.");
  for (const monitor::GroupSummary& g : s.groups) each(g.jobs, {{"group", g.name}});
}

void priorities(PrometheusText& p, const monitor::PoolSummary& s) {
  struct Metric {
    const char* name;
    const char* help;
    double monitor::SubmitterSummary::*field;
  };
  const Metric metrics[] = {
      {"caracara_submitter_real_priority", "Real user priority (RUP) of each submitter.",
       &monitor::SubmitterSummary::priority},
      {"caracara_submitter_effective_priority", "Effective user priority (EUP = RUP x factor).",
       &monitor::SubmitterSummary::effective_priority},
      {"caracara_submitter_priority_factor", "Priority factor of each submitter.",
       &monitor::SubmitterSummary::factor},
      {"caracara_submitter_resources_used", "Weighted resources each submitter's claims hold.",
       &monitor::SubmitterSummary::resources_used},
      {"caracara_submitter_accumulated_usage_seconds", "Weighted usage accumulated, in slot-weight seconds.",
       &monitor::SubmitterSummary::accumulated_usage},
  };
  for (const Metric& m : metrics) {
    p.family(m.name, "gauge", m.help);
    for (const monitor::SubmitterSummary& u : s.submitters)
      if (u.has_priority) p.sample({{"submitter", u.name}}, u.*m.field);
  }
}

void groups(PrometheusText& p, const monitor::PoolSummary& s) {
  struct Metric {
    const char* name;
    const char* help;
    double monitor::GroupSummary::*field;
  };
  const Metric metrics[] = {
      {"caracara_group_configured_quota",
       "Quota configured for the group (GROUP_QUOTA_*, dynamic ones as a share).",
       &monitor::GroupSummary::config_quota},
      {"caracara_group_quota", "Effective quota of the group in the last cycle.",
       &monitor::GroupSummary::effective_quota},
      {"caracara_group_requested", "Weighted resources the group's submitters asked for in the last cycle.",
       &monitor::GroupSummary::requested},
      {"caracara_group_allocated",
       "Weighted resources the last cycle allocated to the group (quota and surplus).",
       &monitor::GroupSummary::allocated},
      {"caracara_group_in_use", "Weighted resources the group's claims hold.",
       &monitor::GroupSummary::in_use},
  };
  for (const Metric& m : metrics) {
    p.family(m.name, "gauge", m.help);
    for (const monitor::GroupSummary& g : s.groups)
      if (g.has_quota) p.sample({{"group", g.name}}, g.*m.field);
  }
}

void negotiation(PrometheusText& p, const monitor::PoolSummary& s) {
  p.family("caracara_negotiation_cycles_total", "counter", "Negotiation cycles completed by the negotiator.");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, static_cast<double>(n.cycles));
  p.family("caracara_negotiation_cycle_duration_seconds", "gauge", "Duration of the last negotiation cycle.");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, n.duration);
  p.family("caracara_negotiation_cycle_phase_duration_seconds", "gauge",
           "Duration of each phase of the last negotiation cycle.");
  for (const auto& n : s.negotiators)
    for (int i = 0; i < 4; ++i)
      p.sample({{"negotiator", n.name}, {"phase", std::to_string(i + 1)}}, n.phase[i]);
  p.family("caracara_negotiation_cycle_matches", "gauge", "Matches made in the last negotiation cycle.");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, static_cast<double>(n.matches));
  p.family("caracara_negotiation_cycle_rejections", "gauge",
           "Requests rejected in the last negotiation cycle.");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, static_cast<double>(n.rejections));
  p.family("caracara_negotiation_last_cycle_timestamp_seconds", "gauge",
           "When the last negotiation cycle began (Unix time).");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, static_cast<double>(n.cycle_time));
  p.family("caracara_negotiator_active", "gauge", "1 for the pool's active negotiator (HadActive).");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, n.active ? 1 : 0);
  p.family("caracara_negotiator_term", "gauge",
           "High-availability election term of the negotiator (0 without HA).");
  for (const auto& n : s.negotiators) p.sample({{"negotiator", n.name}}, static_cast<double>(n.term));
}

void collector(PrometheusText& p, const monitor::PoolSummary& s) {
  p.family("caracara_collector_ads", "gauge", "Live ads in the collector by type.");
  for (const auto& [type, n] : s.ad_counts) p.sample({{"type", type}}, static_cast<double>(n));
  p.family("caracara_collector_updates_total", "counter", "Ad updates the collector took since it started.");
  for (const auto& c : s.collectors) p.sample({{"collector", c.name}}, static_cast<double>(c.updates_total));
  p.family("caracara_collector_updates_lost_total", "counter",
           "Ad updates the collector refused since it started.");
  for (const auto& c : s.collectors) p.sample({{"collector", c.name}}, static_cast<double>(c.updates_lost));
}

void availability(PrometheusText& p, const monitor::PoolSummary& s) {
  p.family("caracara_daemon_up", "gauge", "1 when a daemon of a node's DAEMON_LIST runs, 0 when it is down.");
  for (const auto& d : s.daemons) p.sample({{"machine", d.machine}, {"daemon", d.daemon}}, d.up ? 1 : 0);
  if (!s.ha) return;
  const std::string member = std::to_string(s.ha->member);
  p.family("caracara_ha_active", "gauge", "1 when this central manager's negotiator is the active one.");
  p.sample({{"member", member}}, s.ha->active ? 1 : 0);
  p.family("caracara_ha_term", "gauge", "The newest election term this central manager's had knows.");
  p.sample({{"member", member}}, static_cast<double>(s.ha->term));
  p.family("caracara_ha_role_change_timestamp_seconds", "gauge",
           "When this had's role last changed (Unix time).");
  p.sample({{"member", member}}, static_cast<double>(s.ha->since));
}

}  // namespace

std::string metrics_text(const monitor::PoolSummary& s) {
  PrometheusText p;
  slots(p, s);
  jobs(p, s);
  priorities(p, s);
  groups(p, s);
  negotiation(p, s);
  collector(p, s);
  availability(p, s);
  return p.text();
}

}  // namespace cara::web
