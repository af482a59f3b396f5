$CR sim --scenario tests/fixtures/scenarios/bad-start.xml --topo hgx-h200-8
