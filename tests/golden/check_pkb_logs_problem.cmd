# a problem folder with a rank missing (no rank_5_perf.json): noted, the
# time is the slowest of the seven read
$CR check --pkb-logs tests/fixtures/pkb/missing_rank/problem_1_allreduce --topo hgx-h100-8
