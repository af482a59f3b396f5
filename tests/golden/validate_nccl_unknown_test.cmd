# A log of several tests with hypercube_perf (not a collective commroof
# models) after alltoall_perf: its 3 rows are left out with a note naming
# the test and its line, never read as the alltoall before it (which, in
# the B200 logs of mghpcc/aicr-benchmarks, called 4 of them impossible).
$CR validate --topo hgx-h100-8 --nccl-tests tests/fixtures/nccl-tests/mixed-tests-hypercube.log
