$CR sim --scenario tests/fixtures/scenarios/moe-hot.xml --topo hgx-h200-8 --top 4
