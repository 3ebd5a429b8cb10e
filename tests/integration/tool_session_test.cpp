// A tool's TLS session with a central manager (apps/commands/pool_client.h)
// that stays idle longer than the central manager's NODE_CONNECTION_TIMEOUT:
// the tool's middleman beats (apps/node/tls_system.h), so the connection and
// the identity the tool proved with it stay. Without the heartbeats the
// central manager drops the silent connection, and the tool's next request
// fails ("it has not proven its identity", or the connection is gone).
#include <caf/scoped_actor.hpp>
#include <thread>

#include "actors/messages.h"
#include "apps/commands/pool_client.h"
#include "apps/commands/tool_support.h"
#include "integration/pool_support.h"
#include "model/classad/attr_read.h"
#include "os/system_host.h"

using namespace cara;
using namespace cara::test;
using namespace std::chrono_literals;

TEST_CASE("a tool's session outlives the central manager's connection timeout while it is idle",
          "[integration][node][tool]") {
  Pool pool;
  const fs::path cm = pool.config("cm", "DAEMON_LIST = MASTER COLLECTOR\nNODE_CONNECTION_TIMEOUT = 1\n");
  pool.start(cm);
  auto tool_config = config::config_from_text(read(pool.client("reader", cm)), {"TOOL", ""},
                                              std::make_shared<os::SystemHost>());
  REQUIRE(tool_config);
  std::unique_ptr<apps::PoolClient> client;
  std::ostringstream errors;
  // The node's gate answers before its collector runs.
  REQUIRE(await(
      [&] {
        int code = 0;
        client = apps::PoolClient::open(*tool_config, "test", errors, code);
        return client && apps::central_collector(*client);
      },
      60));
  const auto collector = *apps::central_collector(*client);
  caf::scoped_actor self{client->system()};
  auto collector_name = [&] {
    std::string name = "(no answer)";
    self->request(collector, 10s,
                  actors::AdQueryRequest{
                      static_cast<std::int32_t>(collector::AdType::Collector), "", {"Name"}, false})
        .receive(
            [&](actors::AdQueryReply& r) {
              if (!r.ok) return void(name = r.error);
              name = r.ads.empty() ? "(no ad)" : classad::attr_string(r.ads.front().ad, "Name");
            },
            [&](caf::error& e) { name = caf::to_string(e); });
    return name;
  };
  CHECK(collector_name() == "cm.pool");
  // Silence is what is under test: nothing to await but time, twice the
  // central manager's timeout.
  std::this_thread::sleep_for(2500ms);
  CHECK(collector_name() == "cm.pool");
}
