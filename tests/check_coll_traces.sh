#!/bin/sh
# SPDX-License-Identifier: MIT
# coll's calibration gate (issues 3, 7, 9): coll's predictions against the
# committed GPU measurements, per family, with the model's shipped defaults
# (model/params.c names these files as the sources of its Hopper constants).
#   traces/nvidia-h200-x2/kernels-nccl.json.gz  NCCL on 2 H200s (n = 2)
#   traces/nvidia-h200-x2/kernels-p2p.json.gz   GPU0 -> GPU1 copies by mechanism
#                                               (ce, tma, ldst; 1-132 SMs)
#   traces/nvidia-h200-x2/torchrun-nccl-rank{0,1}.json.gz
#                                               the same NCCL sweep, one process per
#                                               GPU (torchrun), ranks merged
#   traces/h200-1/kernels-nccl.json             NCCL on one H200 (n = 1)
#   traces/nvidia-h200-x2/kernels-nccl-ALGO-PROTO.json.gz
#                                               NCCL on 2 H200s, NCCL_ALGO x NCCL_PROTO
#                                               forced (Ring, Tree, auto x LL, LL128,
#                                               Simple), 8 B - 8 GiB, one group each
# For each group: zero bound violations (validate exits 3 otherwise), a
# median |prediction error| of at most MAX_MEDIAN percent (default 10) and,
# for the two-GPU NCCL groups, a p90 of at most MAX_P90 percent, over the
# group's cases, computed here from validate's per-case rows so that the
# p2p family splits by mechanism.
set -u
CR=$1
MAX_MEDIAN=${MAX_MEDIAN:-10}
MAX_P90=1000
fail=0

# median and p90 of |err| (column 8) over the rows whose case (column 2)
# matches $2 in family $1; prints "cases median p90"
stats() {
    awk -v fam="$1" -v pat="$2" '$1 == fam && $2 ~ pat && $8 != "-" {
        e = $8; if (e < 0) e = -e; print e }' | sort -g | awk '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print 0, -1, -1; exit }
            m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            i = int(0.9 * NR); if (i < 1) i = 1; if (i < 0.9 * NR) i++
            print NR, m, v[i]
        }'
}

# gate FILE-LABEL OUTPUT FAMILY PATTERN GROUP-NAME MIN-CASES
gate() {
    set -- $(printf '%s\n' "$2" | stats "$3" "$4") "$1" "$5" "$6"
    n=$1 med=$2 p90=$3 file=$4 name=$5 min=$6
    if [ "$n" -lt "$min" ]; then
        echo "check_coll_traces: $name ($file): $n predicted cases, expected at least $min: FAILED"
        fail=1
        return
    fi
    verdict=$(awk -v m="$med" -v x="$MAX_MEDIAN" -v p="$p90" -v y="$MAX_P90" \
        'BEGIN { print (m <= x && p <= y) ? "ok" : "FAILED" }')
    printf 'check_coll_traces: %-10s median |err| %5.1f%%  p90 %5.1f%%  over %3d cases (%s): %s\n' \
        "$name" "$med" "$p90" "$n" "$file" "$verdict"
    [ "$verdict" = ok ] || fail=1
}

run() { # run LABEL validate-args... ; sets $out, checks the exit status
    label=$1
    shift
    out=$("$@" 2>&1)
    rc=$?
    if [ $rc -eq 3 ]; then
        echo "check_coll_traces: $label: bound violations (a measured time below coll's bound):"
        printf '%s\n' "$out" | grep -i viol | head
        fail=1
    elif [ $rc -ne 0 ]; then
        echo "check_coll_traces: $label: validate failed (exit $rc)"
        printf '%s\n' "$out" | tail -5
        fail=1
    fi
}

X2=traces/nvidia-h200-x2
for f in $X2/kernels-nccl.json.gz $X2/kernels-p2p.json.gz traces/h200-1/kernels-nccl.json; do
    [ -f "$f" ] || { echo "check_coll_traces: missing $f"; exit 1; }
done

