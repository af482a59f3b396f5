# validate names every failure, not only the first: a log with a bound
# violation and a median |err| above --max-median-error said only the
# violation (QA audit, 2026-12-07); the exit status is the gravest, 3
$CR validate --nccl-tests tests/fixtures/nccl-tests/calib/impossible-all_gather_perf.log --topo hgx-h100-8 --summary --max-median-error 1 > "${TMPDIR:-/tmp}/cr-golden-vf.$$"; rc=$?
grep "^# FAILED" "${TMPDIR:-/tmp}/cr-golden-vf.$$"; rm -f "${TMPDIR:-/tmp}/cr-golden-vf.$$"
exit $rc
