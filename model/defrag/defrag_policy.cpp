#include "model/defrag/defrag_policy.h"

#include <cctype>
#include <cmath>

namespace cara::defrag {

// HTCondor's split: whole machines per poll, the remainder per hour, the
// remainder of that per day (rounded to the nearest machine).
DrainRate split_rate(double machines_per_hour, std::int64_t interval) {
  DrainRate r;
  if (interval <= 0 || machines_per_hour <= 0) return r;
  const double per_poll = machines_per_hour / 3600.0 * static_cast<double>(interval);
  r.per_poll = static_cast<int>(std::floor(per_poll + 0.00001));
  const double left_per_hour = (per_poll - r.per_poll) / static_cast<double>(interval) * 3600.0;
  r.per_hour = interval > 3600 ? 0 : static_cast<int>(std::floor(left_per_hour + 0.00001));
  const double left_per_day = (left_per_hour - r.per_hour) * 24.0;
  r.per_day = interval > 86400 ? 0 : static_cast<int>(std::floor(left_per_day + 0.5));
  return r;
}

Result<DefragPolicy> DefragPolicy::from_config(const config::Config& config) {
  DefragPolicy p;
  auto host = config.string("FULL_HOSTNAME");
  if (!host) return Error{host.error()};
  p.host = *host;
  auto name = config.string("DEFRAG_NAME");
  if (!name) return Error{name.error()};
  p.name = name->empty() ? p.host : *name;
  for (auto [knob, into] : {std::pair{"DEFRAG_INTERVAL", &p.interval},
                            std::pair{"DEFRAG_MAX_CONCURRENT_DRAINING", &p.max_concurrent_draining},
                            std::pair{"DEFRAG_MAX_WHOLE_MACHINES", &p.max_whole_machines}}) {
    auto v = config.integer(knob);
    if (!v) return Error{v.error()};
    *into = *v;
    if (into != &p.interval && *v < -1)
      return Error{std::string(knob) + " must be -1 (no limit) or a number of machines, not " +
                   std::to_string(*v)};
  }
  auto update = config.positive_seconds("DEFRAG_UPDATE_INTERVAL");
  if (!update) return Error{update.error()};
  p.update_interval = *update;
  auto rate = config.real("DEFRAG_DRAINING_MACHINES_PER_HOUR");
  if (!rate) return Error{rate.error()};
  if (*rate < 0 || !std::isfinite(*rate))
    return Error{"DEFRAG_DRAINING_MACHINES_PER_HOUR must be a number of machines, 0 or more"};
  p.machines_per_hour = *rate;
  p.rate = split_rate(p.machines_per_hour, p.interval);

  const char* schedule_knob =
      config.defined("DEFRAG_DRAINING_SCHEDULE") ? "DEFRAG_DRAINING_SCHEDULE" : "DEFRAG_SCHEDULE";
  auto schedule = config.string(schedule_knob, "graceful");
  if (!schedule) return Error{schedule.error()};
  std::string s = *schedule;
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.empty() || s == "graceful")
    p.schedule = startd::DrainSchedule::Graceful, s = "graceful";
  else if (s == "quick")
    p.schedule = startd::DrainSchedule::Quick;
  else if (s == "fast")
    p.schedule = startd::DrainSchedule::Fast;
  else
    return Error{std::string(schedule_knob) + ": '" + *schedule +
                 "' is not a draining schedule; expected graceful, quick or fast"};
  p.schedule_name = s;

  const std::pair<classad::ExprPtr*, const char*> exprs[] = {
      {&p.requirements, "DEFRAG_REQUIREMENTS"},
      {&p.whole_machine, "DEFRAG_WHOLE_MACHINE_EXPR"},
      {&p.cancel_requirements, "DEFRAG_CANCEL_REQUIREMENTS"},
      {&p.rank, "DEFRAG_RANK"},
  };
  for (auto [field, knob] : exprs) {
    auto e = config.optional_expression(knob);
    if (!e) return Error{e.error()};
    *field = *e;
  }
  if (!p.whole_machine)
    return Error{"DEFRAG_WHOLE_MACHINE_EXPR must not be empty: it says which machines are whole"};
  auto start = config.optional_expression("DEFRAG_DRAINING_START_EXPR");
  if (!start) return Error{start.error()};
  if (*start) p.draining_start = *config.string("DEFRAG_DRAINING_START_EXPR");
  return p;
}

}  // namespace cara::defrag
