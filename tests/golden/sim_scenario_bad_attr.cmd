$CR sim --scenario tests/fixtures/scenarios/bad-attr.xml --topo hgx-h200-8
