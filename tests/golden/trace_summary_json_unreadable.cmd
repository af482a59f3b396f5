# trace summary --json with a file that cannot be read prints no document
# (before: {"traces": [...]} without it, exit 1): the error, exit 1
$CR trace summary /nonexistent.json tests/fixtures/traces/minimal.json --json 2>&1 | grep -v dropped; echo "stdout bytes: $($CR trace summary /nonexistent.json tests/fixtures/traces/minimal.json --json 2>/dev/null | wc -c)"
