# a log whose rank lines name another GPU than the topology's is refused,
# as a trace of another GPU is: every bound and prediction would be
# another machine's (an A100 log on an H100 box was a note and exit 0).
# --allow-gpu-mismatch compares anyway, with a note; report does the same
# with its --nccl-tests logs, before anything is written
$CR validate --nccl-tests validate/corpus/a100-8/superbench-a100-all_reduce_perf.log --topo hgx-h100-8 --summary
echo "exit $?"
$CR validate --nccl-tests validate/corpus/a100-8/superbench-a100-all_reduce_perf.log --topo hgx-h100-8 --summary --allow-gpu-mismatch | tail -2
echo "exit $?"
T=$(mktemp -d /tmp/cr-golden-vngpu.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
$CR report --topo hgx-h100-8 --nccl-tests validate/corpus/a100-8/superbench-a100-all_reduce_perf.log --no-render -o "$T/r"
echo "exit $?"
ls "$T"
