# A log whose rows are all 0 bytes: nothing is predicted, so the summary has
# no |err| to show ("-", null in the JSON) and --max-median-error has no case
# to judge: it fails (exit 1) rather than pass on nothing.
$CR validate --nccl-tests tests/fixtures/nccl-tests/zero_rows_all_gather_perf.log --topo hgx-h100-8 --max-median-error 10 | tail -4
$CR validate --nccl-tests tests/fixtures/nccl-tests/zero_rows_all_gather_perf.log --topo hgx-h100-8 --max-median-error 10
