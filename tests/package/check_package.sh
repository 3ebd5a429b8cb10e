#!/bin/sh
# The installed caracara package as an outside project uses it (issue 29):
# `cmake --install` of BUILD into a fresh prefix, then examples/policy_study
# configured with find_package(caracara) against that prefix only, built and
# run. Usage: check_package.sh BUILD SOURCE WORK
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
