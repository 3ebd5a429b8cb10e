// cara keygen: the pool CA and the certificates it signs (net/pki.h).
#include <cstdlib>

#include "apps/commands/arguments.h"
#include "apps/commands/node_commands.h"
#include "apps/commands/tool_options.h"
#include "apps/commands/tool_support.h"
#include "net/pki.h"
#include "net/pool_secrets.h"

namespace cara::apps {
namespace {

constexpr const char* kKeygenUsage =
    "usage: cara keygen ca DIR [--name NAME] [--days N]\n"
    "       cara keygen cert CA_DIR OUT --host HOST [--user NAME@DOMAIN] [--days N]\n"
    "       cara keygen pool [--ca DIR] [--out DIR] [--user NAME@DOMAIN] [--host HOST]\n"
    "                        [--name NAME] [--days N]\n"
    "  pool: the CA in --ca (default $CARA_CA, else /etc/caracara/ca) unless it is there, and in --out\n"
    "  (default $CARA_SECRETS, else /etc/caracara/secrets) its ca.pem and a node certificate node.pem\n"
    "  (default user condor@caracara.pool, host node) unless a valid one is there: a pool's secrets,\n"
    "  safe to run at every start (the compose file's keygen service).\n";

// An environment variable, or `fallback` when it is unset or empty.
std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

int run_keygen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (wants_help(args)) return (out << kKeygenUsage, 0);
  auto p = parse(args, {"name", "days", "host", "user", "ca", "out"}, "keygen", kKeygenUsage, err);
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
  if (pos.size() == 1 && pos[0] == "pool") {
    net::PoolSecretsSpec spec;
    spec.ca_dir = option(*p, "ca").value_or(env_or("CARA_CA", "/etc/caracara/ca"));
    spec.out_dir = option(*p, "out").value_or(env_or("CARA_SECRETS", "/etc/caracara/secrets"));
    spec.user = option(*p, "user").value_or(spec.user);
    spec.host = option(*p, "host").value_or(spec.host);
    spec.ca_name = option(*p, "name").value_or(spec.ca_name);
    spec.days = days;
    auto done = net::ensure_pool_secrets(spec);
    if (!done) {
      err << "cara keygen pool: " << done.error() << "\n";
      return 1;
    }
    for (const std::string& line : *done) out << "cara keygen pool: " << line << "\n";
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
