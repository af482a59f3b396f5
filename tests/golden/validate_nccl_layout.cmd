# A table pasted without its "# nThread T nGpus G" line and rank lines
# (tests/fixtures/nccl-tests/bare-g8-all_reduce_perf.log: four rows of
# Together AI's 8x H100 ring all_reduce, run as one process driving 8 GPUs,
# nccl-tests -g 8) does not say how the GPUs were driven: one process per
# GPU is taken and each row says so; --ranks-per-process 8 gives the -g 8
# prediction (the host launches the 8 GPUs in turn: about twice the small-
# message floor, 33.9 against 16.9 us at 8 B); a log that shows its layout
# keeps it whatever the option says (the full log, -g 8 in its nThread line).
f=tests/fixtures/nccl-tests/bare-g8-all_reduce_perf.log
$CR validate --nccl-tests $f --topo hgx-h100-8 --nccl-algo RING | grep -E '^# nccl-tests|allreduce_n=8_(8B|1KiB) ' | cut -c1-180
$CR validate --nccl-tests $f --topo hgx-h100-8 --nccl-algo RING --ranks-per-process 8 | grep -E '^# nccl-tests|allreduce_n=8_(8B|1KiB) ' | cut -c1-150
$CR validate --nccl-tests validate/corpus/h100-8/together-h100-ring-all_reduce_perf.log --topo hgx-h100-8 --nccl-algo RING --ranks-per-process 1 | grep -E 'allreduce_n=8_8B ' | cut -c1-150
$CR validate --nccl-tests $f --ranks-per-process 8x; echo "exit $?"
