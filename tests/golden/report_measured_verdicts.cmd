# The report's measured table gives check's verdict beside the % of
# roofline, and the cold bound: a 2 MiB device copy in 0.5 us on an H200
# is between its warm (0.2068 us, L2) and cold (0.8738 us, HBM) bounds,
# cache-resident as check says, where the table read only 41 % of roofline
# (QA audit, session 44).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '[{"name": "single_memcpy_d2d", "measured_us": 0.5}, {"name": "single_memcpy_d2d", "variant": "slow", "measured_us": 9}]\n' >"$d/m.json"
$CR report --topo hgx-h200-8 --suite pkb --measured-json "$d/m.json" -o "$d/r" --no-render >/dev/null 2>&1
echo "exit $?"
grep -E '^# *problem|^ *single_memcpy_d2d' "$d/r/measured.txt" | sed "s|$d/|TMP/|"
for us in 0.5 9; do
    $CR check memcpy --kind d2d --bytes 2MiB --topo hgx-h200-8 --measured-us $us --json |
        grep '"verdict"'
done
