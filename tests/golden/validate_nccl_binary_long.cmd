# a log that is not text (UTF-16, binary) says so with what to do, where
# it was reported as a line longer than 4095 characters; an overlong
# comment line (an environment dump) is left out, not fatal
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
iconv -t utf-16 "$L" > "$d/u16-all_reduce_perf.log"
$CR validate --nccl-tests "$d/u16-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
{ printf '# env: '; head -c 5000 /dev/zero | tr '\0' x; echo; cat "$L"; } > "$d/long-all_reduce_perf.log"
$CR validate --nccl-tests "$d/long-all_reduce_perf.log" --topo hgx-h100-8 --summary | grep "^  all"
# a size beyond 1 PB is refused at its line; a log retyped with tabs reads
# as the spaced one (its "Collective test starting" line included)
sed "20s/^         512 /99999999999999999999999 /" "$L" > "$d/big-all_reduce_perf.log"
$CR validate --nccl-tests "$d/big-all_reduce_perf.log" --topo hgx-h100-8 2>&1 | sed "s|$d/||g"
sed 's/ \+/\t/g' "$L" > "$d/tabs.log"
$CR validate --nccl-tests "$d/tabs.log" --topo hgx-h100-8 --summary | grep "^  all"
