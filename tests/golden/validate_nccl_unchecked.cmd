# a log whose every case the topology cannot judge (16 ranks on an 8-GPU
# box) is not "OK": the summary says how many cases went unchecked and why,
# and the exit is 1; a --json run counts them too
$CR validate --nccl-tests validate/corpus/a100-ib-2n/abci2-2n-all_reduce_perf.log --topo dgx-a100-8 | tail -1
$CR validate --nccl-tests validate/corpus/a100-ib-2n/abci2-2n-all_reduce_perf.log --topo dgx-a100-8 --json > /dev/null
echo "exit $?"
$CR validate --nccl-tests validate/corpus/a100-ib-2n/abci2-2n-all_reduce_perf.log --topo dgx-a100-8 --json | grep '"unchecked"'
# a log of another collective than --coll says (busbw/algbw fits no rank
# count of it) is refused, rank lines or not
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat validate/corpus/a100-8/superbench-a100-all_gather_perf.log validate/corpus/a100-8/superbench-a100-all_reduce_perf.log > "$d/two.log"
$CR validate --nccl-tests "$d/two.log" --topo dgx-a100-8 --coll all_gather 2>&1 | sed "s|$d/||"
