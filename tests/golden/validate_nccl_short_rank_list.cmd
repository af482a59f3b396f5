# a rank list cut short is not taken as the rank count: a broadcast log
# (busbw = algbw says nothing) whose list kept one of the 8 ranks its
# "nGpus 8" line runs, and an allreduce whose 5 rank lines disagree with
# busbw/algbw (7 to 10 ranks) are refused with what to give; --ranks
# settles it. Rows pasted with no-break spaces read as rows; a row whose
# element count is lost is refused, not skipped
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
grep -v "Rank  *[1-9]" validate/corpus/a100-8/superbench-a100-broadcast_perf.log > "$d/one-broadcast_perf.log"
$CR validate --nccl-tests "$d/one-broadcast_perf.log" --topo dgx-a100-8 2>&1 | sed "s|$d/||g"
$CR validate --nccl-tests "$d/one-broadcast_perf.log" --topo dgx-a100-8 --ranks 0-7 --summary | grep "^  all"
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
sed -n '1,8p;13,17p;21p' "$L" > "$d/cut-all_reduce_perf.log"
$CR validate --nccl-tests "$d/cut-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
sed '20,22s/^    /\xc2\xa0\xc2\xa0  /' "$L" > "$d/nbsp-all_reduce_perf.log"
$CR validate --nccl-tests "$d/nbsp-all_reduce_perf.log" --topo hgx-h100-8 --summary | grep "^  all"
sed '20s/           128 / /' "$L" > "$d/nocount-all_reduce_perf.log"
$CR validate --nccl-tests "$d/nocount-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
