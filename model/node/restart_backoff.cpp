#include "model/node/restart_backoff.h"

#include <cmath>
#include <optional>

namespace cara::node {

Result<RestartBackoff> RestartBackoff::from_config(const config::Config& config, const std::string& name) {
  RestartBackoff b;
  // As condor_master: the daemon's own knob, else the master-wide one;
  // values out of range keep the default.
  std::optional<Error> error;
  auto integer = [&](const char* knob, std::int64_t& into, std::int64_t min) {
    for (const std::string& k : {"MASTER_" + name + "_" + knob, std::string("MASTER_") + knob})
      if (config.defined(k)) {
        auto v = config.integer(k);
        if (!v && !error) error = Error{v.error()};
        if (v && *v >= min) into = *v;
        return;
      }
  };
  integer("BACKOFF_CONSTANT", b.constant, 1);
  integer("BACKOFF_CEILING", b.ceiling, 1);
  integer("RECOVER_FACTOR", b.recover, 1);
  for (const std::string& k : {"MASTER_" + name + "_BACKOFF_FACTOR", std::string("MASTER_BACKOFF_FACTOR")})
    if (config.defined(k)) {
      auto v = config.real(k);
      if (!v && !error) error = Error{v.error()};
      if (v && *v > 0) b.factor = *v;
      break;
    }
  if (error) return *error;
  return b;
}

std::int64_t RestartBackoff::delay(std::int64_t restarts) const {
  const double grown = std::ceil(std::pow(factor, static_cast<double>(restarts)));
  const double seconds = static_cast<double>(constant) + grown;
  if (!(seconds >= 0) || seconds > static_cast<double>(ceiling)) return ceiling;
  return static_cast<std::int64_t>(seconds);
}

}  // namespace cara::node
