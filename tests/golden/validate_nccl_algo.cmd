# A run's NCCL_ALGO / NCCL_PROTO, which nccl-tests does not print: Together
# AI's 8x H100 "ring" configuration sets NCCL_ALGO=RING (the log's
# provenance header). As NCCL would choose by default, the 13 rows from 2
# MiB to 8 GiB are NVLS; with --nccl-algo RING all 31 are a ring (LL to 2
# MiB, LL128 4-32 MiB, Simple from 64 MiB), and --nccl-proto Simple makes
# them all ring Simple. Then the errors NCCL's parser would raise (exit 2
# each): an unknown name, a second entry without its collective, a list
# that leaves every collective no protocol.
L=validate/corpus/h100-8/together-h100-ring-all_reduce_perf.log
t() { "$@" 2>&1; echo "exit $?"; }
$CR validate --nccl-tests $L --topo hgx-h100-8 --json | grep -o '"impl": "[a-z0-9/]*"' | sort | uniq -c
$CR validate --nccl-tests $L --topo hgx-h100-8 --nccl-algo RING --json | grep -o '"impl": "[a-z0-9/]*"' | sort | uniq -c
$CR validate --nccl-tests $L --topo hgx-h100-8 --nccl-algo RING --nccl-proto Simple --json | grep -o '"impl": "[a-z0-9/]*"' | sort | uniq -c
t $CR validate --nccl-tests $L --topo hgx-h100-8 --nccl-algo Rink
t $CR validate --nccl-tests $L --topo hgx-h100-8 --nccl-algo "ring;tree"
t $CR validate --nccl-tests $L --topo hgx-h100-8 --nccl-proto "^LL,LL128,Simple"
