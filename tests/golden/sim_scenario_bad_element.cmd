$CR sim --scenario tests/fixtures/scenarios/bad-element.xml --topo hgx-h200-8
