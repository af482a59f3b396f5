# The report's program roofline says what `commroof roofline` says of the
# same traces (QA audit of the report): a trace whose kernels all ran
# outside the ranges roofline reads checks nothing, and its table's note
# said "OK: 0 row(s) with a time below the bound" where roofline says
# FAILED (exit 1); the cr: ranges roofline skips were not mentioned.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR roofline traces/h200-1/cuda_demo.json --topo h200-1 | tail -1
$CR report --topo h200-1 --trace traces/h200-1/cuda_demo.json --no-render -o "$d/a" > /dev/null
echo "exit $?"
sed -n 3p "$d/a/program-roofline.txt"
$CR roofline tests/fixtures/roofline/cr_skipped_beside_catalog.json --topo hgx-h100-8 | grep skipped
$CR report --topo hgx-h100-8 --trace tests/fixtures/roofline/cr_skipped_beside_catalog.json \
    --no-render -o "$d/b" > /dev/null
echo "exit $?"
grep -o '[0-9]* cr: range(s) skipped[^<]*' "$d/b/index.html"
