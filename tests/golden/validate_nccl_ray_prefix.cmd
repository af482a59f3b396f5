# A log as SkyPilot relays it (issue 14 item 4, logs as people paste them):
# every line starts with the launcher's "(head, rank=0, pid=3808) " and then
# mpirun's "[1,0]<stdout>:" tag. Both go; the 24 rows (1 KiB - 8 GiB,
# all_gather, 16 ranks from the rank lines) are read. Before, no row was.
$CR validate --nccl-tests validate/corpus/h200-roce-2n/skypilot-gke-a3ultra-all_gather_perf.log --topo validate/corpus/topologies/gcp-a3ultra-h200-roce.xml | grep '^# nccl-tests'
