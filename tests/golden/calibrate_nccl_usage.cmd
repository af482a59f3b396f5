# calibrate --nccl-tests usage errors (exit 2 each): no log, no --topo, an
# unknown --coll / --fit-coll, --fit-coll matching no log, --coll without
# --nccl-tests, both input kinds at once.
L=tests/fixtures/nccl-tests/calib/synth-h100-8-all_gather_perf.log
t() { "$@" 2>&1; echo "exit $?"; }
t $CR calibrate --nccl-tests --topo hgx-h100-8
t $CR calibrate --nccl-tests $L
t $CR calibrate --nccl-tests $L --topo hgx-h100-8 --coll all_reduce_perfx
t $CR calibrate --nccl-tests $L --topo hgx-h100-8 --fit-coll bogus
t $CR calibrate --nccl-tests $L --topo hgx-h100-8 --fit-coll all_reduce
t $CR calibrate --coll all_reduce --topo hgx-h100-8
t $CR calibrate --nccl-tests $L --from-traces x --topo hgx-h100-8
t $CR calibrate --nccl-tests $L --topo hgx-h100-8 --ranks 0-99
