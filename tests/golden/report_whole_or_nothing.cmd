# report writes into a fresh folder beside -o and moves it into place only
# once whole: a failure (an unknown suite, a gnuplot that fails) leaves no
# folder, or the earlier report untouched, and no stage behind
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR report -o "$d/r" --suite nope 2>&1 | sed "s|$d/||g"
ls "$d"
$CR report -o "$d/r" --topo hgx-h200-8 --no-render > /dev/null && head -1 "$d/r/ceilings.txt"
COMMROOF_GNUPLOT=/bin/false $CR report -o "$d/r" --topo mi300x-8 > "$d/out" 2>&1
echo "exit $?"
sed "s|$d/||g" "$d/out"
rm "$d/out"
head -1 "$d/r/ceilings.txt"
ls "$d"
$CR report -o "$d/r" --topo mi300x-8 --no-render > /dev/null && head -1 "$d/r/ceilings.txt"
ls "$d"
