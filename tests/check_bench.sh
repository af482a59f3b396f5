#!/bin/sh
# SPDX-License-Identifier: MIT
# Every benchmark of tests/bench runs to the end: its small cases only
# (COMMROOF_BENCH_SMOKE=1, bench_clock.h), no time or memory target judged
# (make bench judges them). A benchmark that stops running (session 19's
# stricter nccl-tests reader refused bench_validate_log's synthetic log,
# and make bench failed unnoticed for a session) fails make test here.
#   tests/check_bench.sh BUILD/commroof   (BUILD from the environment)
set -u
B=${BUILD:-build}/bench
fail=0
n=0
for b in "$B"/bench_*; do
    [ -x "$b" ] || continue
    n=$((n + 1))
    out=$(COMMROOF_BENCH_SMOKE=1 "$b" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] || [ -z "$out" ]; then
        echo "$out" | tail -20
        echo "check_bench: $(basename "$b"): exit $rc"
        fail=1
    fi
done
if [ $n -eq 0 ]; then
    echo "check_bench: no benchmark built under $B"
    exit 1
fi
[ $fail -eq 0 ] && echo "check_bench: $n benchmarks ran (smoke cases): OK"
exit $fail
