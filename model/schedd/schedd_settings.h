// The schedd daemon's own knobs, beside its queue policy (queue_policy.h):
// its name and UID_DOMAIN, how often it advertises and evaluates periodic
// expressions, and whether it fills the rest of a claimed partitionable
// slot itself. The schedd actor and `cara submit -dry-run` read them here
// alone, so both name the schedd and its users alike.
#pragma once

#include <cstdint>
#include <string>

#include "model/common/result.h"

namespace cara::config {
class Config;
}

namespace cara::schedd {

struct ScheddSettings {
  std::string name;                     // SCHEDD_NAME, else FULL_HOSTNAME
  std::string uid_domain;               // UID_DOMAIN (by default $(FULL_HOSTNAME)), else the name
  bool claim_leftovers = true;          // CLAIM_PARTITIONABLE_LEFTOVERS
  std::int64_t update_interval = 300;   // SCHEDD_INTERVAL, seconds
  std::int64_t periodic_interval = 60;  // PERIODIC_EXPR_INTERVAL, seconds

  // A value of the wrong type or out of range is an error naming the knob.
  static Result<ScheddSettings> from_config(const config::Config& config);
};

}  // namespace cara::schedd
