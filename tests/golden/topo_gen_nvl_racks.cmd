# A rack count whose trays do not fill whole leaves is refused naming the
# rack counts that do (QA audit of 2026-12-06: it gave the advice in nodes,
# which nvl does not take).
$CR topo gen nvl --racks 2 -o /dev/null
