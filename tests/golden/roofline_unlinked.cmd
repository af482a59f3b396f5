# A trace that recorded its CUDA calls (COMMROOF_TRACE_RECORD=...,api) gives
# each activity to the range that launched it; an activity whose own call is
# not among them (launch_linked.json: the last add's kernel, correlation 99)
# is placed by its start, and the table says so, naming the first. The JSON
# carries the count.
$CR roofline tests/fixtures/roofline/launch_linked.json --top 2
$CR roofline tests/fixtures/roofline/launch_linked.json --json | grep -E '"(unlinked_activities|first_unlinked)"'
