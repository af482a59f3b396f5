# calibrate --nccl-tests refuses a log of another GPU than the base
# topology's, as --from-traces does: the constants fitted on an A100 box
# would go into an H200 topology (QA audit of 2026-12-06: a note, exit 0,
# and the file written). Nothing is written.
T=$(mktemp -d /tmp/cr-golden-calngpu.XXXXXX)
$CR calibrate --nccl-tests validate/corpus/a100-8/abci2-1n-broadcast_perf.log --topo hgx-h200-8 -o "$T/out.xml"
echo "exit $?"
ls "$T"
rm -rf "$T"
