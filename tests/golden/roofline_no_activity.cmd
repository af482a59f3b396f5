# roofline of traces with no GPU activity: no table and exit 1 (it printed
# an empty table, exit 0, which passes a harness's gate on nothing): a
# trace of zero events, one cut short before its first kernel (named), and
# one whose only activity is in a cr: range validate skips (its reason);
# stdout stays empty, --json too
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '{"traceEvents":[]}\n' > "$d/zero.json"
printf '{"traceEvents":[\n{"ph":"X","cat":"nvtx","pid":100099,"tid":7,"ts":0,"dur":200,"name":"aten::mm, seq = 0, op_id = 1, sizes = [[8, 8], [8, 8]]","args":{"device":-1}},\n{"ph":"X","cat":"ker' > "$d/cut.json"
for f in zero cut; do
    $CR roofline "$d/$f.json" --topo h200-1 --json > "$d/out" 2> "$d/err"
    echo "exit $?, $(wc -c < "$d/out") bytes on stdout"
    sed "s|$d/||g" "$d/err"
done
$CR roofline tests/fixtures/roofline/cr_case_unsplit.json "$d/zero.json" --topo h200-1 > /dev/null
echo "exit $?"
head -6 tests/fixtures/roofline/cr_case_unsplit.json > "$d/skip.json"
echo ']}' >> "$d/skip.json"
$CR roofline "$d/skip.json" --topo h200-1 2>&1 | sed "s|$d/||g"
