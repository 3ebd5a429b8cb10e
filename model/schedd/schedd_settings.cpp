#include "model/schedd/schedd_settings.h"

#include "model/config/config.h"

namespace cara::schedd {
namespace {

// A string knob, or `fallback` when it is empty or undefined.
Result<std::string> knob(const config::Config& config, const char* name, const std::string& fallback) {
  auto v = config.string(name);
  if (!v) return Error{v.error()};
  return v->empty() ? fallback : *v;
}

}  // namespace

Result<ScheddSettings> ScheddSettings::from_config(const config::Config& config) {
  ScheddSettings s;
  auto host = knob(config, "FULL_HOSTNAME", "localhost");
  if (!host) return Error{host.error()};
  auto name = knob(config, "SCHEDD_NAME", *host);
  if (!name) return Error{name.error()};
  s.name = std::move(*name);
  auto domain = knob(config, "UID_DOMAIN", s.name);
  if (!domain) return Error{domain.error()};
  s.uid_domain = std::move(*domain);
  auto leftovers = config.boolean("CLAIM_PARTITIONABLE_LEFTOVERS");
  if (!leftovers) return Error{leftovers.error()};
  s.claim_leftovers = *leftovers;
  for (auto [knob, into] : {std::pair{"SCHEDD_INTERVAL", &s.update_interval},
                            std::pair{"PERIODIC_EXPR_INTERVAL", &s.periodic_interval}}) {
    auto v = config.positive_seconds(knob);
    if (!v) return Error{v.error()};
    *into = *v;
  }
  auto store = config.string("JOB_QUEUE_LOG");
  if (!store) return Error{store.error()};
  s.queue_store = std::move(*store);
  for (auto [knob, into] : {std::pair{"MAX_HISTORY_LOG", &s.history_max_bytes},
                            std::pair{"MAX_HISTORY_JOBS", &s.history_max_jobs}}) {
    auto v = config.integer(knob);
    if (!v) return Error{v.error()};
    if (*v < 0) return Error{std::string(knob) + " must not be negative (0 keeps no history)"};
    *into = *v;
  }
  auto super = config.list("QUEUE_SUPER_USERS");
  if (!super) return Error{super.error()};
  s.super_users = std::set<std::string>(super->begin(), super->end());
  return s;
}

}  // namespace cara::schedd
