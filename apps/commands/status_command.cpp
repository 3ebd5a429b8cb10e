// cara status: the collector's ads (condor_status). The options, the query
// and the tables are status_view.h's; this asks the collector of the
// first central manager that answers (or of -pool).
#include <ctime>

#include "apps/commands/node_commands.h"
#include "apps/commands/status_view.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"

namespace cara::apps {

int run_status(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  for (const std::string& a : args)
    if (a == "-h" || a == "-help" || a == "--help") {
      out << kStatusUsage;
      return 0;
    }
  auto o = parse_status_options(args);
  if (!o) {
    err << "cara status: " << o.error() << "\n" << kStatusUsage;
    return kExitUserError;
  }
  auto cfg = tool_config(o->config, "TOOL");
  if (!cfg) {
    err << "cara status: " << cfg.error() << "\n";
    return kExitUserError;
  }
  int rc = 0;
  auto client = PoolClient::open(*cfg, "status", err, rc, o->pool);
  if (!client) return rc;
  caf::actor_system& sys = client->system();
  const auto found = central_collector(*client);
  if (!found) {
    err << "cara status: " << found.error() << "\n";
    return 1;
  }
  // -any asks for every type; otherwise the one the options name.
  std::vector<collector::AdType> types{o->type};
  if (o->any) {
    types.clear();
    for (int t = 0; t < collector::kAdTypes; ++t) types.push_back(static_cast<collector::AdType>(t));
  }
  const std::string constraint = status_constraint(*o);
  std::vector<classad::ClassAd> ads;
  caf::scoped_actor self{sys};
  for (collector::AdType type : types) {
    self->request(*found, std::chrono::seconds(30),
                  actors::AdQueryRequest{static_cast<std::int32_t>(type), constraint, {}, o->absent})
        .receive(
            [&](actors::AdQueryReply& r) {
              if (!r.ok) {
                err << "cara status: " << r.error << "\n";
                rc = 1;
                return;
              }
              for (actors::WireAd& w : r.ads) ads.push_back(std::move(w.ad));
            },
            [&](caf::error& e) {
              err << "cara status: the collector did not answer: " << sys.render(e) << "\n";
              rc = 1;
            });
    if (rc) return rc;
  }
  out << format_status(*o, std::move(ads), static_cast<std::int64_t>(std::time(nullptr)));
  return 0;
}

}  // namespace cara::apps
