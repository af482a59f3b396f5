# Forced combinations that cannot run are usage errors (exit 2), before any
# output: NVLS has no int8 reduction kernel (ncclNvlsSupported); NCCL turns
# NVLS off with 2 GPUs per node (ncclNvlsInit); multimem.ld_reduce has no
# fp8 type on Hopper; a peer mechanism cannot cross a NIC; tf32 is not an
# NCCL element type; options that would be ignored (--root on allreduce,
# --sms without --mech); a factor of 1.001 from 1 B to 1 MiB is over 4096 sizes.
$CR coll allreduce --topo hgx-h100-8 --dtype int8 --algo nvls -b 1M -e 1M; echo "rc $?"; $CR coll allreduce --topo hgx-h100-8 --ranks 0-1 --algo nvls -b 1M -e 1M; echo "rc $?"; $CR coll allreduce --topo hgx-h100-8 --dtype fp8 --mech multimem -b 1M -e 1M; echo "rc $?"; $CR coll allgather --topo h100-ib-4n --ranks 0-15 --mech tma -b 1M -e 1M; echo "rc $?"; $CR coll allreduce --dtype tf32; echo "rc $?"; $CR coll allreduce --root 2; echo "rc $?"; $CR coll allreduce --sms 8; echo "rc $?"; $CR coll allreduce -b 1 -e 1M -f 1.001
