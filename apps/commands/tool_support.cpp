#include "apps/commands/tool_support.h"

#include "apps/commands/arguments.h"
#include "apps/node/node_plan.h"
#include "model/classad/eval.h"
#include "os/system_host.h"

namespace cara::apps {

using namespace std::chrono_literals;

Result<actors::collector_actor> central_collector(const PoolClient& client) {
  const auto collector = actors::daemon_in<actors::collector_actor>(client.central().daemons);
  if (!collector)
    return Error{"the central manager (" + client.central().peer.text() + ") runs no collector"};
  return collector;
}

Result<net::Joined> join_advertised(PoolClient& client, collector::AdType type, const std::string& constraint,
                                    const std::string& what) {
  caf::actor_system& sys = client.system();
  auto found = central_collector(client);
  if (!found) return Error{found.error()};
  const actors::collector_actor collector = *found;
  std::string address, error;
  {
    caf::scoped_actor self{sys};
    self->request(collector, 10s,
                  actors::AdQueryRequest{static_cast<std::int32_t>(type), constraint, {"MyAddress"}, false})
        .receive(
            [&](actors::AdQueryReply& r) {
              if (!r.ok) error = r.error;
              for (const actors::WireAd& a : r.ads)
                if (classad::Value v = classad::evaluate_attr(a.ad, "MyAddress"); v.is_string())
                  address = std::string(v.as_string());
            },
            [&](caf::error& e) { error = "the collector did not answer: " + sys.render(e); });
  }
  if (address.empty()) return Error{error.empty() ? "no " + what + " in the collector" : error};
  auto where = parse_host_port(address, "MyAddress");
  if (!where) return Error{what + ": " + where.error()};
  return client.join(*where);
}

}  // namespace cara::apps
