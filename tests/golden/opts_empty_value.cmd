# an option given an empty value names nothing and is a usage error in
# every command (the table-driven parser, cli/opts.c): --topo= was read as
# "no topology" (exit 1), -o "" failed late with ": cannot replace it"
$CR coll allreduce --topo= -b 1M -e 1M
echo "exit $?"
$CR calibrate --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --topo hgx-h100-8 -o ""
echo "exit $?"
$CR sim allreduce -b 1M --timeline ""
# and an option that takes one value, given twice, is refused rather than
# the last one silently winning
$CR coll allreduce --topo hgx-h100-8 --topo=dgx-a100-8 -b 1M -e 1M
# numeric options too (topo gen --nodes); the options made to repeat
# (validate --nccl-tests, report --trace) still collect every value
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --nodes 8 -o /dev/null
$CR validate --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --nccl-tests tests/fixtures/nccl-tests/h100-8-1proc-all_gather_perf.log --topo hgx-h100-8 --summary | head -1
