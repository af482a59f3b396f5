$CR sim --scenario tests/fixtures/scenarios/bad-duration.xml --topo hgx-h200-8
