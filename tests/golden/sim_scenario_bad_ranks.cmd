$CR sim --scenario tests/fixtures/scenarios/bad-ranks.xml --topo hgx-h200-8
