# a perf file cut off while written: the whole run fails on it, file:line,
# nothing on stdout (2>/dev/null shows that stdout is empty), exit 1
$CR check --pkb-logs tests/fixtures/pkb/malformed --topo hgx-h100-8 2>/dev/null; echo "rc=$? stdout above"
$CR check --pkb-logs tests/fixtures/pkb/malformed --topo hgx-h100-8
