$CR roofline tests/fixtures/roofline/annotated.json --topo h200-1
