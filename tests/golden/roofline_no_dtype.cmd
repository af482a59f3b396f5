$CR roofline tests/fixtures/roofline/impossible_mm.json --topo h200-1
