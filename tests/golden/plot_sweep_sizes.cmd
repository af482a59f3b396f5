# plot sweep sizes its messages as coll and nccl-tests do (QA audit of
# 2026-12-06): 1000 B of fp32 allgather over 8 ranks is 896 B (28 elements a
# rank), where the chart used to plot 1000 B; sizes that hold no whole
# element plot nothing, and a sweep of only those is refused.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR plot sweep allgather -b 1000 -e 1000 -o "$d/s.png" --no-render >/dev/null
grep -v '^#' "$d/s.dat" | grep -v '^$' | head -2
$CR coll allgather -b 1000 -e 1000 | tail -1
$CR plot sweep allgather -b 1 -e 512 -o "$d/t.png" --no-render >/dev/null
grep -v '^#' "$d/t.dat" | grep -v '^$' | awk '{print $1}' | head -3
# a usage error (exit 2, as -b 0 -e 8 and one rank are), the sizes named as
# given: 8 ranks x 16 B = 128 B is the least allgather of fp32 that holds a
# part; -b 0 -e 0 was "sizes 1 to 1 B", exit 1 (QA edge audit)
$CR plot sweep allgather -b 1 -e 16 -o "$d/u.png" --no-render
echo "exit $?"
$CR plot sweep allgather -b 0 -e 0 -o "$d/u.png" --no-render
echo "exit $?"
# one rank: a usage error, as sim's (it was exit 1, or a chart with no data)
$CR plot sweep broadcast --ranks 0 -o "$d/r.png" --no-render
echo "exit $?"
