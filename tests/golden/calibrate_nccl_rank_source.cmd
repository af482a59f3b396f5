# calibrate --nccl-tests says where each log's collective and rank count
# came from, as validate does (QA audit of pasted logs: it said nothing,
# so a pasted table whose rank list was cut short, or missing, was fitted
# at a rank count the user never saw). The Snellius 1-node all_reduce
# (corpus fitting half, 4 ranks) with its rank list cut to rank 0, and its
# all_gather without rank lines or "Collective test starting" line (the
# file name gives it): busbw/algbw says 4 for both (all_reduce 2(n-1)/n =
# 1.5, all_gather (n-1)/n = 0.75).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
C=validate/corpus/h100x4-1/odissei-snellius-1n
T=validate/corpus/topologies/snellius-h100x4-ib.xml
grep -v '#  Rank  [123]' $C-all_reduce_perf.log > "$d/short.log"
grep -v -e '#  Rank' -e 'Collective test starting' $C-all_gather_perf.log > "$d/x-all_gather_perf.log"
$CR calibrate --nccl-tests "$d/short.log" "$d/x-all_gather_perf.log" --topo $T -o "$d/out.xml" 2>&1 | sed "s|$d/|TMP/|g" | grep "^# nccl-tests"
$CR validate --nccl-tests "$d/short.log" --nccl-tests "$d/x-all_gather_perf.log" --topo $T --summary 2>&1 | sed "s|$d/|TMP/|g" | grep "^# nccl-tests"
