# A trace recorded with COMMROOF_TRACE_RECORD=kernel (the tracer's knob for
# launch-bound programs, traces/h100-1/cupti-kinds-2026-12-06) has no
# copies: roofline, validate and trace summary say so (metadata.recorded)
# instead of leaving aten::copy_ out without a word, as if it never ran.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
grep -v '"cat":"memcpy"' tests/fixtures/roofline/torch_block.json |
    sed 's/"dropped_records":0,/"dropped_records":0,"recorded":["kernel"],/' > "$d/k.json"
$CR roofline "$d/k.json" --topo hgx-h200-8 > "$d/out"
echo "exit $?"
sed "s|$d/||g" "$d/out" | grep -v '^#   save'
$CR roofline "$d/k.json" --topo hgx-h200-8 --json | sed "s|$d/||g" | grep '"unrecorded\|"first_unrecorded'
$CR trace summary "$d/k.json" | sed "s|$d/||g" | sed -n '2,6p'
$CR trace summary "$d/k.json" --json | grep "\"recorded\""
# validate times a crbench case by every activity of its range: a copy
# case without its copies would be timed by its check kernels, so the
# cases of such a trace are skipped, each saying why (exit 1: none left)
grep -v '"cat":"memcpy"' traces/h200-1/kernels-ce.json |
    sed 's/"dropped_records":\([0-9]*\),/"dropped_records":\1,"recorded":["kernel","memset"],/' > "$d/ce.json"
$CR validate "$d/ce.json" --topo h200-1 > "$d/v" 2>&1
echo "exit $?"
sed "s|$d/||g" "$d/v"
# the unchanged fixture, which does not state what it recorded: no note
n=$($CR roofline tests/fixtures/roofline/torch_block.json --topo hgx-h200-8 | grep -c 'did not record')
echo "notes on the fixture as it is: $n"
# the report's program roofline says it too
$CR report --topo hgx-h200-8 --trace "$d/k.json" -o "$d/r" --no-render > /dev/null 2>&1
echo "report exit $?"
grep -o "did not record memcpy, memset[^.]*" "$d/r/index.html"
