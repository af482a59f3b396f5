# grain= that the op would ignore (an all-to-all runs one flow a message):
# file:line, exit 1, as root= on an op without a root
$CR sim --scenario tests/fixtures/scenarios/bad-grain.xml --topo hgx-h200-8
