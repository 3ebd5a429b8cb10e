#include "net/pki.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/scratch.h"

namespace fs = std::filesystem;
using namespace cara::net;
using cara::scratch::TempDir;

namespace {}  // namespace

TEST_CASE("keygen: a CA, certificates it signs, proofs it checks", "[net][pki]") {
  TempDir dir("pki");
  REQUIRE(create_ca(dir / "ca", "test pool", 30).ok());
  struct stat st {};
  REQUIRE(::stat((dir / "ca/ca.key").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  REQUIRE(issue_certificate(dir / "ca", dir / "ep1", {"ep1.pool", "condor@pool", 30}).ok());
  REQUIRE(issue_certificate(dir / "ca", dir / "alice", {"127.0.0.1", "alice@pool", 30}).ok());

  auto anchor = TrustAnchor::load(dir / "ca/ca.pem");
  REQUIRE(anchor.ok());
  auto ep1 = Credentials::load(dir / "ep1.pem", dir / "ep1.key");
  REQUIRE(ep1.ok());
  auto sig = ep1->sign("challenge");
  REQUIRE(sig.ok());
  auto who = anchor->verify(ep1->certificate_pem(), "challenge", *sig);
  REQUIRE(who.ok());
  CHECK(who->user == "condor@pool");
  CHECK(who->host == "ep1.pool");

  SECTION("a signature of other data, or by another key, fails") {
    CHECK_FALSE(anchor->verify(ep1->certificate_pem(), "other", *sig).ok());
    auto alice = Credentials::load(dir / "alice.pem", dir / "alice.key");
    REQUIRE(alice.ok());
    auto other = alice->sign("challenge");
    REQUIRE(other.ok());
    auto r = anchor->verify(ep1->certificate_pem(), "challenge", *other);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains("signature"));
  }
  SECTION("a certificate of another CA fails") {
    REQUIRE(create_ca(dir / "evil", "evil", 30).ok());
    REQUIRE(issue_certificate(dir / "evil", dir / "mallory", {"ep1.pool", "condor@pool", 30}).ok());
    auto mallory = Credentials::load(dir / "mallory.pem", dir / "mallory.key");
    REQUIRE(mallory.ok());
    auto s = mallory->sign("challenge");
    REQUIRE(s.ok());
    auto r = anchor->verify(mallory->certificate_pem(), "challenge", *s);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains("pool CA"));
  }
  SECTION("the CA is never replaced") {
    auto again = create_ca(dir / "ca", "test pool", 30);
    REQUIRE_FALSE(again.ok());
    CHECK_THAT(again.error(), Catch::Contains("refusing"));
  }
  SECTION("a key of another certificate is refused") {
    auto mixed = Credentials::load(dir / "ep1.pem", dir / "alice.key");
    REQUIRE_FALSE(mixed.ok());
    CHECK_THAT(mixed.error(), Catch::Contains("does not belong"));
  }
}

TEST_CASE("keygen: bad names and missing files are clear errors", "[net][pki]") {
  TempDir dir("pki");
  REQUIRE(create_ca(dir / "ca", "pool", 30).ok());
  auto bad_host = issue_certificate(dir / "ca", dir / "x", {"two words", "condor@pool", 30});
  REQUIRE_FALSE(bad_host.ok());
  CHECK_THAT(bad_host.error(), Catch::Contains("host"));
  auto bad_user = issue_certificate(dir / "ca", dir / "x", {"h", "alice", 30});
  REQUIRE_FALSE(bad_user.ok());
  CHECK_THAT(bad_user.error(), Catch::Contains("name@domain"));
  auto missing = TrustAnchor::load(dir / "nope.pem");
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error(), Catch::Contains("nope.pem"));
}
