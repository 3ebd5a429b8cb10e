#!/bin/sh
# The installed caracara package as an outside project uses it (issue 29):
# `cmake --install` of BUILD into a fresh prefix, then examples/policy_study
# (virtual time) and examples/realtime (real time) configured with
# find_package(caracara) against that prefix only, built and run; then the
# installed Python module imported and run. Usage: check_package.sh BUILD SOURCE WORK
set -eu
build=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
test -f "$work/prefix/include/caracara/virtual_pool.h"
# The public headers name no CAF, RocksDB or caracara internal header.
if grep -rEn '#include ["<](caf/|rocksdb/|model/|actors/)' "$work/prefix/include/caracara"; then
  echo "a public header includes an internal one" >&2
  exit 1
fi
cmake -S "$src/examples/policy_study" -B "$work/study" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Debug > "$work/configure.log"
cmake --build "$work/study" > "$work/build.log"
"$work/study/policy_study"
# The minimal real-time embedding: a pool of real daemons running real jobs.
cmake -S "$src/examples/realtime" -B "$work/realtime" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Debug > "$work/configure-realtime.log"
cmake --build "$work/realtime" > "$work/build-realtime.log"
"$work/realtime/realtime" > "$work/realtime.out"
cat "$work/realtime.out"
for i in 0 1 2 3; do grep -q "job $i wrote: job $i done" "$work/realtime.out"; done
grep -q "alice@example: priority" "$work/realtime.out"
# The installed Python module (CARA_CHECK_PYTHON: the interpreter it is built
# for; CARA_CHECK_PRELOAD: the sanitizers' runtime an instrumented build needs).
if [ -n "${CARA_CHECK_PYTHON:-}" ]; then
  module=$(find "$work/prefix" -name 'caracara*.so' | head -n 1)
  test -n "$module"
  env PYTHONPATH="$(dirname "$module")" PYTHONDONTWRITEBYTECODE=1 ${CARA_CHECK_PRELOAD:+"LD_PRELOAD=$CARA_CHECK_PRELOAD"} \
      ASAN_OPTIONS=detect_leaks=0 "$CARA_CHECK_PYTHON" -c '
import caracara
pool = caracara.VirtualPool(machines=[("ep1", "NUM_CPUS = 1\n")])
assert pool.submit("alice", "executable = /bin/true\n+SimulatedRunTime = 60\nqueue 2\n") == ["1.0", "1.1"]
pool.advance(3600)
assert pool.jobs().idle == 0 and pool.jobs().running == 0, pool.jobs()
print("the installed Python module runs a pool:", pool.priorities()[0])
'
fi
