#!/bin/sh
# SPDX-License-Identifier: MIT
# CI gate of issue 7: the committed H200 traces (traces/h200-1, kernels/
# crbench under the CUPTI tracer) against the model on the shipped h200-1
# topology.
#   1. zero bound violations (a measured time below the bound is impossible):
#      `commroof validate` exits 3 otherwise;
#   2. no case faster than the attainable bound (the topology's measured
#      ceilings): a measured ceiling that a measurement beats is wrong;
#   3. median |prediction error| <= 10% for every family that has
#      predictions (hbm ce mech gemm launch, and nccl once coll predicts
#      one rank), over all cases and over the held-out half alone
#      (`--subset odd`: ops' constants are fitted on the even half,
#      tools/fit_h200.py, doc/validation.md).
# Also: zero violations in the two-GPU traces (traces/nvidia-h200-x2), the
# fused family there within the 10% median (all and held-out cases), the
# nccl-tests fixture parses, and bad inputs fail with the right exit status.
set -u
CR=$1
TRACES=$(ls traces/h200-1/kernels-*.json 2>/dev/null)
[ -n "$TRACES" ] || { echo "check_validate: no traces in traces/h200-1"; exit 1; }
MAX_MEDIAN=10.0
fail=0

# Per-family median gate from the summary rows ("  fam cases predicted
# median p90 max violations"): prints one line per family, FAILED when over.
gate() {
    sed -n '/summary per family/,$p' | awk -v what="$1" -v max="$MAX_MEDIAN" '
        $1 !~ /^#/ && NF == 7 && $1 != "all" {
            if ($3 == 0) { printf "check_validate: %-8s %-6s no predictions (not gated)\n", what, $1; next }
            tag = $4 > max ? "FAILED" : "ok"
            printf "check_validate: %-8s %-6s median |err| %5.1f%% (p90 %5.1f%%) over %d predicted cases: %s\n", what, $1, $4, $5, $3, tag
        }'
}

for subset in all odd; do
    if [ $subset = all ]; then
        out=$("$CR" validate $TRACES --topo h200-1 --summary 2>&1); rc=$?
        echo "$out" | sed -n '/summary per family/,$p'
    else
        out=$("$CR" validate $TRACES --topo h200-1 --summary --subset odd 2>&1); rc=$?
    fi
    if [ $rc -eq 3 ]; then echo "check_validate: $subset: bound violations"; fail=1
    elif [ $rc -ne 0 ]; then echo "check_validate: $subset: validate failed (exit $rc)"; echo "$out"; fail=1; fi
    if echo "$out" | grep -q "faster than the attainable bound"; then
        echo "check_validate: $subset: $(echo "$out" | grep "faster than the attainable" | sed 's/^# note: //')"
        fail=1
    fi
    g=$(echo "$out" | gate "$subset")
    echo "$g"
    echo "$g" | grep -q FAILED && fail=1
    echo "$g" | grep -q "median" || { echo "check_validate: $subset: no family summary"; fail=1; }
done

# Later captures of the one-GPU sweep (traces/h200-1/run-2026-12-01 and
# run-2026-12-04: other H200 leases, current kernels, fresh random inputs)
# that no constant was fitted on: zero bound violations and a median
# |error| of at most 10% per family, launch excepted: its constants are the
# first host's launch rate (doc/validation.md: a property of the host,
# calibrate it), printed here. Cases faster than the attainable bound are
# printed, not failed: the shipped ceilings are the first run's GPU's.
for R2 in traces/h200-1/run-2026-12-01 traces/h200-1/run-2026-12-04; do
    run=$(basename "$R2")
    if ! ls $R2/kernels-*.json.gz >/dev/null 2>&1; then
        echo "check_validate: $R2 missing"; fail=1; continue
    fi
    out=$("$CR" validate $R2/kernels-*.json.gz --topo h200-1 --summary 2>&1); r=$?
    [ $r -eq 0 ] || { echo "$out"; echo "check_validate: $R2: exit $r (3 = bound violations)"; fail=1; }
    g=$(echo "$out" | gate "$run")
    echo "$g" | sed 's/launch \(.*\): FAILED$/launch \1: host-dependent, not gated/'
    echo "$g" | grep -v " launch " | grep -q FAILED && fail=1
    echo "$out" | grep "faster than the attainable" | sed "s/^# note: /check_validate: $run: /"
