$CR sim --scenario tests/fixtures/scenarios/no-such-file.xml --topo hgx-h200-8
