# calibrate --nccl-tests on one collective moves coll.op_fixed, which every
# collective pays, against that collective's own step latencies: ALCF
# Sophia's two nodes (the corpus's fitting half), all_reduce fitted,
# all_gather and alltoall held out. The fit puts coll.op_fixed at 0 and the
# report says that one collective's rows cannot fix that split (the
# held-out collectives then come out worse than as shipped: the note is
# the user's cue to calibrate with a second collective).
C=validate/corpus
$CR calibrate --nccl-tests $C/a100-ib-2n/alcf-sophia-n2-env2-all_reduce_perf.log $C/a100-ib-2n/alcf-sophia-n2-env2-all_gather_perf.log $C/a100-ib-2n/alcf-sophia-n2-env2-alltoall_perf.log --topo $C/topologies/sophia-dgx-a100-ib.xml --nccl-version 2.22.3 --fit-coll all_reduce 2>&1 >/dev/null | grep -E "^# (note|fit on)|held-out"
# with both all_reduce and all_gather fitted, no such note
n=$($CR calibrate --nccl-tests $C/a100-ib-2n/alcf-sophia-n2-env2-all_reduce_perf.log $C/a100-ib-2n/alcf-sophia-n2-env2-all_gather_perf.log --topo $C/topologies/sophia-dgx-a100-ib.xml --nccl-version 2.22.3 2>&1 >/dev/null | grep -c "coll.op_fixed, the fixed cost")
echo "notes on coll.op_fixed with two collectives: $n"