done

# The whole one-GPU sweep on an H100 (traces/h100-1/run-2026-12-06, 412
# cases) against one GPU of the shipped hgx-h100-8: every constant of that
# topology comes from datasheets or from H200 fits, none from an H100, so
# no bound may be beaten; the errors are printed, not gated.
R3=traces/h100-1/run-2026-12-06
if ls $R3/kernels-*.json.gz >/dev/null 2>&1; then
    out=$("$CR" validate $R3/kernels-*.json.gz --topo hgx-h100-8 --ranks 0 --summary 2>&1); r=$?
    echo "$out" | sed -n 's#^  \([a-z]*\) #check_validate: h100 run-2026-12-06 \1 #p'
    [ $r -eq 0 ] || { echo "$out" | tail -3; echo "check_validate: $R3: exit $r (3 = bound violations)"; fail=1; }
    echo "$out" | grep -q "^  all  *412 " || { echo "check_validate: $R3: expected 412 cases"; fail=1; }
else
    echo "check_validate: $R3 missing"; fail=1
fi

# Issue 15: the L2 in the bound. The hbm family warm (one buffer set back
# to back: what fits stays in the L2) and cold (sets rotating over 512 MiB),
# read, write, copy, add, triad, 1 - 256 MiB, two runs
# (traces/h200-1/cache-2026-12-02, kernels/cache_sweep.sh). Zero impossible
# verdicts: warm cases against the warm bound, cold ones (cache=cold)
# against the cold, HBM-only, bound. Some warm cases are faster than the
# cold bound (cache-resident): without the L2 term they were "impossible".
# A time 10x faster than measured is still impossible for every copy, add
# and triad, but the warm 1 MiB copy (a tenth of 1.18 us is 0.118 us, its
# L2 floor 0.103 us: the bound has no term for a kernel's fixed cost).
# calibrate writes the measured L2 figure.
# cache_verdicts DIR CASES [TOPOLOGY [RANKS [SKIP]]]: DIR's cache sweep
# runs against TOPOLOGY (h200-1; RANKS for one GPU of a larger box): no
# impossible verdict, CASES cases, some cache-resident, and a tenth of
# every copy, add and triad time impossible but the cases SKIP names (an
# awk alternation; the warm 1 MiB copy by default).
# Leaves validate's output in $out.
cache_verdicts() {
    # shellcheck disable=SC2086
    out=$("$CR" validate "$1"/kernels-hbm-cache-run*.json.gz --topo "${3:-h200-1}" ${4:+--ranks $4} 2>&1); r=$?
    [ $r -eq 0 ] || { echo "$out" | grep VIOLATION; echo "check_validate: $1: exit $r (3 = impossible verdicts)"; fail=1; }
    nres=$(echo "$out" | grep -c " cache-resident")
    ncases=$(echo "$out" | grep -c " kernels-hbm-cache-run")
    echo "check_validate: $1: $ncases cases, 0 impossible, $nres cache-resident (below the cold bound only)"
    [ "$ncases" -ge "$2" ] && [ "$nres" -ge 1 ] || { echo "check_validate: $1: expected $2 cases and some cache-resident"; fail=1; }
    # $2 case, $3 bound (warm), $6 measured, $13 bound_cold (impl is two
    # words): warm cases against the warm bound, cold ones the cold bound
    skip=${5:-copy_1MiB_warm}
    slow=$(echo "$out" | awk -v skip="^($skip)\$" '$1 == "hbm" && $2 ~ /^(copy|add|triad)_/ && $2 !~ skip {
        b = $2 ~ /_warm$/ ? $3 : $13; if (!(b + 0 > $6 / 10)) print $2, b, $6 }')
    n10=$(echo "$out" | awk -v skip="^($skip)\$" '$1 == "hbm" && $2 ~ /^(copy|add|triad)_/ && $2 !~ skip' | wc -l)
    if [ -n "$slow" ]; then
        echo "check_validate: $1: 10x faster than measured would pass the bound: $slow"; fail=1
    else
        echo "check_validate: $1: 10x faster than measured is impossible in all $n10 copy/add/triad cases but $skip"
    fi
}
# A later lease's run (traces/h200-1/cache-2026-12-04, one run of 90
# cases), fitted on by nothing.
if ls traces/h200-1/cache-2026-12-04/kernels-hbm-cache-run*.json.gz >/dev/null 2>&1; then
    cache_verdicts traces/h200-1/cache-2026-12-04 90
