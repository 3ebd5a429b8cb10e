#include "apps/node/name_check.h"

#include <caf/actor_system.hpp>
#include <caf/scoped_actor.hpp>

#include "actors/interfaces.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/collector/ad_store.h"

namespace cara::apps {

Status check_unique_name(caf::actor_system& sys, const std::vector<actors::collector_actor>& collectors,
                         const std::string& name, const std::string& address) {
  caf::scoped_actor self{sys};
  for (const actors::collector_actor& c : collectors) {
    if (!c) continue;
    std::string other;
    self->request(c, std::chrono::seconds(5),
                  actors::AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Master),
                                         "Name == " + classad::quoted(name),
                                         {"MyAddress"},
                                         false})
        .receive(
            [&](actors::AdQueryReply& r) {
              for (const actors::WireAd& ad : r.ads) {
                const classad::Value at = classad::evaluate_attr(ad.ad, "MyAddress");
                if (at.is_string() && at.as_string() != address) other = std::string(at.as_string());
              }
            },
            [](caf::error&) {});  // a collector that does not answer cannot tell: the next one is asked
    if (!other.empty())
      return Error{"another node already advertises the name " + name + " (its master at " + other +
                   "); give each node its own FULL_HOSTNAME"};
  }
  return Ok{};
}

}  // namespace cara::apps
