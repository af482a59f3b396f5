# A harness time below its problem's bound (--measured-json) fails the
# report as check fails it: a warning at the top of the part and exit 3
# (QA audit of 2026-12-06: 578 % of roofline passed with exit 0).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '[{"name": "rs_small", "measured_us": 5}, {"name": "ar_dp", "measured_us": 900}]\n' >"$d/m.json"
$CR report --suite tests/fixtures/suites/good.xml --measured-json "$d/m.json" -o "$d/r" --no-render >/dev/null 2>&1
echo "exit $?"
grep -o 'FAILED: [^<]*</b>[^<]*' "$d/r/index.html"
grep -E '^ *rs_small|^ *ar_dp' "$d/r/measured.txt" | sed "s|$d/|TMP/|"
