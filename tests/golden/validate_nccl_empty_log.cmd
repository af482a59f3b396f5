# a log that gives no case says why, naming itself: a header and no rows
# (the message was about NVTX ranges in traces), or only a test commroof
# does not model; exit 1
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
head -17 tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log > "$d/hdr-all_reduce_perf.log"
$CR validate --nccl-tests "$d/hdr-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
sed 's/all_reduce_perf$/hypercube_perf/' tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log > "$d/hc.log"
$CR validate --nccl-tests "$d/hc.log" --topo hgx-h100-8 > "$d/out" 2>&1
echo "exit $?"
sed "s|$d/||g" "$d/out"
