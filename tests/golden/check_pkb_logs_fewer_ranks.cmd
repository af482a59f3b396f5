# A 4-GPU run of PKB 7 (files for ranks 0-3: PKB's run_local.py takes
# --nproc-per-node, its README runs 4) is below the 8-rank problem's bound
# but not the 4-rank one's: with ranks missing, a time below the bound is
# "incomplete", not impossible, and the exit status is 0 (QA audit of the
# PKB suite, session 44: it was called impossible, exit 3)
$CR check --pkb-logs tests/fixtures/pkb/fewer_ranks --topo hgx-h100-8
echo "exit $?"
