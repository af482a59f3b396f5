# A harness result names the machine it was measured on ("topo"): check
# judges it there, so report and plot gap refuse one of another machine
# than --topo instead of showing it against this one's bound (QA audit of
# 2026-12-07: a gemm_ar time of dgx-a100-8, impossible there, was 78 % of
# roofline in a report of hgx-h200-8, exit 0). The same topology named by
# its file is taken; on its own machine the entry is judged as check does.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '[{"name": "tp_gemm_allreduce", "op": "gemm_ar", "topo": "%s", "params": {"m": 1024, "n": 1024, "k": 4096, "tp": 8}, "measured_us": 6}]\n' dgx-a100-8 >"$d/a100.json"
printf '[{"name": "tp_gemm_allreduce", "topo": "%s", "measured_us": 6}]\n' topologies/hgx-h200-8.xml >"$d/file.json"
$CR check --measured-json "$d/a100.json" >"$d/out" 2>&1
echo "check exit $?"
grep -E '"(topo|bound_us|verdict)"' "$d/out"
$CR report --topo hgx-h200-8 --suite pkb --measured-json "$d/a100.json" -o "$d/r" --no-render >/dev/null 2>"$d/err"
echo "report exit $?"
sed "s|$d/|TMP/|" "$d/err"
$CR plot gap --topo hgx-h200-8 --suite pkb --measured-json "$d/a100.json" -o "$d/g.png" --no-render >"$d/out" 2>&1
echo "plot gap exit $?"
sed "s|$d/|TMP/|" "$d/out"
$CR report --topo dgx-a100-8 --suite pkb --measured-json "$d/a100.json" -o "$d/r2" --no-render >/dev/null 2>&1
echo "report on dgx-a100-8 exit $?"
grep -E '^ *tp_gemm_allreduce' "$d/r2/measured.txt" | sed "s|$d/|TMP/|"
$CR report --topo hgx-h200-8 --suite pkb --measured-json "$d/file.json" -o "$d/r3" --no-render >/dev/null 2>&1
echo "report, topology by its file, exit $?"
grep -E '^ *tp_gemm_allreduce' "$d/r3/measured.txt" | sed "s|$d/|TMP/|"
