# The header names the type as column 6, past the row's last (5th) column:
# an error at the row, not a type read from outside it (issue 13 item 2).
$CR validate --topo h200-1 --nccl-tests tests/fixtures/nccl-tests/bad-type-past-row-all_reduce_perf.log
