# Issue 14 item 4: a log that names neither its collective nor (in a way
# the rows can tell) its rank count. Without options each says what to
# give; --coll (all_reduce, allreduce, all_reduce_perf alike) names the
# collective and wins over the file name; --ranks' count is the rank count
# where busbw/algbw cannot tell it (sendrecv prints busbw = algbw). A
# --coll that contradicts the log's "Collective test starting" line is an
# error; an unknown one a usage error.
f=tests/fixtures/nccl-tests-opts
t() {
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -E '^# nccl-tests|^commroof'
    echo "exit $rc"
}
t $CR validate --topo h100-ib-4n --nccl-tests $f/dstack-gcp-a4.log
t $CR validate --topo h100-ib-4n --nccl-tests $f/dstack-gcp-a4.log --coll all_reduce_perf
t $CR validate --topo h100-ib-4n --nccl-tests $f/dstack-gcp-a4.log --coll allreduce
t $CR validate --topo dgx-a100-8 --nccl-tests $f/liplus-a100-sendrecv.log --coll sendrecv
t $CR validate --topo dgx-a100-8 --nccl-tests $f/liplus-a100-sendrecv.log --coll sendrecv_perf --ranks 0-7
t $CR validate --topo hgx-h100-8 --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --coll all_gather
t $CR validate --topo hgx-h100-8 --nccl-tests tests/fixtures/nccl-tests/pasted-srun-all_reduce_perf.log --coll all_gather
t $CR validate --topo hgx-h100-8 --nccl-tests $f/dstack-gcp-a4.log --coll hypercube
