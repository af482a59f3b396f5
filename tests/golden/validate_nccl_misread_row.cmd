# a row read at the wrong columns is refused, not used: nccl-tests prints
# algbw = size / time, so a row with a column lost (here its type: the
# time column then holds the algbw) or a mistyped size disagrees with its
# own algbw beyond rounding; file:line, the numbers, exit 1
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
sed '20s/ float / /' "$L" > "$d/lost-all_reduce_perf.log"
$CR validate --nccl-tests "$d/lost-all_reduce_perf.log" --topo hgx-h100-8 > "$d/out" 2>&1
echo "exit $?"
sed "s|$d/||" "$d/out"
sed '27s/  1073741824 /   107374182 /' "$L" > "$d/typo-all_reduce_perf.log"
$CR validate --nccl-tests "$d/typo-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||"
# a time beyond a million seconds (1e30 us) is refused too
sed '28s/41543.93/1e30/' "$L" > "$d/huge-all_reduce_perf.log"
$CR validate --nccl-tests "$d/huge-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||"
