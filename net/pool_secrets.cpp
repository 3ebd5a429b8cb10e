#include "net/pool_secrets.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "net/pki.h"

namespace cara::net {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Why the node certificate in `out` cannot serve the CA in `ca_file`, or
// nullopt when it can: it and its key load, belong together, the CA signed
// it and it is within its validity period (what a peer will check).
std::optional<std::string> node_certificate_problem(const std::string& ca_file, const std::string& out) {
  auto anchor = TrustAnchor::load(ca_file);
  if (!anchor) return anchor.error();
  auto credentials = Credentials::load(out + ".pem", out + ".key");
  if (!credentials) return credentials.error();
  const std::string challenge = "cara keygen pool";
  auto signature = credentials->sign(challenge);
  if (!signature) return signature.error();
  auto identity = anchor->verify(credentials->certificate_pem(), challenge, *signature);
  if (!identity) return identity.error();
  return std::nullopt;
}

}  // namespace

Result<std::vector<std::string>> ensure_pool_secrets(const PoolSecretsSpec& spec) {
  std::vector<std::string> done;
  const std::string ca_pem = spec.ca_dir + "/ca.pem", ca_key = spec.ca_dir + "/ca.key";
  bool new_ca = false;
  if (!fs::exists(ca_key)) {
    if (fs::exists(ca_pem))
      return Error{ca_pem + " exists without its key " + ca_key +
                   ": refusing to replace a pool CA; move it away to make a new one"};
    if (auto s = create_ca(spec.ca_dir, spec.ca_name, spec.days); !s) return Error{s.error()};
    done.push_back("made the pool CA " + ca_pem + " (key: " + ca_key + ")");
    new_ca = true;
  } else {
    done.push_back("kept the pool CA " + ca_pem);
  }

  std::error_code ec;
  fs::create_directories(spec.out_dir, ec);
  if (ec) return Error{spec.out_dir + ": cannot create directory (" + ec.message() + ")"};
  const std::string copy = spec.out_dir + "/ca.pem";
  auto ca_text = read_all(ca_pem);
  if (!ca_text) return Error{ca_pem + ": cannot read"};
  if (read_all(copy) != ca_text) {
    // Written beside and renamed: a node starting meanwhile reads the old
    // copy or the new one, never half of one.
    const std::string tmp = copy + ".new";
    std::ofstream(tmp, std::ios::binary | std::ios::trunc) << *ca_text;
    fs::rename(tmp, copy, ec);
    if (ec) return Error{copy + ": cannot write (" + ec.message() + ")"};
    done.push_back("copied the CA certificate to " + copy);
  }

  const std::string node = spec.out_dir + "/node";
  std::optional<std::string> problem;
  if (!fs::exists(node + ".pem") || !fs::exists(node + ".key"))
    problem = "missing";
  else if (new_ca)
    problem = "signed by the CA that was replaced";
  else
    problem = node_certificate_problem(ca_pem, node);
  if (!problem) {
    done.push_back("kept the node certificate " + node + ".pem");
    return done;
  }
  const bool existed = *problem != "missing";
  if (auto s = issue_certificate(spec.ca_dir, node, CertificateSpec{spec.host, spec.user, spec.days}); !s)
    return Error{s.error()};
  done.push_back((existed ? "made again the node certificate " : "made the node certificate ") + node +
                 ".pem for " + spec.user + "/" + spec.host +
                 (existed ? " (the old one: " + *problem + ")" : ""));
  return done;
}

}  // namespace cara::net
