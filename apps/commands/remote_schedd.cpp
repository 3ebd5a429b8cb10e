#include "apps/commands/remote_schedd.h"

#include <unistd.h>

#include <caf/scoped_actor.hpp>

#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "apps/node/local_commands.h"
#include "model/classad/eval.h"
#include "model/classad/unparse.h"
#include "model/schedd/schedd_settings.h"
#include "os/current_user.h"

namespace cara::apps {

std::optional<ScheddLink> remote_schedd(const config::Config& cfg, const ScheddTarget& target,
                                        const std::string& tool, std::ostream& err, int& rc) {
  const std::string word = tool.rfind("cara ", 0) == 0 ? tool.substr(5) : tool;
  std::shared_ptr<PoolClient> client = PoolClient::open(cfg, word, err, rc, target.pool);
  if (!client) return std::nullopt;
  std::string name;
  if (target.name) {
    name = *target.name;
  } else if (auto settings = schedd::ScheddSettings::from_config(cfg.as({"SCHEDD", ""}))) {
    name = settings->name;
  }
  // The schedd's node, by its Scheduler ad's Machine (its master's Name).
  std::string machine;
  auto collector = central_collector(*client);
  if (!collector) {
    err << tool << ": " << collector.error() << "\n";
    rc = kExitUnreachable;
    return std::nullopt;
  }
  {
    caf::scoped_actor self{client->system()};
    self->request(*collector, std::chrono::seconds(10),
                  actors::AdQueryRequest{static_cast<std::int32_t>(collector::AdType::Scheduler),
                                         "Name == " + classad::quoted(name),
                                         {"Machine"},
                                         false})
        .receive(
            [&](actors::AdQueryReply& r) {
              for (const actors::WireAd& a : r.ads)
                if (classad::Value v = classad::evaluate_attr(a.ad, "Machine"); v.is_string())
                  machine = std::string(v.as_string());
            },
            [](caf::error&) {});
  }
  if (machine.empty()) {
    err << tool << ": no schedd " << name << " in the collector\n";
    rc = kExitUserError;
    return std::nullopt;
  }
  auto node = join_advertised(*client, collector::AdType::Master, "Name == " + classad::quoted(machine),
                              "the master of schedd " + name);
  if (!node) {
    err << tool << ": " << node.error() << "\n";
    rc = kExitUserError;
    return std::nullopt;
  }
  const auto schedd = actors::daemon_in<actors::schedd_actor>(node->daemons);
  if (!schedd) {
    err << tool << ": the node of schedd " << name << " runs no schedd\n";
    rc = kExitUnreachable;
    return std::nullopt;
  }
  // The front end's own checks pass: the schedd checks the certificate.
  auto guard = std::make_shared<net::Guard>(net::Authorization::open(), nullptr);
  auto joined = std::make_shared<net::Joined>(std::move(*node));
  const net::LocalPeer peer{static_cast<unsigned>(::getuid()), os::current_user()};
  return ScheddLink{
      [client, joined, schedd, guard, peer](const nlohmann::json& request) -> Result<nlohmann::json> {
        caf::scoped_actor self{client->system()};
        return handle_local(self, schedd, *guard, "", "", request, peer, true);
      }};
}

}  // namespace cara::apps
