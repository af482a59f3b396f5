# A log captured from a coloured terminal: the 2 MiB row painted whole
# (ESC[32m ... ESC[0m), the 262144 row's out-of-place time painted alone
# (ESC[1;31m), every line ending in CR LF. It reads as the plain log: the
# same cases, the same times (before: the painted row went silently and the
# painted time stopped the log, "need a time").
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
cp "$L" "$d/plain-all_reduce_perf.log"
E=$(printf '\033')
sed -e "s/^\( *2097152 .*\)\$/${E}[32m\\1${E}[0m/" -e "s/ 19\\.27 / ${E}[1;31m19.27${E}[0m /" -e 's/$/\r/' "$L" > "$d/paint-all_reduce_perf.log"
grep -c "$E" "$d/paint-all_reduce_perf.log"
$CR validate --topo hgx-h100-8 --nccl-tests "$d/plain-all_reduce_perf.log" | sed 's/plain-all/X-all/' > "$d/plain.txt"
$CR validate --topo hgx-h100-8 --nccl-tests "$d/paint-all_reduce_perf.log" | sed 's/paint-all/X-all/' > "$d/paint.txt"
grep -c "allreduce_n=8" "$d/paint.txt"
diff "$d/plain.txt" "$d/paint.txt" && echo "same cases and times as the plain log"
