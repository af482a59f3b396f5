# calibrate --nccl-tests on a topology it already calibrated says so: the
# descent starts from the fitted constants, and a key the first fit held at
# an end of its range may land just inside it (QA audit of 2026-12-06).
# The first run, on the shipped topology, has no such note.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
L=validate/corpus/a100-8/superbench-a100-all_reduce_perf.log
$CR calibrate --nccl-tests $L --topo dgx-a100-8 -o "$d/a1.xml" 2>&1 | grep -c "already holds"
$CR calibrate --nccl-tests $L --topo "$d/a1.xml" -o "$d/a2.xml" 2>&1 | grep "already holds"
echo "exit $?"
