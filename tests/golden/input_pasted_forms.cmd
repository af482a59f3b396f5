# Inputs as people pass them on (QA audit of 2026-12-06), each read as the
# original is: an nccl-tests -J JSON file behind a UTF-8 byte-order mark and
# blank lines (it was read as a text log and refused for its long line); a
# text log with a 6 KB NCCL_DEBUG channel list among its rows (an overlong
# line that is no row: left out, it used to abort the log); a
# --measured-json file behind a byte-order mark ("found byte 0xef"). A
# trace gzipped twice is refused saying so (it said "found '?'").
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
t() {
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed "s|$d/|TMP/|g"
    echo "exit $rc"
}
{ printf '\357\273\277\n\n  '; cat tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json; } >"$d/bom.json"
t $CR validate --nccl-tests "$d/bom.json" --topo hgx-h100-8 --summary
{ head -12 $L; printf 'node-a00:41000:41000 [0] NCCL INFO Channel 00/32 :'; i=0; while [ $i -lt 1500 ]; do printf ' %d' $i; i=$((i + 1)); done; echo; tail -n +13 $L; } >"$d/longdbg_all_reduce_perf.log"
t $CR validate --nccl-tests "$d/longdbg_all_reduce_perf.log" --topo hgx-h100-8 --summary
# the same line where a row should be (it starts with a size): refused
{ head -26 $L; printf '1048576'; i=0; while [ $i -lt 1500 ]; do printf ' %d' $i; i=$((i + 1)); done; echo; } >"$d/longrow_all_reduce_perf.log"
t $CR validate --nccl-tests "$d/longrow_all_reduce_perf.log" --topo hgx-h100-8 --summary
{ printf '\357\273\277'; cat tests/fixtures/check/bulk_ok.json; } >"$d/bulk.json"
out=$($CR check --measured-json "$d/bulk.json" 2>&1)
echo "exit $?"
printf '%s\n' "$out" | grep -E '"(name|verdict)"'
gzip -c tests/fixtures/roofline/zero_duration.json | gzip -c >"$d/twice.json.gz"
t $CR trace summary "$d/twice.json.gz"
