# --algo forces the algorithm; --nccl-algo describes the NCCL_ALGO a run
# had, among which NCCL chooses: both at once contradict each other (the
# header would say NCCL chose under NCCL_ALGO=Ring while the row ran a
# tree), so coll refuses them together, and --proto with --nccl-proto
$CR coll allreduce -b 1M -e 1M --nccl-algo Ring --algo tree
echo "exit $?"
$CR coll allreduce -b 1M -e 1M --nccl-proto Simple --proto ll
echo "exit $?"
# every process drives the same number of GPUs (-g N): 3 does not divide 8
$CR coll allreduce -b 1M -e 1M --ranks-per-process 3
