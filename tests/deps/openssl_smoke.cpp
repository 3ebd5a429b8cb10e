// OpenSSL 3: SHA-256 of "abc" (FIPS 180-2 test vector).
#include <catch2/catch.hpp>
#include <openssl/evp.h>

TEST_CASE("openssl computes SHA-256", "[deps]") {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  REQUIRE(EVP_Digest("abc", 3, md, &len, EVP_sha256(), nullptr) == 1);
  REQUIRE(len == 32);
  CHECK(md[0] == 0xba);
  CHECK(md[31] == 0xad);
}
