# one log given twice (the same file under a second name too) would count
# its rows twice, and calibrate's leave-one-log-out check would judge a fit
# on its own rows; -o naming an input would replace the log by XML: each
# is a usage error, and the input is left as it was
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
cp "$L" "$d/a-all_reduce_perf.log"
ln "$d/a-all_reduce_perf.log" "$d/b-all_reduce_perf.log"
$CR calibrate --nccl-tests "$L" "$L" --topo hgx-h100-8 -o "$d/out.xml" 2>&1 | sed "s|$d/||g"
$CR calibrate --nccl-tests "$d/a-all_reduce_perf.log" "$d/b-all_reduce_perf.log" --topo hgx-h100-8 -o "$d/out.xml" 2>&1 | sed "s|$d/||g"
$CR calibrate --nccl-tests "$d/a-all_reduce_perf.log" --topo hgx-h100-8 -o "$d/a-all_reduce_perf.log" 2>&1 | sed "s|$d/||g"
cmp -s "$L" "$d/a-all_reduce_perf.log" && echo "the log is untouched"
$CR validate --nccl-tests "$L" --nccl-tests "$L" --topo hgx-h100-8 2>&1
echo "exit $?"
# a copy of the log under another name (QA audit, session 42: its rows
# counted twice, and the cross-check called each copy held out, 10.3 ->
# 1.8 % "after", an in-sample figure): refused as the same file is
cp "$L" "$d/copy-all_reduce_perf.log"
$CR calibrate --nccl-tests "$L" "$d/copy-all_reduce_perf.log" --topo hgx-h100-8 -o "$d/out.xml" 2>&1 | sed "s|$d/||g"
$CR validate --nccl-tests "$L" --nccl-tests "$d/copy-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
test -e "$d/out.xml" && echo "out.xml written" || echo "nothing written"
