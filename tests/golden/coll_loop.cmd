# coll --loop N predicts what nccl-tests prints (its host-timed loop of N
# operations over N), as validate predicts a log's rows: the two commands
# must agree size for size. Without it, coll --ranks-per-process 8 priced
# one operation launched from one thread (the launch gap for each extra
# GPU): 50.81 us for SuperBench's -g 8 broadcast on 8 A100 at 4-32 B, where
# validate says 33.92 (the log: 33.96-35.24 us) (QA audit of calibrate,
# finding 4). The logs below are of each kind the corpus holds: -g 8 and
# -g 1, one node and several (with --ranks and the NCCL release
# topologies.txt gives), rooted (broadcast, reduce) and point-to-point
# (alltoall, sendrecv), and nccl-tests releases before 2.13.12, whose
# smallest rows split a buffer into parts the newest rounding does not
# (--nccl-tests-version).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
c=validate/corpus
# $1 log, $2 topology, $3 validate's options (as topologies.txt gives them),
# $4 collective, $5 first size, $6 last, rest: coll's options (what the log
# and topologies.txt say, in coll's words)
agree() {
    log=$1 topo=$2 vopts=$3 coll=$4 lo=$5 hi=$6
    shift 6
    # shellcheck disable=SC2086 # vopts is a list of options
    $CR validate --nccl-tests "$log" --topo "$topo" $vopts 2>/dev/null |
        awk -v lo="$lo" -v hi="$hi" '$1 == "nccl" && $2 ~ /_n=/ { n = split($2, a, "_"); b = a[n]; m = 1;
            if (b ~ /KiB$/) m = 1024; if (b ~ /MiB$/) m = 1048576; if (b ~ /GiB$/) m = 1073741824;
            sub(/[KMG]iB$|B$/, "", b); b *= m; if (b >= lo && b <= hi && $5 != "-") printf "%.0f %s\n", b, $5 }' > "$d/v"
    # pred_us is the 6th column, the 7th where the topology's measured
    # ceilings add attain_us
    $CR coll "$coll" --topo "$topo" -b "$lo" -e "$hi" "$@" |
        awk '/^# .*pred_us/ { p = /attain_us/ ? 7 : 6 } !/^#/ { print $1, $p }' > "$d/c"
    echo "$(basename "$log") ($*): $(wc -l < "$d/v") sizes of validate, $(wc -l < "$d/c") of coll"
    # coll prints two decimals, validate three: agree within half a hundredth;
    # a size of the log that coll's sweep does not run is named
    awk 'FNR == NR { v[$1] = $2; o[++k] = $1; next } { c[$1] = 1 } ($1 in v) { n++; d = v[$1] - $2; if (d < 0) d = -d;
            if (d > 0.0051) { bad++; print "  differ at " $1 ": validate " v[$1] ", coll " $2 } }
        END { for (i = 1; i <= k; i++) if (!((s = o[i]) in c)) { miss++; print "  coll runs no size " s " B (validate predicts " v[s] " us)" }
              printf "  %d of %d sizes agree within 0.005 us%s\n", n - bad, n, miss ? ", " miss " not run" : "" }' "$d/v" "$d/c"
}
# one node, -g 8, rooted
agree $c/a100-8/superbench-a100-broadcast_perf.log dgx-a100-8 "" broadcast 4 1073741824 --ranks-per-process 8 --loop 20
# one node, -g 1
agree $c/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf.log hgx-h100-8 "" allreduce 8 17179869184 --loop 20
# 4 nodes, -g 1, rooted: reduce on 32 ranks
agree $c/h100-ib-4n/vpbench-4n-reduce_perf.log h100-ib-4n "" reduce 8 8589934592 --loop 20 --nccl-version 2.24.3
# 4 nodes, point-to-point: sendrecv on the first 32 of 64 B200 (NCCL
# 2.29.7 as the log prints it)
agree $c/b200-ib-4n/together-b200-4n-sendrecv_perf.log $c/topologies/together-b200-ib.xml "--ranks 0-31" \
    sendrecv 1024 268435456 --ranks 0-31 --loop 20 --nccl-version 2.29.7
# an nccl-tests before 2.13.12: 8 H100, -g 8, -n 100, alltoall of 32 B is 1 fp32
# element a rank (count 1), which 2.13.12 and later run as 0 B: without
# --nccl-tests-version coll runs neither 32 nor 64 B
agree $c/h100-8/sakura-llmjp-h100-1n-alltoall_perf.log hgx-h100-8 "--nccl-version 2.22.3" \
    alltoall 8 268435456 --ranks-per-process 8 --loop 100 --nccl-version 2.22.3
agree $c/h100-8/sakura-llmjp-h100-1n-alltoall_perf.log hgx-h100-8 "--nccl-version 2.22.3" \
    alltoall 8 268435456 --ranks-per-process 8 --loop 100 --nccl-version 2.22.3 --nccl-tests-version 2.13.11
# before 2.13.4 allgather's parts were whole elements too (then 4 elements)
agree $c/a100-8/superbench-a100-all_gather_perf.log dgx-a100-8 "" allgather 4 1073741824 \
    --ranks-per-process 8 --loop 20 --nccl-tests-version 2.13.3
# 2 nodes, -g 1, alltoall on 16 ranks of an older nccl-tests
agree $c/a100-ib-2n/alcf-sophia-n2-env2-alltoall_perf.log $c/topologies/sophia-dgx-a100-ib.xml \
    "--nccl-version 2.22.3" alltoall 4 1073741824 --ranks 0-15 --loop 20 --nccl-version 2.22.3 \
    --nccl-tests-version 2.13.3
# one operation, as before (no --loop): the -g 8 broadcast from one thread's launches
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --ranks-per-process 8 | grep -v "^#"
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --ranks-per-process 8 --loop 20 | grep "^# pred: nccl"
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --loop 20 --json | grep '"loop_ops"'
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --loop 0 2>&1
echo "exit $?"
# the release's rounding in the header and JSON; a release not written as one
$CR coll allgather --topo dgx-a100-8 -b 32 -e 32 --nccl-tests-version 2.13.3 | grep -E "^# sizes|^ "
$CR coll allgather --topo dgx-a100-8 -b 32 -e 32 --nccl-tests-version 2.13.3 --json | grep '"nccl_tests_version"'
$CR coll allgather --topo dgx-a100-8 -b 32 -e 32 --nccl-tests-version 2.13 2>&1
echo "exit $?"
