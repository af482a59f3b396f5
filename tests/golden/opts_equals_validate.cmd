# issue 18 item 3: --opt=value in validate (repeated --nccl-tests=LOG too);
# the lines of validate_nccl_pasted, so its output.
f=tests/fixtures/nccl-tests
$CR validate --topo=h100-ib-4n --nccl-tests=$f/pasted-nohash-all_reduce_perf.log --nccl-tests $f/pasted-srun-all_reduce_perf.log --nccl-tests=$f/pasted-mpitag-all_reduce_perf.log --nccl-tests=$f/pasted-debug-excerpt-all_reduce_perf.log | grep '^# nccl-tests'
$CR validate --topo=h100-ib-4n --nccl-tests=$f/pasted-debug-excerpt-all_reduce_perf.log --json | grep -E '"(source|measured_us|coll_source|nranks_source)"'
