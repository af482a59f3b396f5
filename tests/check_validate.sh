#!/bin/sh
# SPDX-License-Identifier: MIT
# CI gate of issue 7: the committed H200 traces (traces/h200-1, kernels/
# crbench under the CUPTI tracer) against the model on the shipped h200-1
# topology.
#   1. zero bound violations (a measured time below the bound is impossible):
#      `commroof validate` exits 3 otherwise;
#   2. median |prediction error| <= 10% per family, except the families in
#      KNOWN_MISS, whose model constants belong to ops (model/ops.c) and miss
#      on this machine (doc/validation.md, "Known misses"); they are printed,
#      not gated, until ops adopts the fitted figures.
# Also: the nccl-tests fixture parses, and a bad input fails with exit 1.
set -u
CR=$1
TRACES=$(ls traces/h200-1/kernels-*.json 2>/dev/null)
[ -n "$TRACES" ] || { echo "check_validate: no traces in traces/h200-1"; exit 1; }
KNOWN_MISS=${KNOWN_MISS:-"ce launch"}
fail=0

out=$("$CR" validate $TRACES --topo h200-1 --summary 2>&1); rc=$?
echo "$out" | sed -n '/summary per family/,$p'
if [ $rc -eq 3 ]; then echo "check_validate: bound violations"; fail=1
elif [ $rc -ne 0 ]; then echo "check_validate: validate failed (exit $rc)"; echo "$out"; fail=1; fi

# Per-family median gate, from the summary rows ("  fam cases predicted
# median p90 max violations").
gate=$(echo "$out" | sed -n '/summary per family/,$p' | awk -v known=" $KNOWN_MISS " '
    $1 !~ /^#/ && NF == 7 && $1 != "all" && $3 > 0 {
        tag = "ok"
        if ($4 > 10.0) tag = index(known, " " $1 " ") ? "KNOWN MISS (not gated)" : "FAILED"
        printf "check_validate: %-6s median |err| %5.1f%% over %d predicted cases: %s\n", $1, $4, $3, tag
    }')
echo "$gate"
echo "$gate" | grep -q FAILED && fail=1

# nccl-tests logs: the fixture reads, a truncated row is an error.
for f in tests/fixtures/nccl-tests/*.log; do
    [ -f "$f" ] || continue
    "$CR" validate --nccl-tests "$f" --topo hgx-h100-8 --summary >/dev/null 2>&1
    r=$?
    case "$f" in
    *bad*) [ $r -eq 1 ] || { echo "check_validate: $f should fail with exit 1, got $r"; fail=1; } ;;
    *) [ $r -eq 0 ] || [ $r -eq 3 ] || { echo "check_validate: $f: exit $r"; "$CR" validate --nccl-tests "$f" --topo hgx-h100-8 --summary; fail=1; } ;;
    esac
done
"$CR" validate >/dev/null 2>&1; [ $? -eq 2 ] || { echo "check_validate: no input should be a usage error (2)"; fail=1; }
"$CR" validate traces/h200-1/kernels-hbm.json --topo nope >/dev/null 2>&1; [ $? -eq 1 ] || { echo "check_validate: unknown topology should exit 1"; fail=1; }
[ $fail -eq 0 ] && echo "check_validate: OK"
exit $fail
