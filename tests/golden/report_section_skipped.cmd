# A section with nothing to draw is skipped with its reason and the rest
# of the report is written: suite llm has no problem a single H200 runs,
# so the gap chart is left out (before: the whole report failed, exit 1,
# nothing written), and `plot gap` alone still fails with the same reason
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR report --topo h200-1 --suite llm -o "$d/r" --no-render > "$d/out" 2>&1
echo "exit $?"
grep -v '^open' "$d/out" | sed "s|$d/||g"
ls "$d/r" | grep -c .
# a problem the machine cannot run shows "-" for the sizes it never got
# to (ranks, GFLOP, MB: 0 before), its reason at the row's end
grep -v '^#' "$d/r/suite.txt" | head -2 | tr -s ' ' | cut -c1-160
$CR plot gap --topo h200-1 --suite llm -o "$d/g.png"
echo "exit $?"
