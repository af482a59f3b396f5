# --cold and the bulk mode's options do not apply (exit 2); no folder (exit 1)
$CR check --pkb-logs tests/fixtures/pkb/logs --cold; echo "rc=$?"
$CR check --pkb-logs tests/fixtures/pkb/logs --measured-json x.json; echo "rc=$?"
$CR check --pkb-logs tests/fixtures/pkb/bad/not_in_problem/cuda; echo "rc=$?"
$CR check --pkb-logs tests/fixtures/pkb/no-such-logs
