# An option whose value was left out before the next option: the option
# name is no value (report --trace -o DIR took "-o" as the trace and then
# refused DIR as an unexpected argument; QA audit, session 41). A value
# that only starts with '-' stands (its own reader judges it).
$CR report --trace -o /tmp/cr-golden-never
echo "exit $?"
$CR roofline --topo --json x.json
echo "exit $?"
$CR coll allreduce --topo=--json -b 1M
echo "exit $?"
$CR coll allreduce --ranks -1 -b 1M
echo "exit $?"
