$CR sim --scenario tests/fixtures/scenarios/tp-dp-overlap.xml --topo h100-ib-4n --top 2
