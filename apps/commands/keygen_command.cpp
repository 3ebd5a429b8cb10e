// cara keygen: the pool CA and the certificates it signs (net/pki.h).
#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "net/pki.h"

namespace cara::apps {
namespace {

constexpr const char* kKeygenUsage =
    "usage: cara keygen ca DIR [--name NAME] [--days N]\n"
    "       cara keygen cert CA_DIR OUT --host HOST [--user NAME@DOMAIN] [--days N]\n";

}  // namespace

int run_keygen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kKeygenUsage, 0);
  auto p = parse(args, {"name", "days", "host", "user"}, "keygen", kKeygenUsage, err);
  if (!p) return kExitUserError;
  int days = 825;
  if (auto d = option(*p, "days")) {
    try {
      days = std::stoi(*d);
    } catch (...) {
      days = 0;
    }
    if (days <= 0) {
      err << "cara keygen: --days expects a positive number of days, not '" << *d << "'\n";
      return kExitUserError;
    }
  }
  const auto& pos = p->positional;
  if (pos.size() == 2 && pos[0] == "ca") {
    auto s = net::create_ca(pos[1], option(*p, "name").value_or("caracara pool CA"), days);
    if (!s) {
      err << "cara keygen: " << s.error() << "\n";
      return 1;
    }
    out << "pool CA written to " << pos[1] << "/ca.pem (key: " << pos[1] << "/ca.key)\n";
    return 0;
  }
  if (pos.size() == 3 && pos[0] == "cert") {
    auto host = option(*p, "host");
    if (!host) {
      err << "cara keygen: cert expects --host HOST\n" << kKeygenUsage;
      return kExitUserError;
    }
    net::CertificateSpec spec{*host, option(*p, "user").value_or("condor@" + *host), days};
    auto s = net::issue_certificate(pos[1], pos[2], spec);
    if (!s) {
      err << "cara keygen: " << s.error() << "\n";
      return 1;
    }
    out << "certificate for " << spec.user << "/" << spec.host << " written to " << pos[2]
        << ".pem (key: " << pos[2] << ".key)\n";
    return 0;
  }
  err << kKeygenUsage;
  return kExitUserError;
}

}  // namespace cara::apps
