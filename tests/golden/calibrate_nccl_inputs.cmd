# What calibrate --nccl-tests says about its inputs (audit of 2026-12-04):
# a 16-rank log on an 8-GPU topology none of whose rows can be predicted
# (a note; it takes no part, so the one log left is fitted in-sample: no
# leave-one-log-out check on a fit of zero rows, and "fit on 1 log(s)").
# A log of another GPU than the topology's was a note here too; it is
# refused now (calibrate_nccl_gpu_mismatch).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR calibrate --nccl-tests validate/corpus/h100-ib-2n/dstack-nebius-all_reduce_perf.log validate/corpus/h100-8/sakura-llmjp-h100-1n-all_reduce_perf.log --topo hgx-h100-8 -o "$d/b.xml" 2>&1 | grep -E "none of its rows|^# fit on|^# cross-check"
# --quick shortens the kernels calibrate runs itself: with logs, a usage error
$CR calibrate --nccl-tests validate/corpus/h100-8/sakura-llmjp-h100-1n-all_reduce_perf.log --topo hgx-h100-8 --quick 2>&1; echo "exit $?"
