# calibrate --nccl-tests says what it did not do (QA audit, session 42):
# --fit-coll naming the collective of every log given leaves nothing held
# out, and the cross-check's heading says so (it promised "logs of other
# collectives"); --json without -o prints the report as JSON on stdout and
# writes the calibrated topology nowhere, which a note now says
S=validate/corpus/h100-8/sakura-llmjp-h100-1n
$CR calibrate --nccl-tests $S-all_gather_perf.log --topo hgx-h100-8 --nccl-version 2.22.3 --fit-coll all_gather -o /dev/null 2>/dev/null | grep "^# cross-check"
$CR calibrate --nccl-tests $S-all_gather_perf.log --topo hgx-h100-8 --nccl-version 2.22.3 --json 2>&1 >/dev/null | grep -v "row(s) left out"
