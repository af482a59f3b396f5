# coll under a run's NCCL_ALGO: a 64 MiB allreduce on 8 H100 is NVLS by
# NCCL's default choice, a ring (Simple) under NCCL_ALGO=Ring, and again
# NVLS when the list restricts only allgather; an all-to-all is
# point-to-point, which NCCL_ALGO does not govern (no line, the same row).
$CR coll allreduce --topo hgx-h100-8 -b 64M -e 64M
$CR coll allreduce --topo hgx-h100-8 -b 64M -e 64M --nccl-algo Ring
$CR coll allreduce --topo hgx-h100-8 -b 64M -e 64M --nccl-algo "allgather:ring"
$CR coll alltoall --topo hgx-h100-8 -b 64M -e 64M --nccl-algo Ring --nccl-proto LL
