#include "model/schedd/schedd_settings.h"

#include "model/config/config.h"

namespace cara::schedd {

Result<ScheddSettings> ScheddSettings::from_config(const config::Config& config) {
  ScheddSettings s;
  auto leftovers = config.boolean("CLAIM_PARTITIONABLE_LEFTOVERS");
  if (!leftovers) return Error{leftovers.error()};
  s.claim_leftovers = *leftovers;
  for (auto [knob, into] : {std::pair{"SCHEDD_INTERVAL", &s.update_interval},
                            std::pair{"PERIODIC_EXPR_INTERVAL", &s.periodic_interval}}) {
    auto v = config.positive_seconds(knob);
    if (!v) return Error{v.error()};
    *into = *v;
  }
  return s;
}

}  // namespace cara::schedd
