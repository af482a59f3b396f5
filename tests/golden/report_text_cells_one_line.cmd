# A text table keeps one row a line and one column a cell whatever the
# names hold (audit of the report): a harness result's "variant" with a
# newline and a tab, and an nccl-tests log whose file name holds a
# newline, each forged a line of their own in measured.txt and
# validation.txt (only spaces became '_'). fused-measured.json has 18
# results, 2 variants x 9 problems of h200x2: 18 rows of 8 columns
# (problem, variant, measured, bound, %, baseline, prediction, source).
# The log has 11 rows (8 B to 8 GiB, x8): 11 cases of 12 columns (family,
# case, measured, bound, pred, %, error, impl, binding, violation, source,
# note).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
python3 -c '
import json, sys
r = json.load(open("traces/nvidia-h200-x2/fused-measured.json"))
for e in r:
    e["variant"] = "v\nFORGED\t" + e["variant"]
json.dump(r, open(sys.argv[1], "w"))' "$d/m.json" || exit 1
$CR report --topo hgx-h200-8 --suite h200x2 --ranks 0,1 --measured-json "$d/m.json" \
    --no-render -o "$d/r" > /dev/null 2>&1; echo "exit $?"
grep -v '^#' "$d/r/measured.txt" | awk '{ n[NF]++ } END { for (k in n) print n[k], "rows of", k, "columns" }'
log="$d/$(printf 'a\nFORGED-all_reduce_perf.log')"
cp tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log "$log"
$CR report --topo hgx-h100-8 --nccl-tests "$log" --no-render -o "$d/v" > /dev/null 2>&1; echo "exit $?"
grep -v '^#' "$d/v/validation.txt" | awk '{ n[NF]++ } END { for (k in n) print n[k], "rows of", k, "columns" }'
grep -c '^FORGED' "$d/r/measured.txt" "$d/v/validation.txt" | sed "s|$d/||"
