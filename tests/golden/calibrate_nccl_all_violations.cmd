# calibrate --nccl-tests on a log whose every row is measured below its
# bound (impossible-all_gather_perf.log's 1 GiB row, and the same at 2 GiB
# in 20 us): no row is left to fit on. It printed "0 rows: mean
# |ln(pred/measured)| 0.0000 -> 0.0000", a perfect fit of nothing, and
# JSON 0.0 for both means (QA audit, 2026-12-07); now it says so, the
# means are null, the note names the reason, and the exit status is 3.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
F=tests/fixtures/nccl-tests/calib/impossible-all_gather_perf.log
L="$d/allimp-all_gather_perf.log"
sed -n 1,20p "$F" > "$L"
sed -n 20p "$F" | sed 's/^  1073741824     268435456/  2147483648     536870912/; s/     10\.00 /     20.00 /g' >> "$L"
$CR calibrate --nccl-tests "$L" --topo hgx-h100-8 -o "$d/out.xml" 2>&1 | sed "s|$d/|TMP/|g"
$CR calibrate --nccl-tests "$L" --topo hgx-h100-8 -o "$d/out.xml" --json | grep mean_abs_ln
$CR calibrate --nccl-tests "$L" --topo hgx-h100-8 -o "$d/out.xml" > /dev/null
