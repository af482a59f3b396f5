# Issue 18: plot and report gather a trace folder with validate's walk (one
# rule set): another tool's JSON beside the traces is left out and noted in
# the validation table, a hidden file ("._" companion) is not read at all.
# Before, report failed on the other tool's JSON. The table's cases are the
# four launch cases of kernels-launch.json, as
# `commroof validate traces/h200-1/kernels-launch.json` lists them.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
mkdir "$d/tr" || exit 1
cp traces/h200-1/kernels-launch.json "$d/tr/"
cp tests/fixtures/check/bulk_ok.json "$d/tr/results.json"
printf 'x' > "$d/tr/._kernels-launch.json"
$CR report --topo h200-1 --trace "$d/tr" -o "$d/r" --no-render > "$d/out" 2>&1
echo "exit $?"
head -3 "$d/r/validation.txt"
