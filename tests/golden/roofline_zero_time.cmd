# An operator whose calls took 0 us is impossible (exit 3); its % of roofline
# is "-" (null in the JSON), not inf.
$CR roofline tests/fixtures/roofline/zero_duration.json --topo h200-1 --json | grep -E '"(pct_of_roofline|verdict)"'
$CR roofline tests/fixtures/roofline/zero_duration.json --topo h200-1
