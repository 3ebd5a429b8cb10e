// What an evaluation may need from the outside world, passed in explicitly
// so the model stays deterministic (DESIGN.md: no clock in model/): the
// current time for time(), the local zone for formatTime(), a random source
// for random(), and the user maps behind userMap().
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cara::classad {

// The userMap() hook. The configuration layer implements it from
// CLASSAD_USER_MAPFILE_<name> / CLASSAD_USER_MAPDATA_<name>.
class UserMaps {
 public:
  virtual ~UserMaps() = default;
  // The groups `user` maps to in map set `mapset`, or nullopt when the map
  // set does not exist or the user is not in it.
  virtual std::optional<std::vector<std::string>> map(std::string_view mapset,
                                                      std::string_view user) const = 0;
};

// Source of random numbers for random(); a caller that wants reproducible
// runs passes a seeded one.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual std::uint64_t next() = 0;
};

struct EvalEnv {
  std::int64_t now = 0;            // seconds since the epoch, for time() and absTime()
  std::int32_t local_offset = 0;   // seconds east of UTC, for local-time functions
  RandomSource* random = nullptr;  // null: a fixed-seed generator per thread
  const UserMaps* user_maps = nullptr;
  // Set to true when an evaluation reads any of the above (the clock, the
  // random source or the user maps): its value may then differ from one
  // evaluation to the next. A negotiator keeps what it learnt of a slot ad
  // across cycles only when nothing of it did (negotiation/slot_memo.h).
  bool* outside_read = nullptr;
};

}  // namespace cara::classad
