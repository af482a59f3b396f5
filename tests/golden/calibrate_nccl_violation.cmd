# calibrate --nccl-tests: a row measured below its bound is reported, left out
# of the fit, and the exit status is 3 as validate's (the fit is still written).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR calibrate --nccl-tests tests/fixtures/nccl-tests/calib/impossible-all_gather_perf.log --topo hgx-h100-8 -o "$d/out.xml" > "$d/rep" 2>&1
rc=$?
grep -v '^  coll\.' "$d/rep" | sed "s|$d/|TMP/|g"
test -f "$d/out.xml" && echo "out.xml written"
exit $rc
