#include "model/startd/startd_settings.h"

#include "model/config/config.h"

namespace cara::startd {

Result<StartdSettings> StartdSettings::from_config(const config::Config& config) {
  StartdSettings s;
  auto interval = config.positive_seconds("UPDATE_INTERVAL");
  if (!interval) return Error{interval.error()};
  s.update_interval = *interval;
  auto run_as = RunAsPolicy::from_config(config);
  if (!run_as) return Error{run_as.error()};
  s.run_as = std::move(*run_as);
  return s;
}

}  // namespace cara::startd
