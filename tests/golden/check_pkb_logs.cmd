# ParallelKernelBench logs (tests/fixtures/pkb/README.md): two problems,
# backends reference and cuda, 8 ranks; 13's cuda time (2.1 us) is below
# any allreduce of 2 MiB through 450 GB/s of NVLink ports (4.66 us):
# impossible, exit 3; PKB 9 has no problem in suite pkb: skipped
$CR check --pkb-logs tests/fixtures/pkb/logs --topo hgx-h100-8
