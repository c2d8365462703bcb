#!/bin/sh
# Builds the libFuzzer targets in build-fuzz with clang (library instrumented too) and runs each for N seconds.
# Usage: tools/fuzz.sh [seconds per target, default 60] [target...]
# Crashing inputs land in fuzz/corpus/<target>/ (kept in git as regression inputs once fixed).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-"fuzz_space fuzz_expr fuzz_template fuzz_runtime_cache fuzz_replay"}
deps=${VKAT_DEPS_PREFIX:-$PWD/.deps/usr}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVKAT_FUZZ=ON -DVKAT_TESTS=OFF \
  -DVKAT_DEPS_PREFIX="$deps" -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
cmake --build build-fuzz -j2 --target $targets
for t in $targets; do
  mkdir -p "fuzz/corpus/$t" "build-fuzz/corpus/$t"
  echo "== $t for ${secs}s"
  # Work corpus in build-fuzz; seeds and crash reproducers in fuzz/corpus/$t.
  build-fuzz/fuzz/$t -max_total_time="$secs" -max_len=4096 -timeout=10 -artifact_prefix="fuzz/corpus/$t/" \
    "build-fuzz/corpus/$t" "fuzz/corpus/$t"
done
