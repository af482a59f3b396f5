#!/bin/sh
# SPDX-License-Identifier: MIT
# Allocation failures on the error paths (QA audit of allocation failures):
# each command runs with the Nth allocation failing (tests/oom/fail_alloc.c,
# preloaded), N from 1 to its count of allocations (every one under
# OOM_RUNS=0, else about OOM_RUNS values of N evenly spread: 100). After
# each, one of:
#  - exit 0 with stdout and every -o file byte for byte as without the
#    failure (a failure the program could do without);
#  - exit 1 with a message ("commroof CMD: " and words after it, or "out of
#    memory" in the output), the -o file as it was before and no temporary
#    left beside it;
# never a signal, a sanitizer report or a leak (under make test SAN=1).
# Skips where the preload cannot be built or takes no effect (a static
# binary, no C compiler).
set -u
CR=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if ! ${CC:-cc} -O1 -g -fno-omit-frame-pointer -shared -fPIC -o "$T/fail_alloc.so" \
    tests/oom/fail_alloc.c -ldl 2>"$T/cc"; then
    echo "check_oom: skipped (cannot build tests/oom/fail_alloc.c: $(head -1 "$T/cc"))"
    exit 0
fi
# libxml2 2.9's xmlCtxtReadMemory keeps its input buffer where the input
# stream cannot be allocated: its leak, not ours
printf 'leak:xmlParserInputBufferCreateMem\n' >"$T/lsan.supp"
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$T/lsan.supp:${LSAN_OPTIONS:-}"
OUT="$T/out"
fails=0
runs=0
bad() { echo "check_oom: $1"; fails=$((fails + 1)); }

# run N ARGS...: the command with allocation N failing (0: none), its
# output files in $OUT (made afresh, each named one holding "OLD")
run() {
    n=$1
    shift
    rm -rf "$OUT"
    mkdir "$OUT"
    for f in $files; do echo OLD >"$OUT/$f"; done
    OOM_FAIL_AT=$n OOM_COUNT="$T/count" LD_PRELOAD="$T/fail_alloc.so" "$CR" "$@" \
        >"$T/o" 2>"$T/e"
}

# sweep NAME "FILES" ARGS...: FILES the -o outputs (in $OUT)
sweep() {
    name=$1
    files=$2
    shift 2
    run 0 "$@"
    rc=$?
    total=$(cat "$T/count" 2>/dev/null || echo 0)
    if [ "$rc" != 0 ] || [ "$total" -lt 1 ]; then
        echo "check_oom: skipped (the preload takes no effect on $CR: $name exit $rc)"
        exit 0
    fi
    mv "$T/o" "$T/base.o"
    for f in $files; do cp "$OUT/$f" "$T/base.$f"; done
    step=1
    [ "${OOM_RUNS:-100}" -gt 0 ] && step=$(((total + ${OOM_RUNS:-100} - 1) / ${OOM_RUNS:-100}))
    n=1
    while [ "$n" -le "$total" ]; do
        run "$n" "$@"
        rc=$?
        runs=$((runs + 1))
        what="$name, allocation $n of $total"
        if [ "$rc" -ge 128 ] || grep -qE 'Sanitizer|runtime error:' "$T/e"; then
            bad "$what: exit $rc: $(grep -E 'ERROR|SUMMARY|runtime error' "$T/e" | head -2)"
        elif [ "$rc" = 0 ]; then
            cmp -s "$T/o" "$T/base.o" || bad "$what: exit 0 with other output (a failure swallowed)"
            for f in $files; do
                cmp -s "$OUT/$f" "$T/base.$f" || bad "$what: exit 0 with another $f"
            done
        else
            msg=$(grep '^commroof ' "$T/e" | tail -1)
            if ! grep -q 'out of memory' "$T/o" "$T/e" &&
                { [ -z "$msg" ] || [ -z "$(echo "$msg" | sed 's/^commroof [a-z]*:[ ]*//; s/^[^ ]*:[0-9]*:[ ]*$//')" ]; }; then
                bad "$what: exit $rc without a message: \"$msg\""
            fi
            for f in $files; do
                [ "$(cat "$OUT/$f")" = OLD ] || bad "$what: exit $rc, yet $f was written"
            done
        fi
        left=$(ls -A "$OUT" | grep -vxF "$(printf '%s\n' $files)" | head -3)
        [ -z "$left" ] || bad "$what: left behind in the output folder: $left"
        n=$((n + step))
    done
}

L=tests/fixtures/nccl-tests/calib/synth-h100-8-all_reduce_perf.log
sweep "topo show" "" topo show hgx-h100-8
sweep "check --measured-json" "" check --measured-json tests/fixtures/check/bulk_ok.json
sweep "sim allreduce" "" sim allreduce --topo hgx-h100-8 -b 1M
sweep "sim --scenario" "tl.json" sim --scenario tests/fixtures/scenarios/tp-dp.xml \
    --topo h100-ib-4n --timeline "$OUT/tl.json"
sweep "topo import-nccl" "imp.xml" topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml \
    -o "$OUT/imp.xml"
sweep "topo gen" "ft.xml" topo gen fat-tree --nodes 4 --node hgx-h100-8 -o "$OUT/ft.xml"
sweep "suite pkb" "" suite pkb --topo hgx-h100-8
sweep "calibrate" "out.xml" calibrate --nccl-tests $L --topo hgx-h100-8 -o "$OUT/out.xml"

if [ "$fails" -ne 0 ]; then
    echo "check_oom: FAILED ($fails of $runs runs)"
    exit 1
fi
echo "check_oom: OK ($runs runs)"
