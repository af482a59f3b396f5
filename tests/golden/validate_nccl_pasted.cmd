# Issue 14 item 4: nccl-tests logs as people paste them (excerpts of
# validate/corpus logs, tests/fixtures/nccl-tests/pasted-*): header lines
# without '#' and no rank lines (dstack), srun -l's "0: " on every line,
# mpirun's "[1,0]<stdout>:" also inside each row, NCCL_DEBUG output inside
# the 2 MiB row with only 4 of 8 rank lines. Each table says where its
# collective and rank count came from. Rank counts by hand from the rows:
#  nohash 2 MiB: busbw/algbw = 34.36/18.33 = 1.8745 ~ 2(n-1)/n -> n = 16
#  srun 16 MiB: 105.52/56.28 = 1.8749 -> 16
#  mpitag: rank lines 0-15 -> 16 (its rows' algbw 0.00-0.01 tell nothing)
#  debug: 42.10/24.05 = 1.7505 -> n = 2/(2-1.75) = 8, not the 4 rank lines;
#   the cut row (line 12) reads its time 87.18 from line 17.
f=tests/fixtures/nccl-tests
$CR validate --topo h100-ib-4n --nccl-tests $f/pasted-nohash-all_reduce_perf.log --nccl-tests $f/pasted-srun-all_reduce_perf.log --nccl-tests $f/pasted-mpitag-all_reduce_perf.log --nccl-tests $f/pasted-debug-excerpt-all_reduce_perf.log | grep '^# nccl-tests'
$CR validate --topo h100-ib-4n --nccl-tests $f/pasted-debug-excerpt-all_reduce_perf.log --json | grep -E '"(source|measured_us|coll_source|nranks_source)"'
