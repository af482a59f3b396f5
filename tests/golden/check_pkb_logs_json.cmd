# one backend folder, --json: an array of one result; the problem is the
# parent folder's name
$CR check --pkb-logs tests/fixtures/pkb/logs/problem_1_allreduce/cuda --topo hgx-h100-8 --json
