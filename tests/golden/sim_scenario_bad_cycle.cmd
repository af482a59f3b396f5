$CR sim --scenario tests/fixtures/scenarios/bad-cycle.xml --topo hgx-h200-8
