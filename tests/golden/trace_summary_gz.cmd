# Issue 18: `trace summary` opens traces as validate, roofline and report do
# (traces/reader/trace_file.h): a .json.gz summarises to the same figures
# as its .json (before: "not a trace ... found '?'", gzip's first byte).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cp tests/fixtures/traces/minimal.json "$d/m.json"
gzip -c "$d/m.json" > "$d/m.json.gz"
$CR trace summary "$d/m.json" > "$d/plain" 2>&1
$CR trace summary "$d/m.json.gz" > "$d/gz" 2>&1
echo "exit $?"
sed "s|$d/||g" "$d/gz"
sed "s|m\.json|m.json.gz|" "$d/plain" | diff - "$d/gz" && echo "same as the .json"