# p90 gates on two GPUs (doc/bounds.md 3.8): since a reduce rooted at the
# GPU one thread launches last no longer carries NCCL's chain hop, the p90s
# were 17.2% here (24.6% before), 14.7% for torchrun; re-run 2026-12-06 at
# a8a0ec3: 18.8% here, 14.8% for torchrun (doc/validation.md).
MAX_P90=20
run "$X2/kernels-nccl.json.gz" sh -c "gzip -dc $X2/kernels-nccl.json.gz | '$CR' validate /dev/stdin --topo hgx-h200-8"
gate "$X2/kernels-nccl.json.gz" "$out" nccl '_n=2_' "nccl n=2" 77

# One process per GPU (torchrun, 2 ranks, one trace each, merged by
# validate): the same sweep as kernels-nccl.json.gz. Every multi-GPU case,
# here and in the one-process traces, is timed from the last GPU's start
# (doc/validation.md), so neither carries the host launch gap of one thread
# driving both GPUs and both are predicted without it. Gated at 6% (4.8%
# with the n = 2 latencies of tools/fit_n2_lat.py; 9.8% before, 54.3%
# before the process layout was modelled).
TR0=$X2/torchrun-nccl-rank0.json.gz TR1=$X2/torchrun-nccl-rank1.json.gz
if [ -f "$TR0" ] && [ -f "$TR1" ]; then
    run "$X2/torchrun-nccl-rank{0,1}.json.gz" "$CR" validate "$TR0" "$TR1" --topo hgx-h200-8
    save=$MAX_MEDIAN
    MAX_MEDIAN=6
    MAX_P90=16
    gate "$X2/torchrun-nccl-rank{0,1}.json.gz" "$out" nccl '_n=2_' "torchrun" 55
    MAX_MEDIAN=$save
    MAX_P90=1000
else
    echo "check_coll_traces: missing $TR0 or $TR1"
    fail=1
fi

run "$X2/kernels-p2p.json.gz" sh -c "gzip -dc $X2/kernels-p2p.json.gz | '$CR' validate /dev/stdin --topo hgx-h200-8"
gate "$X2/kernels-p2p.json.gz" "$out" p2p '^ce_' "p2p ce" 10
gate "$X2/kernels-p2p.json.gz" "$out" p2p '^tma_' "p2p tma" 160
gate "$X2/kernels-p2p.json.gz" "$out" p2p '^ldst_' "p2p ldst" 160

run traces/h200-1/kernels-nccl.json "$CR" validate traces/h200-1/kernels-nccl.json --topo h200-1
gate traces/h200-1/kernels-nccl.json "$out" nccl '_n=1_' "nccl n=1" 77

# Forced algorithm x protocol (issue 9's sweep). Every group: zero bound
# violations, every case predicted, and a median |error| of at most 10%.
# Tree-LL (22.0%), Tree-LL128 (11.4%) and auto-Simple (12.0%) had looser
# limits while one-process cases were timed from the first GPU's start:
# that included a launch skew between the two GPUs which differs from
# process to process (auto/Simple vs Ring/Simple: +2.65 us from the first
# start, +0.07 us from the last), which no one constant fits. Timed from
# the last GPU's start with the n = 2 latencies refitted to it
# (tools/fit_n2_lat.py) they are 8.3, 6.8 and 6.4%. LOOSE lists
# GROUP:LIMIT exceptions (none now).
LOOSE=""
for a in Ring Tree auto; do
    for p in LL LL128 Simple; do
        f=$X2/kernels-nccl-$a-$p.json.gz
        [ -f "$f" ] || { echo "check_coll_traces: missing $f"; fail=1; continue; }
        case $a in Ring) min=80 ;; Tree) min=16 ;; *) min=112 ;; esac
        lim=$MAX_MEDIAN
        for l in $LOOSE; do [ "${l%%:*}" = "$a-$p" ] && lim=${l#*:}; done
        run "$f" sh -c "gzip -dc $f | '$CR' validate /dev/stdin --topo hgx-h200-8"
        save=$MAX_MEDIAN
        MAX_MEDIAN=$lim
        MAX_P90=25
        gate "$f" "$out" nccl '_n=2_' "$a/$p" $min
        MAX_MEDIAN=$save
        MAX_P90=1000
    done
done

[ $fail -eq 0 ] && echo "check_coll_traces: OK"
exit $fail
