// jemalloc (CARA_JEMALLOC): the programs linked with it allocate through
// it, operator new included — not only where a header names it.
#include <jemalloc/jemalloc.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

TEST_CASE("jemalloc serves this program's allocations", "[deps][jemalloc]") {
  const char* version = nullptr;
  std::size_t size = sizeof version;
  REQUIRE(mallctl("version", &version, &size, nullptr, 0) == 0);
  CHECK(std::string(version).rfind("5.", 0) == 0);
  std::uint64_t before = 0, after = 0;
  size = sizeof before;
  REQUIRE(mallctl("thread.allocated", &before, &size, nullptr, 0) == 0);
  auto block = std::make_unique<char[]>(1 << 20);
  block[0] = 1;
  REQUIRE(mallctl("thread.allocated", &after, &size, nullptr, 0) == 0);
  CHECK(after - before >= (1u << 20));
}
