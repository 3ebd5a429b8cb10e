#include "net/pool_secrets.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "net/pki.h"
#include "tests/support/scratch.h"

namespace fs = std::filesystem;
using namespace cara::net;
using cara::scratch::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Whether the node certificate in `secrets` proves its identity against
// the CA copy beside it, as a peer checks it.
bool node_proves(const fs::path& secrets, const std::string& user) {
  auto anchor = TrustAnchor::load(secrets / "ca.pem");
  auto node = Credentials::load(secrets / "node.pem", secrets / "node.key");
  if (!anchor || !node) return false;
  auto sig = node->sign("x");
  if (!sig) return false;
  auto who = anchor->verify(node->certificate_pem(), "x", *sig);
  return who && who->user == user;
}

}  // namespace

TEST_CASE("keygen pool: made once, then kept, and made again when it no longer fits", "[net][pki]") {
  TempDir dir("pool-secrets");
  PoolSecretsSpec spec{dir / "ca", dir / "secrets", "condor@docker.pool", "node", "test pool", 30};
  auto first = ensure_pool_secrets(spec);
  REQUIRE(first.ok());
  CHECK_THAT(joined(*first),
             Catch::Contains("made the pool CA") && Catch::Contains("made the node certificate"));
  CHECK(node_proves(dir / "secrets", "condor@docker.pool"));
  CHECK_FALSE(fs::exists(dir / "secrets/ca.key"));  // the CA's key stays with the key maker
  CHECK(slurp(dir / "secrets/ca.pem") == slurp(dir / "ca/ca.pem"));
  const std::string node_pem = slurp(dir / "secrets/node.pem");

  SECTION("a second run keeps everything") {
    auto again = ensure_pool_secrets(spec);
    REQUIRE(again.ok());
    CHECK_THAT(joined(*again),
               Catch::Contains("kept the pool CA") && Catch::Contains("kept the node certificate"));
    CHECK(slurp(dir / "secrets/node.pem") == node_pem);
  }
  SECTION("a damaged node certificate is made again, saying why") {
    std::ofstream(dir / "secrets/node.pem") << "garbage\n";
    auto again = ensure_pool_secrets(spec);
    REQUIRE(again.ok());
    CHECK_THAT(joined(*again), Catch::Contains("made again the node certificate"));
    CHECK(node_proves(dir / "secrets", "condor@docker.pool"));
  }
  SECTION("a node certificate of another CA is made again") {
    PoolSecretsSpec other = spec;
    other.ca_dir = dir / "other-ca";
    other.out_dir = dir / "other";
    REQUIRE(ensure_pool_secrets(other).ok());
    fs::copy_file(dir / "other/node.pem", dir / "secrets/node.pem", fs::copy_options::overwrite_existing);
    fs::copy_file(dir / "other/node.key", dir / "secrets/node.key", fs::copy_options::overwrite_existing);
    CHECK_FALSE(node_proves(dir / "secrets", "condor@docker.pool"));
    auto again = ensure_pool_secrets(spec);
    REQUIRE(again.ok());
    CHECK_THAT(joined(*again), Catch::Contains("made again the node certificate"));
    CHECK(node_proves(dir / "secrets", "condor@docker.pool"));
  }
  SECTION("a replaced CA reaches the secrets directory, with a new node certificate") {
    fs::remove_all(dir / "ca");
    auto again = ensure_pool_secrets(spec);
    REQUIRE(again.ok());
    CHECK_THAT(joined(*again), Catch::Contains("copied the CA certificate") &&
                                   Catch::Contains("signed by the CA that was replaced"));
    CHECK(node_proves(dir / "secrets", "condor@docker.pool"));
  }
  SECTION("a CA certificate without its key is never replaced") {
    fs::remove(dir / "ca/ca.key");
    auto refused = ensure_pool_secrets(spec);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("without its key") && Catch::Contains("ca.key"));
  }
  SECTION("a bad user is refused with the reason") {
    spec.out_dir = dir / "bad";
    spec.user = "nodomain";
    auto refused = ensure_pool_secrets(spec);
    REQUIRE_FALSE(refused.ok());
    CHECK_THAT(refused.error(), Catch::Contains("name@domain"));
  }
}
