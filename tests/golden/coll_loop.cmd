# coll --loop N predicts what nccl-tests prints (its host-timed loop of N
# operations over N), as validate predicts a log's rows: the two commands
# must agree size for size. Without it, coll --ranks-per-process 8 priced
# one operation launched from one thread (the launch gap for each extra
# GPU): 50.81 us for SuperBench's -g 8 broadcast on 8 A100 at 4-32 B, where
# validate says 33.92 (the log: 33.96-35.24 us) (QA audit of calibrate,
# finding 4).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
agree() { # $1 log, $2 topology, $3 coll, $4 first size, $5 last, rest: coll options
    log=$1 topo=$2 coll=$3 lo=$4 hi=$5
    shift 5
    $CR validate --nccl-tests "$log" --topo "$topo" 2>/dev/null |
        awk -v lo="$lo" -v hi="$hi" '$1 == "nccl" { split($2, a, "_"); b = a[3]; m = 1;
            if (b ~ /KiB$/) m = 1024; if (b ~ /MiB$/) m = 1048576; if (b ~ /GiB$/) m = 1073741824;
            sub(/[KMG]iB$|B$/, "", b); b *= m; if (b >= lo && b <= hi && $5 != "-") printf "%.0f %s\n", b, $5 }' > "$d/v"
    $CR coll "$coll" --topo "$topo" -b "$lo" -e "$hi" "$@" | awk '!/^#/ { print $1, $6 }' > "$d/c"
    echo "$(basename "$log") ($*): $(wc -l < "$d/v") sizes of validate, $(wc -l < "$d/c") of coll"
    # coll prints two decimals, validate three: agree within half a hundredth
    awk 'FNR == NR { v[$1] = $2; next } ($1 in v) { n++; d = v[$1] - $2; if (d < 0) d = -d;
            if (d > 0.0051) { bad++; print "  differ at " $1 ": validate " v[$1] ", coll " $2 } }
        END { printf "  %d of %d sizes agree within 0.005 us\n", n - bad, n }' "$d/v" "$d/c"
}
agree validate/corpus/a100-8/superbench-a100-broadcast_perf.log dgx-a100-8 broadcast 4 1073741824 --ranks-per-process 8 --loop 20
agree validate/corpus/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf.log hgx-h100-8 allreduce 8 17179869184 --loop 20
# one operation, as before (no --loop): the -g 8 broadcast from one thread's launches
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --ranks-per-process 8 | grep -v "^#"
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --ranks-per-process 8 --loop 20 | grep "^# pred: nccl"
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --loop 20 --json | grep '"loop_ops"'
$CR coll broadcast --topo dgx-a100-8 -b 4 -e 4 --loop 0 2>&1
echo "exit $?"
