// The startd daemon's own knobs, beside the machine's slots and policies
// (startd.h): how often it advertises every slot, and whom jobs run as.
#pragma once

#include <cstdint>

#include "model/common/result.h"
#include "model/startd/run_as.h"

namespace cara::config {
class Config;
}

namespace cara::startd {

struct StartdSettings {
  std::int64_t update_interval = 300;  // UPDATE_INTERVAL, seconds
  RunAsPolicy run_as;

  // A value of the wrong type or out of range is an error naming the knob.
  static Result<StartdSettings> from_config(const config::Config& config);
};

}  // namespace cara::startd
