# A <param> is checked where it is read (audit of 2026-12-04): a misspelt
# key is an error naming the nearest key (it used to be ignored: topo check
# said OK and the model ran with the default), and a value outside the
# model's range is an error with its file:line (it used to pass topo check
# and make sim and coll exit 2, a usage error, without a line).
$CR topo check tests/fixtures/xml/bad-param-misspelt.xml; echo "exit $?"
$CR topo check tests/fixtures/xml/bad-param-range.xml; echo "exit $?"
$CR sim allreduce --topo tests/fixtures/xml/bad-param-range.xml -b 1MB; echo "exit $?"
