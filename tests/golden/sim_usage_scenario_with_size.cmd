$CR sim --scenario tests/fixtures/scenarios/tp-dp.xml --topo h100-ib-4n -b 1MB
