$CR sim --scenario tests/fixtures/scenarios/chain-after.xml --topo hgx-h200-8 --top 1
