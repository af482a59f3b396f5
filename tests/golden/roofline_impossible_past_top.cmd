$CR roofline tests/fixtures/roofline/impossible_past_top.json --topo h200-1 --top 1
