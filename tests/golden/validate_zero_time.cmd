# A range whose GPU activity took 0 us (a timing defect) is below its bound:
# a violation (exit 3), with no % of roofline and no error (not +0.0), and it
# leaves the family's |err| figures to the cases that were timed.
$CR validate tests/fixtures/roofline/zero_duration.json --topo h200-1 --json | grep -E '"(measured_us|pct_of_roofline|error_pct|violation|median_abs_error_pct)"'
$CR validate tests/fixtures/roofline/zero_duration.json --topo h200-1
