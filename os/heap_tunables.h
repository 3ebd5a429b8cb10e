// The malloc settings caracara's daemons run with. A schedd reads its
// whole queue back at a restart and a collector holds an ad per slot:
// millions of small objects, whose fresh pages each cost a page fault.
// glibc's `glibc.malloc.hugetlb=1` tunable has malloc ask for transparent
// huge pages (madvise) for its heap, so those faults come 512 pages at a
// time: reading 100 k jobs back took 66 k faults, with it 4 k
// (bench/RESULTS.md, 2026-11-29). Tunables are read once, when a program
// starts: `cara` sets them in the environment of the `cara-pool` it runs.
// Nothing changes where the kernel's transparent huge pages are off.
#pragma once

#include <string>

namespace cara::os {

// GLIBC_TUNABLES as a daemon is to see it, from the value it has now
// (null: unset): glibc.malloc.hugetlb=1 added, unless the user set that
// tunable already (their choice stands).
std::string daemon_glibc_tunables(const char* current);

}  // namespace cara::os
