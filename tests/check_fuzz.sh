#!/bin/sh
# SPDX-License-Identifier: MIT
# Every fuzz harness must build and run, not only have its corpus replayed by
# the unit tests: a harness that stopped compiling (fuzz_validate did, when
# the reader began to need zlib and build.sh did not link it) would otherwise
# rot unnoticed until someone fuzzed. Builds each tests/fuzz/fuzz_*.c with
# tests/fuzz/build.sh into $BUILD/fuzz, then runs each binary once over its
# seed corpus (-runs=0: every seed executed, no mutation), so a harness that
# crashes on its own seeds fails here too. Long fuzzing stays a manual step
# (tests/fuzz/build.sh run).
set -u
B=${BUILD:-build}
OUT="$B/fuzz"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! FUZZ_BUILD="$OUT" tests/fuzz/build.sh >"$log" 2>&1; then
    cat "$log"
    echo "check_fuzz: tests/fuzz/build.sh failed"
    exit 1
fi
fails=0
n=0
for src in tests/fuzz/fuzz_*.c; do
    name=$(basename "$src" .c)
    if grep -q "^skipped $name:" "$log"; then
        grep "^skipped $name:" "$log"
        continue
    fi
    n=$((n + 1))
    seeds="tests/fuzz/corpus/${name#fuzz_}"
    [ -d "$seeds" ] || { echo "check_fuzz: $name has no seed corpus $seeds/"; fails=$((fails + 1)); continue; }
    if ! "$OUT/$name" -runs=0 "$seeds" >"$log" 2>&1; then
        tail -n 30 "$log"
        echo "check_fuzz: $name failed on its seed corpus $seeds/"
        fails=$((fails + 1))
    fi
done
[ "$fails" -eq 0 ] || { echo "check_fuzz: $fails failure(s)"; exit 1; }
echo "check_fuzz: $n harnesses built and ran their seeds: OK"
