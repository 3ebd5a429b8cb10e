// The malloc tunables `cara` starts its daemons with (os/heap_tunables.h).
#include "os/heap_tunables.h"

#include <catch2/catch.hpp>

using cara::os::daemon_glibc_tunables;

TEST_CASE("daemons run with malloc on huge pages, unless the user chose otherwise", "[os]") {
  CHECK(daemon_glibc_tunables(nullptr) == "glibc.malloc.hugetlb=1");
  CHECK(daemon_glibc_tunables("") == "glibc.malloc.hugetlb=1");
  // Other tunables stay, in their order.
  CHECK(daemon_glibc_tunables("glibc.malloc.arena_max=2") ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  // The user's own hugetlb setting stands, wherever it is.
  CHECK(daemon_glibc_tunables("glibc.malloc.hugetlb=0") == "glibc.malloc.hugetlb=0");
  CHECK(daemon_glibc_tunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2") ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2");
  // A name that only begins alike is another tunable.
  CHECK(daemon_glibc_tunables("glibc.malloc.hugetlbx=0") == "glibc.malloc.hugetlbx=0:glibc.malloc.hugetlb=1");
}