else
    echo "check_validate: traces/h200-1/cache-2026-12-04 missing"; fail=1
fi
# The same sweep on an H100 (traces/h100-1/cache-2026-12-06, two runs of
# 90 cases) against one GPU of the shipped hgx-h100-8, whose L2 figure
# (20.28 TB/s) no H100 had measured before: out of fit for every bound term.
# There a tenth of the warm 1 MiB add and triad stays just above the bound
# (1.568 us measured, its L2 floor 0.155 us: the bound has no term for a
# kernel's fixed cost, as for the H200's warm 1 MiB copy).
if ls traces/h100-1/cache-2026-12-06/kernels-hbm-cache-run*.json.gz >/dev/null 2>&1; then
    cache_verdicts traces/h100-1/cache-2026-12-06 180 hgx-h100-8 0 "(copy|add|triad)_1MiB_warm"
else
    echo "check_validate: traces/h100-1/cache-2026-12-06 missing"; fail=1
fi
C15=traces/h200-1/cache-2026-12-02
if ls $C15/kernels-hbm-cache-run*.json.gz >/dev/null 2>&1; then
    cache_verdicts $C15 180
    # one of them through check: the 16 MiB warm copy (5.9 us) is
    # cache-resident, a tenth of it impossible (exit 3), and with --cold
    # (a harness that flushes the L2) the measured time itself is impossible
    t16=$(echo "$out" | awk '$2 == "copy_16MiB_warm" { print $6; exit }')
    "$CR" check memcpy --topo h200-1 --bytes 16MiB --measured-us "$t16" | grep -q cache-resident ||
        { echo "check_validate: check memcpy 16MiB $t16 us: not cache-resident"; fail=1; }
    "$CR" check memcpy --topo h200-1 --bytes 16MiB --measured-us "$(echo "$t16" | awk '{print $1 / 10}')" >/dev/null
    [ $? -eq 3 ] || { echo "check_validate: check memcpy 16MiB at a tenth of $t16 us should exit 3"; fail=1; }
    "$CR" check memcpy --topo h200-1 --bytes 16MiB --measured-us "$t16" --cold >/dev/null
    [ $? -eq 3 ] || { echo "check_validate: check --cold memcpy 16MiB $t16 us should exit 3"; fail=1; }
    CAL15=${BUILD:-build}/cal-l2.xml
    if "$CR" calibrate --topo h200-1 --from-traces $C15 -o "$CAL15" >/dev/null 2>&1 &&
        grep -q '<measured[^>]*l2-bw=' "$CAL15"; then
        echo "check_validate: calibrate from $C15 writes $(grep -o 'l2-bw="[^"]*"' "$CAL15" | tail -1)"
    else
        echo "check_validate: calibrate from $C15 wrote no <measured l2-bw>"; fail=1
    fi
else
    echo "check_validate: $C15 missing"; fail=1
fi

# Issue 15, plain PyTorch: 46 eager kernels (elementwise, casts, reductions,
# softmax, norms, cat, gathers, a bf16 GEMM) on 4, 8 and 16 MiB tensors,
# timed back to back in a CUDA graph (warm: what stays in the L2 stays) and
# one call after a 512 MiB flush (cold), kernels/trace_demo/torch_warm.py:
# on the H200 (traces/h200-1/torch-warm-2026-12-02, its cast and gather
# entries corrected 2026-12-06, see its README; torch-warm-2026-12-06) and
# on an H100 (traces/h100-1/torch-warm-2026-12-06, its entries corrected,
# and torch-warm-2026-12-06b from the corrected script, against
# hgx-h100-8's GPU, whose constants no H100 fitted). Each entry names its topology.
# Every warm time against the warm bound and every cold one against the
# cold bound: 0 impossible, and the warm ones include cache-resident times
# (impossible under an HBM-only bound). A tenth of each time is impossible
# wherever the kernel runs within 10x of its bound (at least 100 of the 138
# entries; the rest, reductions, cumsum, transposes, run at under 10% of it).
for P15 in traces/h200-1/torch-warm-2026-12-02 traces/h200-1/torch-warm-2026-12-06 \
    traces/h100-1/torch-warm-2026-12-06 traces/h100-1/torch-warm-2026-12-06b; do
    if ! [ -f $P15/warm.json ] || ! [ -f $P15/cold.json ]; then
        echo "check_validate: $P15 missing"; fail=1; continue
    fi
    tag=$(echo "$P15" | tr '/' '-')
    for h in warm cold; do
        f=; [ $h = cold ] && f=--cold
        "$CR" check --measured-json $P15/$h.json $f >"${BUILD:-build}/$tag-$h.json"; r=$?
        sum=$(tr -d ' \n' <"${BUILD:-build}/$tag-$h.json" | grep -o '"summary":{[^}]*}')
        echo "check_validate: $P15 $h: $sum"
        [ $r -eq 0 ] || { echo "check_validate: $P15 $h: exit $r (3 = impossible verdicts)"; fail=1; }
        echo "$sum" | grep -q '"entries":138,"impossible":0,"errors":0' ||
            { echo "check_validate: $P15 $h: expected 138 entries, 0 impossible, 0 errors"; fail=1; }
        [ $h = warm ] && { echo "$sum" | grep -q '"cache_resident":0,' &&
            { echo "check_validate: $P15 warm: no cache-resident time: the L2 term is not exercised"; fail=1; }; }
        python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in d:
    e["measured_us"] /= 10
json.dump(d, sys.stdout)' $P15/$h.json >"${BUILD:-build}/$tag-$h-10x.json"
        "$CR" check --measured-json "${BUILD:-build}/$tag-$h-10x.json" $f \
            >"${BUILD:-build}/$tag-$h-10x.out"; r=$?
        n=$(tr -d ' \n' <"${BUILD:-build}/$tag-$h-10x.out" | grep -o '"impossible":[0-9]*' | tail -1 | cut -d: -f2)
        echo "check_validate: $P15 $h at a tenth of the measured times: ${n:-?} of 138 impossible (exit $r)"
        [ $r -eq 3 ] && [ "${n:-0}" -ge 100 ] ||
            { echo "check_validate: $P15 $h: a tenth of the times should be impossible for at least 100 entries"; fail=1; }
    done
done

# Two-GPU traces (compressed): no measured time may beat its bound; the
# prediction errors are coll's and only printed (doc/validation.md).
for f in traces/nvidia-h200-x2/kernels-*.json.gz; do
    [ -f "$f" ] || continue
    gzip -dc "$f" | "$CR" validate /dev/stdin --topo hgx-h200-8 --summary >"${BUILD:-build}/validate-x2.txt" 2>&1
    r=$?
    sed -n "s#^  \(nccl\|p2p\) #check_validate: x2 $(basename "$f" .json.gz) &#p" "${BUILD:-build}/validate-x2.txt"
    [ $r -eq 0 ] || { cat "${BUILD:-build}/validate-x2.txt"; echo "check_validate: $f: exit $r"; fail=1; }
done

# Fused operators on two H200s (traces/nvidia-h200-x2/fused.json.gz, 18
# cases: ag_gemm, gemm_rs, gemm_ar x baseline/overlap x 1024^3, 4096^3,
# 8192^3): zero bound violations, all 18 predicted, median |error| <= 10%
# over all and over the held-out cases alone. Fitted on this trace
# (validate.h): the shared overlap slowdown on the three 8192^3 overlap
# cases, the host step on the 1024^3 gemm_rs and gemm_ar baselines; every
# other case is held out (doc/validation.md). A held-out case above 25% is
# printed as a known miss with its reason, not hidden.
FUSED=traces/nvidia-h200-x2/fused.json.gz
if [ -f "$FUSED" ]; then
    FT="${BUILD:-build}/validate-fused.json"
    gzip -dc "$FUSED" >"$FT"
    out=$("$CR" validate "$FT" --topo hgx-h200-8 2>&1); r=$?
    rm -f "$FT"
    [ $r -eq 0 ] || { echo "$out"; echo "check_validate: fused: exit $r (3 = bound violations)"; fail=1; }
    echo "$out" | awk -v max="$MAX_MEDIAN" '
        $1 == "fused" && NF >= 7 && $2 ~ /^[a-z]/ {
            fit = ($2 ~ /overlap_8192x/) || ($2 ~ /^gemm_(rs|ar)_baseline_1024x/)
            e = $8; sub(/^\+/, "", e); e = e + 0; e = e < 0 ? -e : e
            all[na++] = e; if (!fit) { held[nh++] = e; if (e > 25) miss[nm++] = $2 " " $8 "%" }
        }
        $1 == "fused" && NF == 7 { viol = $7 + 0 }
        function med(v, n,   i, j, t) {
            for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            return n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
        }
        END {
            ma = med(all, na); mh = med(held, nh)
            printf "check_validate: x2 fused: %d cases, %d violations, median |err| %.1f%% (held-out %d: %.1f%%): %s\n", na, viol, ma, nh, mh, (na == 18 && viol == 0 && ma <= max && mh <= max) ? "ok" : "FAILED"
            for (i = 0; i < nm; i++) printf "check_validate: x2 fused: known miss %s: the host issues ag_gemm'"'"'s allgather-first iteration slower than one step per GPU (doc/validation.md)\n", miss[i]
        }' >"${BUILD:-build}/validate-fused.txt"
    cat "${BUILD:-build}/validate-fused.txt"
    grep -q FAILED "${BUILD:-build}/validate-fused.txt" && fail=1
    grep -q "cases" "${BUILD:-build}/validate-fused.txt" || { echo "check_validate: fused: no summary"; fail=1; }
else
    echo "check_validate: $FUSED missing"; fail=1
fi

# One process per GPU (torchrun, traces/nvidia-h200-x2/torchrun-nccl-rank*):
# validate combines the two ranks' traces of each case (per iteration, the
# last end less the last rank's start; doc/validation.md): 55 merged cases,
# zero bound violations, median |err| <= 10% over all 55 and over the 25
# cases of 4 MiB and more (tests/check_coll_traces.sh gates all 55 at 10%: coll models the
# process layout since d6313ea; 54.3% before). One rank alone must be
# noted, not silently merged.
R0=traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz
R1=traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz
if [ -f "$R0" ] && [ -f "$R1" ]; then
    # .json.gz read directly (the ranks from the traces' metadata)
    out=$("$CR" validate "$R0" "$R1" --topo hgx-h200-8 2>&1); r=$?
    one=$("$CR" validate "$R0" --topo hgx-h200-8 --summary 2>&1)
    [ $r -eq 0 ] || { echo "$out" | sed -n '/summary per family/,$p'; echo "check_validate: torchrun: exit $r (3 = bound violations)"; fail=1; }
    echo "$out" | grep -q "55 case(s) combined over the traces of up to 2 ranks" || { echo "check_validate: torchrun: the two ranks were not combined into 55 cases"; fail=1; }
    echo "$one" | grep -q "note: 55 case(s) from one rank" || { echo "check_validate: torchrun: rank 0 alone is not noted"; fail=1; }
    echo "$out" | awk -v max="$MAX_MEDIAN" '
        $1 == "nccl" && NF >= 9 && $2 ~ /^[a-z]/ {
            e = $8; sub(/^\+/, "", e); e = e + 0; e = e < 0 ? -e : e
            sz = $2; sub(/.*_/, "", sz); big = sz ~ /(4|16|64|256)MiB$|GiB$/
            all[na++] = e; if (big) large[nl++] = e
        }
        $1 == "nccl" && NF == 7 { viol = $7 + 0 }
        function med(v, n,   i, j, t) {
            for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            return n % 2 ? v[int(n / 2)] : (v[n / 2 - 1] + v[n / 2]) / 2
        }
        END {
            ma = med(all, na); ml = med(large, nl)
            printf "check_validate: x2 torchrun: %d merged cases, %d violations, median |err| %.1f%%; >= 4 MiB (%d cases) %.1f%%: %s\n", na, viol, ma, nl, ml, (na == 55 && viol == 0 && nl == 25 && ml <= max && ma <= max) ? "ok" : "FAILED"
        }' >"${BUILD:-build}/validate-torchrun.txt"
    cat "${BUILD:-build}/validate-torchrun.txt"
    grep -q FAILED "${BUILD:-build}/validate-torchrun.txt" && fail=1
    grep -q "merged cases" "${BUILD:-build}/validate-torchrun.txt" || { echo "check_validate: torchrun: no summary"; fail=1; }
else
    echo "check_validate: $R0 or $R1 missing"; fail=1
fi

# nccl-tests logs (tests/fixtures/nccl-tests, written in the published
# layouts: 2.11+ with the root column and "#wrong", 2.10 and earlier
# without root and with "error", one process driving 8 GPUs, mpirun's one
# process per GPU, two tests and NCCL_DEBUG lines in one log; pasted-*:
# as published with launcher prefixes, lost '#', no or too few rank lines,
# NCCL_DEBUG output inside a row): each must
# yield one case per result row (rows counted here from the text: lines
# that start with two whole numbers and are not NCCL_DEBUG output), on the
# topology its name says (the H100 ones on h100-ib-4n: the pasted logs run
# 16 ranks over two nodes, and a case with more ranks than the topology
# has GPUs goes unchecked); bad-* must fail with exit 1.
for f in tests/fixtures/nccl-tests/*.log; do
    [ -f "$f" ] || continue
    case "$(basename "$f")" in a100*) nt=dgx-a100-8 ;; *) nt=h100-ib-4n ;; esac
    out=$("$CR" validate --nccl-tests "$f" --topo $nt --summary 2>&1)
    r=$?
    case "$f" in
    *bad*) [ $r -eq 1 ] || { echo "check_validate: $f should fail with exit 1, got $r"; fail=1; } ;;
    *)
        # launcher prefixes off first (srun -l "0: ", mpirun "[1,0]<stdout>:");
        # a test that is not a collective (hypercube_perf) has no cases
        rows=$(sed -e 's/\[[0-9]*,[0-9]*\]<std[a-z]*>://g' -e 's/^ *[0-9][0-9]*: //' "$f" |
            awk '/^# Collective test starting:/ {
                     skip = $5 !~ /^(all_reduce|all_gather|reduce_scatter|alltoall|broadcast|reduce|sendrecv|gather|scatter)_perf/ }
                 /^ *[0-9][0-9]* +[0-9][0-9]* / && !skip { n++ }
                 END { print n + 0 }')
        got=$(echo "$out" | awk '$1 == "nccl" && NF == 7 {print $2}')
        if { [ $r -eq 0 ] || [ $r -eq 3 ]; } && [ "$got" = "$rows" ]; then
            echo "check_validate: nccl-tests $(basename "$f"): $got of $rows rows read on $nt"
        else
            echo "$out"; echo "check_validate: $f: exit $r, $got cases for $rows result rows"; fail=1
        fi ;;
    esac
done
# calibrate from the committed traces: the written topology passes the
# checker, carries ops' parameters, and validates the same sweep with no
# violation and no case beating its (now exact) ceilings.
CAL="${BUILD:-build}/validate-calibrated.xml"
if "$CR" calibrate --topo h200-1 --from-traces traces/h200-1/ -o "$CAL" >/dev/null 2>&1; then
    "$CR" topo check "$CAL" >/dev/null 2>&1 || { echo "check_validate: calibrated topology fails topo check"; fail=1; }
    for k in ops.hbm.read_eff ops.hbm.turn ops.kernel.fixed ops.launch.graph ops.tma.sm_bw; do
        grep -q "key=\"$k\"" "$CAL" || { echo "check_validate: calibrate did not write $k"; fail=1; }
    done
    out=$("$CR" validate $TRACES --topo "$CAL" --summary --max-median-error $MAX_MEDIAN 2>&1); r=$?
    if [ $r -ne 0 ] || echo "$out" | grep -q "faster than the attainable"; then
        echo "$out" | sed -n '/summary per family/,$p'; echo "check_validate: calibrated topology: exit $r"; fail=1
    else
        echo "check_validate: calibrated h200-1 (from the traces): $(echo "$out" | awk '$1 == "all" {print "median |err| " $4 "%, p90 " $5 "%"}')"
    fi
else
    echo "check_validate: calibrate --from-traces failed"; fail=1
fi
# calibrate from the two-GPU folder (compressed traces, the torchrun ranks
# combined as validate does, fused-measured.json beside them is not a trace
# and is reported): coll's mechanism parameters from the p2p trace, on the
# imported topology of that machine; the p2p cases then validate with no
# violation.
X2T="${BUILD:-build}/validate-x2-topo.xml" X2C="${BUILD:-build}/validate-x2-calibrated.xml"
if "$CR" topo import-nccl traces/nvidia-h200-x2/nccl-topo.xml -o "$X2T" >/dev/null 2>&1 &&
    msg=$("$CR" calibrate --topo "$X2T" --from-traces traces/nvidia-h200-x2 -o "$X2C" 2>&1); then
    for k in mech.ce.eff mech.tma.eff mech.tma.sms mech.ldst.sms; do
        grep -q "key=\"$k\"" "$X2C" || { echo "check_validate: calibrate (x2) did not write $k"; fail=1; }
    done
    echo "$msg" | grep -q "1 file(s) of the folder(s) given are not traces.*fused-measured.json" ||
        { echo "$msg"; echo "check_validate: calibrate (x2) did not report fused-measured.json"; fail=1; }
    out=$("$CR" validate traces/nvidia-h200-x2/kernels-p2p.json.gz --topo "$X2C" --summary 2>&1); r=$?
    [ $r -eq 0 ] || { echo "$out"; echo "check_validate: p2p on the calibrated x2 topology: exit $r"; fail=1; }
    echo "check_validate: calibrated x2 (from the traces): p2p $(echo "$out" | awk '$1 == "p2p" {print "median |err| " $4 "%, p90 " $5 "%, " $7 " violations"}')"
    # calibrate divides a measured copy rate by the link the prediction
    # multiplies (NVLink's 450 GB/s, not the 513 of NVLink + PCIe): the
    # 1 GiB copy-engine copy in 2703 us is 397.2 GB/s = 0.883 of 450, and
    # the calibrated predictions then agree as the shipped ones do (median
    # 4.4%; 8.8% when calibrate divided by 513).
    ce=$(sed -n 's/.*key="mech.ce.eff" value="\([^"]*\)".*/\1/p' "$X2C")
    med=$(echo "$out" | awk '$1 == "p2p" {print $4}')
    awk -v e="$ce" -v m="$med" 'BEGIN { exit !(e > 0.874 && e < 0.892 && m <= 6) }' ||
        { echo "check_validate: calibrated x2: mech.ce.eff $ce (want 0.883 +- 1%), p2p median $med% (want <= 6%)"; fail=1; }
else
    echo "$msg"; echo "check_validate: calibrate --from-traces traces/nvidia-h200-x2 failed"; fail=1
fi
# The torchrun ranks alone hold only NCCL cases: calibrate reads and merges
# them, then says that NCCL's constants are not its to fit (exit 1, no file).
TRC="${BUILD:-build}/validate-torchrun-cal.xml"
rm -f "$TRC"
msg=$("$CR" calibrate --topo hgx-h200-8 --from-traces traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz \
    traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz -o "$TRC" 2>&1); r=$?
if [ $r -ne 1 ] || [ -e "$TRC" ] || ! echo "$msg" | grep -q "nccl and fused cases calibrate nothing"; then
    echo "$msg"; echo "check_validate: calibrate on the torchrun ranks: exit $r (want 1, the NCCL note, no file)"; fail=1
fi
# Bad input: exit status and the message name the file and what is wrong.
BADT="${BUILD:-build}/validate-bad"
mkdir -p "$BADT"
echo "hello" >"$BADT/text.json"
head -c 4000 traces/nvidia-h200-x2/kernels-p2p.json.gz >"$BADT/cut.json.gz"
bad() { # bad WANT-RC PATTERN validate-args...
    want=$1 pat=$2; shift 2
    m=$("$CR" validate "$@" 2>&1); r=$?
    if [ $r -ne "$want" ] || ! echo "$m" | grep -q "$pat"; then
        echo "$m"; echo "check_validate: validate $*: exit $r (want $want, message matching \"$pat\")"; fail=1
    fi
}
bad 1 "no-such.json: cannot open: No such file" "$BADT/no-such.json" --topo h200-1
bad 1 "text.json:1: not a trace" "$BADT/text.json" --topo h200-1
bad 1 "cut.json.gz: not a valid gzip file" "$BADT/cut.json.gz" --topo h200-1
mkdir -p "$BADT/empty"
bad 1 "empty: no trace file" "$BADT/empty" --topo h200-1
bad 1 "no-such.log: cannot open" --nccl-tests "$BADT/no-such.log" --topo h200-1
bad 2 "unknown option" traces/h200-1/kernels-hbm.json --bogus
# A trace cut before its closing bracket (the traced process killed) is read
# up to its last whole event and reported, not silently taken as complete.
head -c 300000 traces/h200-1/kernels-hbm.json >"$BADT/cut.json"
bad 0 "1 trace file(s) end before their closing bracket" "$BADT/cut.json" --topo h200-1 --summary
rm -rf "$BADT"
"$CR" validate >/dev/null 2>&1; [ $? -eq 2 ] || { echo "check_validate: no input should be a usage error (2)"; fail=1; }
"$CR" validate traces/h200-1/kernels-hbm.json --topo nope >/dev/null 2>&1; [ $? -eq 1 ] || { echo "check_validate: unknown topology should exit 1"; fail=1; }
"$CR" validate traces/h200-1/kernels-hbm.json --topo h200-1 --subset third >/dev/null 2>&1; [ $? -eq 2 ] || { echo "check_validate: --subset third should be a usage error (2)"; fail=1; }
# The halves partition each family: even + odd cases = all cases.
n_all=$("$CR" validate traces/h200-1/kernels-mech.json --topo h200-1 --summary | awk '$1 == "mech" {print $2}')
n_even=$("$CR" validate traces/h200-1/kernels-mech.json --topo h200-1 --summary --subset even | awk '$1 == "mech" {print $2}')
n_odd=$("$CR" validate traces/h200-1/kernels-mech.json --topo h200-1 --summary --subset odd | awk '$1 == "mech" {print $2}')
[ "$n_all" = 152 ] && [ "$n_even" = 76 ] && [ "$n_odd" = 76 ] || { echo "check_validate: mech halves $n_even + $n_odd, all $n_all (want 76 + 76 = 152)"; fail=1; }
[ $fail -eq 0 ] && echo "check_validate: OK"
exit $fail
